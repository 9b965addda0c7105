/** boundaryPenalty: Σ max(0, shift − dist)² with its gradient added into the caller's arrays. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { boundaryPenalty } from '../../src/geometry/boundaryPenalty.js';
import { boundaryDistance } from '../../src/geometry/boundaryDistance.js';
import { prepareBoundary } from '../../src/geometry/preparedBoundary.js';
import type { Boundary } from '../../src/geometry/boundary.js';
import { createRng } from '../../src/util/rng.js';
import { assertGradientClose, centralDifference, cs3Boundary, cs4Boundary, CS1_16_CIRCLE, randomPoints } from './fixtures.js';

test('boundaryPenalty of a circle: squared metres outside', () => {
  const x = new Float64Array([0, 1303, 0]),
    y = new Float64Array([0, 0, -1304]);
  const gradX = new Float64Array(3),
    gradY = new Float64Array(3);
  // 3 m and 4 m outside: 9 + 16.
  assert.equal(boundaryPenalty(CS1_16_CIRCLE, x, y, gradX, gradY), 25);
  // d/dp (−dist)² = −2·(−dist)·∇dist, ∇dist = −p/|p|: turbine 1 gets (+6, 0), turbine 2 (0, −8).
  assert.deepEqual(
    Array.from(gradX, (v) => v + 0),
    [0, 6, 0],
  );
  assert.deepEqual(
    Array.from(gradY, (v) => v + 0),
    [0, 0, -8],
  );
});

function checkBoundaryPenalty(boundary: Boundary, seed: number, withShift: boolean): void {
  const site = prepareBoundary(boundary);
  const { minX, minY, maxX, maxY } = site.box;
  const rng = createRng(seed);
  const count = 200;
  const { x, y } = randomPoints(rng, count, minX - 500, maxX + 500, minY - 500, maxY + 500);
  const shift = withShift ? Float64Array.from({ length: count }, () => rng.uniform(-50, 300)) : undefined;
  const distance = boundaryDistance(site, x, y).value;
  let reference = 0;
  for (let i = 0; i < count; i++) reference += Math.max(0, (shift ? shift[i]! : 0) - distance[i]!) ** 2;
  const gradX = new Float64Array(count).fill(3),
    gradY = new Float64Array(count).fill(3);
  const value = boundaryPenalty(site, x, y, gradX, gradY, shift);
  assert.ok(reference > 0);
  assert.ok(Math.abs(value - reference) <= 1e-12 * reference, `${value} vs ${reference}`);
  const scratch = new Float64Array(count);
  const penaltyOfI = (i: number) => (): number =>
    boundaryPenalty(site, x.subarray(i, i + 1), y.subarray(i, i + 1), scratch, scratch, shift?.subarray(i, i + 1));
  for (let i = 0; i < count; i++) {
    assertGradientClose(gradX[i]! - 3, centralDifference(x, i, 1e-3, penaltyOfI(i)), `d/dx_${i}`);
    assertGradientClose(gradY[i]! - 3, centralDifference(y, i, 1e-3, penaltyOfI(i)), `d/dy_${i}`);
  }
}

test('boundaryPenalty value and gradient: circle, cs3, cs4', () => {
  checkBoundaryPenalty(CS1_16_CIRCLE, 31, false);
  checkBoundaryPenalty(cs3Boundary(), 32, false);
  checkBoundaryPenalty(cs4Boundary(), 33, false);
});

test('boundaryPenalty with per-turbine shifts (augmented Lagrangian): circle, cs3, cs4', () => {
  checkBoundaryPenalty(CS1_16_CIRCLE, 34, true);
  checkBoundaryPenalty(cs3Boundary(), 35, true);
  checkBoundaryPenalty(cs4Boundary(), 36, true);
});
