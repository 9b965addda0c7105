/** Spacing constraints, the spacing penalty (plain and shifted) and pair indexing. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spacingConstraint, spacingPenalty } from '../../src/geometry/spacing.js';
import { pairCount, pairIndex } from '../../src/geometry/pairs.js';
import { createRng } from '../../src/util/rng.js';
import { assertGradientClose, centralDifference, randomPoints } from './fixtures.js';

/** Σ_{i<j} max(0, t_ij − d_ij)² written plainly, as the reference. */
function referencePenalty(x: Float64Array, y: Float64Array, spacing: number, shift?: Float64Array): number {
  let total = 0;
  for (let i = 0, k = 0; i < x.length; i++) {
    for (let j = i + 1; j < x.length; j++, k++) {
      const shortfall = spacing + (shift ? shift[k]! : 0) - Math.hypot(x[i]! - x[j]!, y[i]! - y[j]!);
      if (shortfall > 0) total += shortfall * shortfall;
    }
  }
  return total;
}

test('pairIndex enumerates (0,1), (0,2), …, (n−2, n−1) in order', () => {
  for (const n of [2, 3, 7]) {
    let expected = 0;
    for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) assert.equal(pairIndex(i, j, n), expected++);
    assert.equal(pairCount(n), expected);
  }
});

test('spacingConstraint: d_ij − s for every pair with unit-vector gradients', () => {
  // A 3-4-5 triangle: |p0 p1| = 3, |p0 p2| = 4, |p1 p2| = 5.
  const x = new Float64Array([0, 3, 0]),
    y = new Float64Array([0, 0, 4]);
  const result = spacingConstraint(x, y, 4);
  assert.deepEqual(Array.from(result.pairI), [0, 0, 1]);
  assert.deepEqual(Array.from(result.pairJ), [1, 2, 2]);
  assert.deepEqual(Array.from(result.value), [-1, 0, 1]);
  assert.deepEqual(Array.from(result.dxI), [-1, 0, 0.6]);
  assert.deepEqual(
    Array.from(result.dyI, (v) => v + 0),
    [0, -1, -0.8],
  );
  // onlyWithin keeps the pairs with d − s below it, in the same order.
  const near = spacingConstraint(x, y, 4, { onlyWithin: 0.5 });
  assert.deepEqual(Array.from(near.value), [-1, 0]);
  assert.deepEqual(Array.from(near.pairJ), [1, 2]);
  // Coincident turbines: one-sided gradient (1, 0) for the lower index.
  const same = spacingConstraint(new Float64Array([5, 5]), new Float64Array([5, 5]), 2);
  assert.deepEqual([same.value[0], same.dxI[0], same.dyI[0]], [-2, 1, 0]);
});

test('spacingConstraint gradients match central differences', () => {
  const { x, y } = randomPoints(createRng(21), 12, 0, 2000, 0, 2000);
  const spacing = 500;
  const result = spacingConstraint(x, y, spacing);
  assert.equal(result.value.length, pairCount(12));
  const step = 1e-3;
  for (let k = 0; k < result.value.length; k++) {
    const i = result.pairI[k]!,
      j = result.pairJ[k]!;
    const valueK = (): number => spacingConstraint(x, y, spacing).value[k]!;
    assertGradientClose(result.dxI[k]!, centralDifference(x, i, step, valueK), `pair ${k} d/dx_i`);
    assertGradientClose(result.dyI[k]!, centralDifference(y, i, step, valueK), `pair ${k} d/dy_i`);
    assertGradientClose(-result.dxI[k]!, centralDifference(x, j, step, valueK), `pair ${k} d/dx_j`);
    assertGradientClose(-result.dyI[k]!, centralDifference(y, j, step, valueK), `pair ${k} d/dy_j`);
  }
});

/**
 * Value against the reference, and the gradient (added on top of existing contents) against
 * central differences, for every coordinate.
 */
function checkPenalty(x: Float64Array, y: Float64Array, spacing: number, shift?: Float64Array): void {
  const count = x.length;
  const gradX = new Float64Array(count).fill(1),
    gradY = new Float64Array(count).fill(-2);
  const value = spacingPenalty(x, y, spacing, gradX, gradY, shift);
  const reference = referencePenalty(x, y, spacing, shift);
  assert.ok(reference > 0, 'some pairs are too close');
  assert.ok(Math.abs(value - reference) <= 1e-12 * reference, `penalty ${value} vs reference ${reference}`);
  const scratchX = new Float64Array(count),
    scratchY = new Float64Array(count);
  const penalty = (): number => spacingPenalty(x, y, spacing, scratchX, scratchY, shift);
  const step = 1e-3;
  for (let i = 0; i < count; i++) {
    assertGradientClose(gradX[i]! - 1, centralDifference(x, i, step, penalty), `d/dx_${i}`);
    assertGradientClose(gradY[i]! + 2, centralDifference(y, i, step, penalty), `d/dy_${i}`);
  }
}

test('spacingPenalty: value and gradient, small crowded layout (all-pairs loop)', () => {
  const { x, y } = randomPoints(createRng(22), 15, 0, 1500, 0, 1500);
  checkPenalty(x, y, 500);
});

test('spacingPenalty: value and gradient, 200 turbines over 10 km (strip loop)', () => {
  const { x, y } = randomPoints(createRng(23), 200, 0, 10000, 0, 3000);
  checkPenalty(x, y, 396);
});

test('spacingPenalty with per-pair shifts (augmented Lagrangian), both loops', () => {
  for (const [seed, count, width] of [
    [24, 15, 1500],
    [25, 150, 10000],
  ] as const) {
    const rng = createRng(seed);
    const { x, y } = randomPoints(rng, count, 0, width, 0, 2000);
    const shift = new Float64Array(pairCount(count));
    for (let k = 0; k < shift.length; k++) shift[k] = rng.uniform(-100, 150);
    checkPenalty(x, y, 396, shift);
  }
});

test('spacingPenalty is zero with no gradient for a feasible layout, and pushes coincident turbines apart', () => {
  const x = new Float64Array([0, 400, 800]),
    y = new Float64Array([0, 0, 0]);
  const gradX = new Float64Array(3),
    gradY = new Float64Array(3);
  assert.equal(spacingPenalty(x, y, 396, gradX, gradY), 0);
  assert.deepEqual(Array.from(gradX), [0, 0, 0]);
  const same = new Float64Array([7, 7]);
  const pushX = new Float64Array(2),
    pushY = new Float64Array(2);
  assert.equal(spacingPenalty(same, same, 10, pushX, pushY), 100);
  // d/dx0 (10 − d)² = −2·10·(+1): a descent step moves turbine 0 to +x and turbine 1 to −x.
  assert.deepEqual(Array.from(pushX), [-20, 20]);
});
