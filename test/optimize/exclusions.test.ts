/**
 * Optimizing on a site with a hole and two exclusion polygons: the result is feasible (inside the
 * circle, outside every zone, spacing ≥ 2D), and the optimizer's zone constraints have exact
 * gradients (central differences).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { builtinCase } from '../../src/io/builtinCases.js';
import type { Case } from '../../src/case/case.js';
import type { Boundary } from '../../src/geometry/boundary.js';
import { checkFeasibility } from '../../src/geometry/feasibility.js';
import { containsPoint } from '../../src/geometry/containsPoint.js';
import { layoutConstraints } from '../../src/optimize/layoutProblem.js';
import { optimizeLayout } from '../../src/optimize/optimizeLayout.js';
import { createRng } from '../../src/util/rng.js';

/** IEA37 cs1-16's circle (radius 1300 m) with a hole at the centre and two exclusion polygons. */
function caseWithZones(): Case {
  const c = builtinCase('iea37-cs1-16');
  const boundary: Boundary = {
    kind: 'circle',
    center: [0, 0],
    radius: 1300,
    exclusions: [
      {
        name: 'hole',
        vertices: [
          [-250, -250],
          [250, -250],
          [250, 250],
          [-250, 250],
        ],
      },
      {
        name: 'shipping lane',
        vertices: [
          [-1400, 600],
          [1400, 750],
          [1400, 950],
          [-1400, 800],
        ],
      },
      {
        name: 'cable',
        vertices: [
          [-900, -1100],
          [-500, -1300],
          [-300, -700],
        ],
      },
    ],
  };
  return { ...c, boundary, layout: null };
}

for (const method of ['gradient', 'global'] as const) {
  test(`${method}: an optimized layout on a site with a hole and two exclusion zones is feasible`, () => {
    const c = caseWithZones();
    const r = optimizeLayout(c, method === 'global' ? { method, hops: 4, seedLayouts: 2 } : { method }, 1);
    const report = checkFeasibility(c.boundary, r.x, r.y, c.minSpacing, 1e-6);
    assert.ok(report.feasible, report.worst ?? '');
    assert.equal(r.feasible, true);
    for (let i = 0; i < r.x.length; i++) assert.ok(containsPoint(c.boundary!, r.x[i]!, r.y[i]!), `turbine ${i} not in the usable site`);
    assert.ok(r.aep >= r.aepInitial);
  });
}

test('zone constraint gradients = central differences', () => {
  const c = caseWithZones();
  const n = 12,
    scale = c.turbine.diameter;
  const cons = layoutConstraints(c.boundary, n, c.minSpacing, scale);
  assert.equal(cons.count, n * 4 + (n * (n - 1)) / 2);
  const rng = createRng(9);
  const z = new Float64Array(2 * n);
  // Points spread over and around the zones (some inside them).
  for (let i = 0; i < n; i++) {
    z[i] = rng.uniform(-1400, 1400) / scale;
    z[n + i] = rng.uniform(-1400, 1400) / scale;
  }
  const w = new Float64Array(cons.count);
  for (let k = 0; k < w.length; k++) w[k] = rng.uniform(0, 2);
  const grad = new Float64Array(2 * n);
  cons.addWeightedGradient(z, w, grad);
  const g = new Float64Array(cons.count);
  const weighted = () => {
    cons.values(z, g);
    let s = 0;
    for (let k = 0; k < g.length; k++) s += w[k]! * g[k]!;
    return s;
  };
  const h = 1e-6;
  let maxErr = 0;
  for (let v = 0; v < 2 * n; v++) {
    const keep = z[v]!;
    z[v] = keep + h;
    const up = weighted();
    z[v] = keep - h;
    const down = weighted();
    z[v] = keep;
    maxErr = Math.max(maxErr, Math.abs((up - down) / (2 * h) - grad[v]!));
  }
  assert.ok(maxErr < 1e-5, `max gradient error ${maxErr}`);
});

test('a turbine inside a zone is reported with the zone name', () => {
  const c = caseWithZones();
  // (0, 100) is 150 m inside the hole (nearest hole edge y = 250).
  const report = checkFeasibility(c.boundary, new Float64Array([0, 1000]), new Float64Array([100, -200]), c.minSpacing);
  assert.equal(report.worst, "turbine 0 is 150.0 m inside exclusion zone 'hole'");
});
