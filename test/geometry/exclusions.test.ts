/**
 * Exclusion zones and holes (Boundary.exclusions): every geometry function treats the inside of a
 * zone like the outside of the site. Expected numbers come from the construction of the shapes
 * (a point 12.3 m from a zone's nearest edge is 12.3 m inside it), never from earlier runs.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Boundary } from '../../src/geometry/boundary.js';
import { validateBoundary } from '../../src/geometry/validateBoundary.js';
import { prepareBoundary } from '../../src/geometry/preparedBoundary.js';
import { containsPoint } from '../../src/geometry/containsPoint.js';
import { boundaryDistance, signedDistanceAt } from '../../src/geometry/boundaryDistance.js';
import { checkFeasibility } from '../../src/geometry/feasibility.js';
import { projectInside } from '../../src/geometry/projectInside.js';
import { randomFeasibleLayout } from '../../src/geometry/sampling.js';
import { gridLayout } from '../../src/geometry/gridLayout.js';
import { structuredLayout, STRUCTURED_FAMILIES } from '../../src/geometry/structuredLayouts.js';
import { createRng } from '../../src/util/rng.js';
import { assertGradientClose, centralDifference, cs3Boundary, randomPoints } from './fixtures.js';

/** A 2 km square with a square hole in the middle and two exclusion polygons. */
const SITE: Boundary = {
  kind: 'polygon',
  vertices: [
    [0, 0],
    [2000, 0],
    [2000, 2000],
    [0, 2000],
  ],
  exclusions: [
    {
      name: 'hole',
      vertices: [
        [800, 800],
        [1200, 800],
        [1200, 1200],
        [800, 1200],
      ],
    },
    {
      name: 'shipping lane',
      vertices: [
        [-100, 300],
        [2100, 300],
        [2100, 500],
        [-100, 500],
      ],
    },
    {
      name: 'cable',
      vertices: [
        [1500, 1400],
        [1700, 1400],
        [1600, 1900],
      ],
    },
  ],
};

test('validateBoundary accepts zones and names a broken one', () => {
  assert.equal(validateBoundary(SITE), null);
  const crossed: Boundary = {
    ...SITE,
    exclusions: [
      {
        name: 'bow tie',
        vertices: [
          [100, 100],
          [300, 300],
          [300, 100],
          [100, 300],
        ],
      },
    ],
  };
  assert.match(validateBoundary(crossed)!, /exclusion zone 'bow tie' is self-intersecting/);
  const unnamed = {
    ...SITE,
    exclusions: [
      {
        name: '',
        vertices: [
          [100, 100],
          [300, 100],
          [300, 300],
        ],
      },
    ],
  } as Boundary;
  assert.match(validateBoundary(unnamed)!, /exclusion zone 0 needs a non-empty name/);
  const twoPoints: Boundary = {
    ...SITE,
    exclusions: [
      {
        name: 'line',
        vertices: [
          [100, 100],
          [300, 100],
        ],
      },
    ],
  };
  assert.match(validateBoundary(twoPoints)!, /exclusion zone 'line' has 2 distinct vertices/);
});

test('validateBoundary: a zone (or zones) covering the whole site is an error', () => {
  const covered: Boundary = {
    kind: 'circle',
    center: [0, 0],
    radius: 1000,
    exclusions: [
      {
        name: 'all',
        vertices: [
          [-2000, -2000],
          [2000, -2000],
          [2000, 2000],
          [-2000, 2000],
        ],
      },
    ],
  };
  assert.equal(validateBoundary(covered), "exclusion zone 'all' covers the whole site");
  const halves: Boundary = {
    kind: 'polygon',
    vertices: [
      [0, 0],
      [10, 0],
      [10, 10],
      [0, 10],
    ],
    exclusions: [
      {
        name: 'west',
        vertices: [
          [-1, -1],
          [5.5, -1],
          [5.5, 11],
          [-1, 11],
        ],
      },
      {
        name: 'east',
        vertices: [
          [5, -1],
          [11, -1],
          [11, 11],
          [5, 11],
        ],
      },
    ],
  };
  assert.match(validateBoundary(halves)!, /exclusion zones 'west', 'east' together cover the whole site/);
  assert.throws(() => prepareBoundary(covered), /invalid boundary: exclusion zone 'all' covers the whole site/);
});

test('containsPoint and signed distance: inside a zone counts as outside the site', () => {
  assert.equal(containsPoint(SITE, 100, 100), true);
  assert.equal(containsPoint(SITE, 1000, 1000), false); // in the hole
  assert.equal(containsPoint(SITE, 700, 400), false); // in the shipping lane
  assert.equal(containsPoint(SITE, 1600, 1500), false); // in the cable triangle
  const site = prepareBoundary(SITE);
  const g = new Float64Array(2);
  // (1000, 850) is 50 m inside the hole (nearest hole edge y = 800): moving down (−y) gets it out.
  assert.ok(Math.abs(signedDistanceAt(site, 1000, 850, g) + 50) < 1e-12);
  assert.deepEqual(Array.from(g), [0, -1]);
  // 100, 250: 50 m below the lane (y = 300) and 100 m from the site edges: the lane is nearer.
  assert.ok(Math.abs(signedDistanceAt(site, 100, 250, g) - 50) < 1e-12);
  assert.equal(g[0], 0);
  assert.equal(g[1], -1);
});

test('signed distance gradient with zones = central differences', () => {
  const site = prepareBoundary(SITE);
  const rng = createRng(5);
  const { x, y } = randomPoints(rng, 300, -200, 2200, -200, 2200);
  const d = boundaryDistance(site, x, y);
  const g = new Float64Array(2);
  let checked = 0;
  for (let i = 0; i < x.length; i++) {
    // Skip points within 1 m of a kink (medial axis or a tie between the site and a zone), where
    // a central difference straddles two features.
    const h = 1e-4;
    const probe = (dx: number, dy: number) => signedDistanceAt(site, x[i]! + dx, y[i]! + dy, g);
    const smooth = Math.abs(probe(1, 0) - probe(-1, 0) - 2 * d.dx[i]!) < 1e-6 && Math.abs(probe(0, 1) - probe(0, -1) - 2 * d.dy[i]!) < 1e-6;
    if (!smooth) continue;
    const xs = Float64Array.from([x[i]!, y[i]!]);
    const fx = () => signedDistanceAt(site, xs[0]!, xs[1]!, g);
    assertGradientClose(d.dx[i]!, centralDifference(xs, 0, h, fx), `d/dx at point ${i}`, 1e-6, 1);
    assertGradientClose(d.dy[i]!, centralDifference(xs, 1, h, fx), `d/dy at point ${i}`, 1e-6, 1);
    checked++;
  }
  assert.ok(checked > 250, `only ${checked} smooth points checked`);
});

test('checkFeasibility names the exclusion zone a turbine is in', () => {
  const x = new Float64Array([100, 1000, 1700]),
    y = new Float64Array([100, 812.3, 100]);
  const report = checkFeasibility(SITE, x, y, 260);
  assert.equal(report.feasible, false);
  assert.equal(report.worst, "turbine 1 is 12.3 m inside exclusion zone 'hole'");
  assert.ok(Math.abs(report.maxViolationM - 12.3) < 1e-9);
  const lane = checkFeasibility(SITE, new Float64Array([100, 700]), new Float64Array([100, 420]), 260);
  assert.equal(lane.worst, "turbine 1 is 80.0 m inside exclusion zone 'shipping lane'");
  assert.equal(checkFeasibility(SITE, new Float64Array([100, 700]), new Float64Array([100, 600]), 260).feasible, true);
});

test('projectInside moves turbines out of zones, to the nearest usable point', () => {
  const x = new Float64Array([1000, 700, 1600]),
    y = new Float64Array([850, 420, 1500]);
  assert.equal(projectInside(SITE, x, y), 3);
  assert.deepEqual([x[0], y[0]], [1000, 800]);
  assert.deepEqual([x[1], y[1]], [700, 500]);
  const depth = boundaryDistance(SITE, x, y).value;
  for (const v of depth) assert.ok(v >= -1e-9, `depth ${v}`);
  const mx = new Float64Array([1000, 700]),
    my = new Float64Array([850, 420]);
  projectInside(SITE, mx, my, 2);
  for (const v of boundaryDistance(SITE, mx, my).value) assert.ok(Math.abs(v - 2) < 1e-9, `margin depth ${v}`);
});

test('random, grid and structured layouts avoid every zone', () => {
  const rng = createRng(11);
  const layouts = [randomFeasibleLayout(SITE, 20, 260, rng), gridLayout(SITE, 20, 260)];
  for (const family of STRUCTURED_FAMILIES) layouts.push(structuredLayout(SITE, 20, 260, family, rng, { directionRad: 1.2 }));
  for (const { x, y } of layouts) {
    const report = checkFeasibility(SITE, x, y, 260);
    assert.ok(report.feasible, report.worst ?? '');
    assert.equal(x.length, 20);
  }
});

test('cs3 polygon with a hole: structured layouts stay feasible', () => {
  const base = cs3Boundary();
  const site = prepareBoundary(base);
  const cx = 0.5 * (site.box.minX + site.box.maxX),
    cy = 0.5 * (site.box.minY + site.box.maxY);
  const withHole: Boundary = {
    ...base,
    exclusions: [
      {
        name: 'hole',
        vertices: [
          [cx - 400, cy - 400],
          [cx + 400, cy - 400],
          [cx + 400, cy + 400],
          [cx - 400, cy + 400],
        ],
      },
    ],
  };
  assert.equal(validateBoundary(withHole), null);
  const rng = createRng(3);
  for (const family of STRUCTURED_FAMILIES) {
    const { x, y } = structuredLayout(withHole, 25, 396, family, rng);
    const report = checkFeasibility(withHole, x, y, 396);
    assert.ok(report.feasible, `${family}: ${report.worst}`);
  }
});
