/** projectInside: outside turbines land on the nearest boundary point (or a margin inside). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { projectInside } from '../../src/geometry/projectInside.js';
import { boundaryDistance } from '../../src/geometry/boundaryDistance.js';
import { prepareBoundary } from '../../src/geometry/preparedBoundary.js';
import type { Boundary } from '../../src/geometry/boundary.js';
import { createRng } from '../../src/util/rng.js';
import { cs3Boundary, cs4Boundary, CS1_16_CIRCLE, randomPoints } from './fixtures.js';

test('circle: outside turbines move radially onto the circle, or margin inside it', () => {
  const x = new Float64Array([3000, 0, 100]),
    y = new Float64Array([4000, -1400, 100]);
  assert.equal(projectInside(CS1_16_CIRCLE, x, y), 2);
  assert.deepEqual(Array.from(x), [780, 0, 100]);
  assert.deepEqual(Array.from(y), [1040, -1300, 100]);
  const mx = new Float64Array([3000]),
    my = new Float64Array([4000]);
  projectInside(CS1_16_CIRCLE, mx, my, 50);
  assert.deepEqual([mx[0], my[0]], [750, 1000]);
});

test('square: a point off a corner goes to the corner, a point off an edge straight across', () => {
  const square: Boundary = {
    kind: 'polygon',
    vertices: [
      [0, 0],
      [10, 0],
      [10, 10],
      [0, 10],
    ],
  };
  const x = new Float64Array([13, 5, 5]),
    y = new Float64Array([14, -3, 5]);
  assert.equal(projectInside(square, x, y), 2);
  assert.deepEqual([x[0], y[0], x[1], y[1], x[2], y[2]], [10, 10, 5, 0, 5, 5]);
  // With a 1 m margin the corner case takes two Newton steps: along the diagonal, then the rest.
  const mx = new Float64Array([13, 5]),
    my = new Float64Array([14, -3]);
  projectInside(square, mx, my, 1);
  const depth = boundaryDistance(square, mx, my).value;
  assert.ok(Math.abs(depth[0]! - 1) < 1e-9 && Math.abs(depth[1]! - 1) < 1e-9, `depths ${depth}`);
  assert.deepEqual([mx[1], my[1]], [5, 1]);
});

function checkProjection(boundary: Boundary, seed: number): void {
  const site = prepareBoundary(boundary);
  const { minX, minY, maxX, maxY } = site.box;
  const { x, y } = randomPoints(createRng(seed), 300, minX - 2000, maxX + 2000, minY - 2000, maxY + 2000);
  const before = boundaryDistance(site, x, y).value;
  const px = x.slice(),
    py = y.slice();
  const moved = projectInside(site, px, py);
  const after = boundaryDistance(site, px, py).value;
  let outsideBefore = 0;
  for (let i = 0; i < x.length; i++) {
    if (before[i]! >= 0) {
      assert.deepEqual([px[i], py[i]], [x[i], y[i]], `inside turbine ${i} must not move`);
      continue;
    }
    outsideBefore++;
    // On the boundary, and moved exactly by its distance (it is the nearest boundary point).
    assert.ok(Math.abs(after[i]!) < 1e-9 * site.extent, `turbine ${i} at ${after[i]} after projection`);
    const travelled = Math.hypot(px[i]! - x[i]!, py[i]! - y[i]!);
    assert.ok(Math.abs(travelled + before[i]!) < 1e-9 * site.extent, `turbine ${i} moved ${travelled}, was ${before[i]} outside`);
  }
  assert.equal(moved, outsideBefore);
  assert.ok(outsideBefore > 50);
  // With a margin: every moved turbine is inside, and reaches the margin, except at cs3's
  // southern tip [9361.5, 126.9] (also cs4's IIIa), where the site is a spike of about 1° that
  // is narrower than 10 m for its first 10 m: those turbines stay on the tip.
  const mx = x.slice(),
    my = y.slice();
  projectInside(site, mx, my, 5);
  const withMargin = boundaryDistance(site, mx, my).value;
  let reached = 0;
  for (let i = 0; i < x.length; i++) {
    if (before[i]! >= 0) continue;
    assert.ok(withMargin[i]! >= -1e-9 * site.extent, `turbine ${i} outside after projection: ${withMargin[i]}`);
    if (withMargin[i]! >= 5 - 1e-6) reached++;
    else {
      assert.ok(Math.hypot(mx[i]! - 9361.5, my[i]! - 126.9) < 1e-6, `turbine ${i} short of the margin (${withMargin[i]}) at [${mx[i]}, ${my[i]}]`);
    }
  }
  // The tip's outward normal cone spans about 179°, so it is the nearest boundary point of a
  // good share of the random points south of the site.
  assert.ok(reached >= 0.85 * outsideBefore, `${reached} of ${outsideBefore} reached the margin`);
}

test('random points around cs3 and cs4 land on the nearest boundary point', () => {
  checkProjection(cs3Boundary(), 51);
  checkProjection(cs4Boundary(), 52);
});
