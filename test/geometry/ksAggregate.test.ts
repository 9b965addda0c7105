/** KS aggregated constraints: the envelope bounds and exact gradients. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spacingKs, boundaryKs } from '../../src/geometry/ksAggregate.js';
import { spacingConstraint } from '../../src/geometry/spacing.js';
import { boundaryDistance } from '../../src/geometry/boundaryDistance.js';
import { prepareBoundary } from '../../src/geometry/preparedBoundary.js';
import { createRng } from '../../src/util/rng.js';
import { assertGradientClose, centralDifference, cs4Boundary, randomPoints } from './fixtures.js';

test('spacingKs lies within [min g − ln(K)/ρ, min g] and its gradient is exact', () => {
  const { x, y } = randomPoints(createRng(41), 40, 0, 4000, 0, 4000);
  const spacing = 396;
  const smallest = Math.min(...spacingConstraint(x, y, spacing).value);
  const pairs = (40 * 39) / 2;
  for (const rho of [0.01, 0.1, 1]) {
    const gradX = new Float64Array(40),
      gradY = new Float64Array(40);
    const ks = spacingKs(x, y, spacing, rho, gradX, gradY);
    assert.ok(ks <= smallest + 1e-9 && ks >= smallest - Math.log(pairs) / rho - 1e-9, `rho ${rho}: ${ks} vs min ${smallest}`);
    const scratch = new Float64Array(40);
    const value = (): number => spacingKs(x, y, spacing, rho, scratch, scratch);
    for (let i = 0; i < 40; i++) {
      assertGradientClose(gradX[i]!, centralDifference(x, i, 1e-3, value), `rho ${rho} d/dx_${i}`, 1e-6, 0.01);
      assertGradientClose(gradY[i]!, centralDifference(y, i, 1e-3, value), `rho ${rho} d/dy_${i}`, 1e-6, 0.01);
    }
  }
  // Two turbines: one term, so KS is exactly d − s.
  const gx = new Float64Array(2),
    gy = new Float64Array(2);
  assert.equal(spacingKs(new Float64Array([0, 300]), new Float64Array([0, 400]), 396, 0.1, gx, gy), 104);
  assert.equal(spacingKs(new Float64Array([1]), new Float64Array([1]), 396, 0.1, gx, gy), Infinity);
});

test('boundaryKs lies within [min dist − ln(n)/ρ, min dist] and its gradient is exact (cs4)', () => {
  const site = prepareBoundary(cs4Boundary());
  const { minX, minY, maxX, maxY } = site.box;
  const { x, y } = randomPoints(createRng(42), 60, minX, maxX, minY, maxY);
  const smallest = Math.min(...boundaryDistance(site, x, y).value);
  for (const rho of [0.01, 0.1]) {
    const gradX = new Float64Array(60),
      gradY = new Float64Array(60);
    const ks = boundaryKs(site, x, y, rho, gradX, gradY);
    assert.ok(ks <= smallest + 1e-9 && ks >= smallest - Math.log(60) / rho - 1e-9, `rho ${rho}: ${ks} vs min ${smallest}`);
    const scratch = new Float64Array(60);
    const value = (): number => boundaryKs(site, x, y, rho, scratch, scratch);
    for (let i = 0; i < 60; i++) {
      assertGradientClose(gradX[i]!, centralDifference(x, i, 1e-3, value), `rho ${rho} d/dx_${i}`, 1e-6, 0.01);
      assertGradientClose(gradY[i]!, centralDifference(y, i, 1e-3, value), `rho ${rho} d/dy_${i}`, 1e-6, 0.01);
    }
  }
  assert.throws(() => boundaryKs(site, x, y, 0, new Float64Array(60), new Float64Array(60)), RangeError);
});
