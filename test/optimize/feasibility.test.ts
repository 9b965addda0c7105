/**
 * Every layout the optimizer returns is feasible (spacing ≥ 2D − 1e-6 m, inside the boundary
 * within 1e-6 m), on the circle (cs1), the concave polygon (cs3) and the multipolygon (cs4), from
 * many seeds and with every method. Cheap settings and a small wind rose keep this fast: the
 * constraints do not depend on the wind.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { builtinCase } from '../../src/io/builtinCases.js';
import type { Case } from '../../src/case/case.js';
import { roseFromSectors } from '../../src/physics/windResource.js';
import { optimizeLayout } from '../../src/optimize/optimizeLayout.js';
import { checkFeasibility } from '../../src/geometry/feasibility.js';
import { boundaryDistance } from '../../src/geometry/boundaryDistance.js';

const smallRose = roseFromSectors(
  [0, 90, 180, 270],
  [0.25, 0.25, 0.3, 0.2],
  [9, 12],
  [
    [0.5, 0.5],
    [0.5, 0.5],
    [0.5, 0.5],
    [0.5, 0.5],
  ],
);
const cheap = (name: string): Case => ({ ...builtinCase(name), wind: smallRose });

function assertFeasible(c: Case, x: Float64Array, y: Float64Array, what: string) {
  const report = checkFeasibility(c.boundary, x, y, c.minSpacing, 1e-6);
  assert.ok(report.feasible, `${what}: ${report.worst}`);
  // Independent of checkFeasibility: the raw distances.
  const dist = boundaryDistance(c.boundary!, x, y).value;
  for (let i = 0; i < x.length; i++) assert.ok(dist[i] >= -1e-6, `${what}: turbine ${i} is ${-dist[i]} m outside`);
  for (let i = 0; i < x.length; i++) {
    for (let j = i + 1; j < x.length; j++) {
      assert.ok(Math.hypot(x[i] - x[j], y[i] - y[j]) >= c.minSpacing - 1e-6, `${what}: turbines ${i} and ${j} too close`);
    }
  }
}

const settingsByMethod = {
  gradient: { method: 'gradient', wec: [2, 1], maxIterations: 40, outerIterations: 3 },
  hybrid: { method: 'hybrid', wec: [1], maxIterations: 20, outerIterations: 2, randomIterations: 100 },
  random: { method: 'random', randomIterations: 200 },
  basin: { method: 'basin', wec: [1], maxIterations: 20, outerIterations: 2, hops: 2, hopWec: [1] },
};

for (const [caseName, seeds] of [
  ['iea37-cs1-16', 12],
  ['iea37-cs3', 6],
  ['iea37-cs4', 3],
] as const) {
  for (const [method, settings] of Object.entries(settingsByMethod)) {
    test(`${caseName}: ${method} returns feasible layouts from ${seeds} seeds`, () => {
      const c = cheap(caseName);
      for (let seed = 0; seed < seeds; seed++) {
        const r = optimizeLayout(c, settings, seed);
        assert.equal(r.x.length, c.nTurbines);
        assert.ok(r.feasible && r.maxViolationM <= 1e-6, `seed ${seed}: reported infeasible`);
        assertFeasible(c, r.x, r.y, `${caseName} ${method} seed ${seed}`);
        assert.ok(r.aep >= r.aepInitial, `${method} seed ${seed}: AEP fell from ${r.aepInitial} to ${r.aep}`);
      }
    });
  }
}

test('the gradient method improves the AEP substantially on cs1-16 (real rose)', () => {
  const c = builtinCase('iea37-cs1-16');
  const r = optimizeLayout(c, { method: 'gradient', wec: [2, 1], maxIterations: 60, outerIterations: 4 }, 1);
  assertFeasible(c, r.x, r.y, 'cs1-16');
  // The published baseline ring scores 366 941.57 MWh; a optimized layout must beat it clearly.
  assert.ok(r.aep > 400_000, `AEP ${r.aep}`);
});
