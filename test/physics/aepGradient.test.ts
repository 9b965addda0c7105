/**
 * The exact AEP gradient against central finite differences, on random layouts, for every wake
 * model and superposition rule, with a tabulated power and thrust curve so that every code path
 * (speed-dependent Ct, several speeds per direction, the cubic and table power curves) is used.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createFarmEvaluator } from '../../src/physics/aep.js';
import { WAKE_MODEL_NAMES, SUPERPOSITION_NAMES } from '../../src/physics/farmModel.js';
import type { Turbine } from '../../src/physics/turbine.js';
import { roseFromSectors } from '../../src/physics/windResource.js';
import { builtinTurbine } from '../../src/io/builtinCases.js';
import { createRng } from '../../src/util/rng.js';
import { centralDifferenceCheck } from './gradientCheck.js';

const tableTurbine: Turbine = {
  name: 'table',
  diameter: 120,
  hubHeight: 90,
  ratedPowerW: 3e6,
  cutIn: 3,
  cutOut: 25,
  power: { kind: 'table', speeds: Float64Array.from([3, 5, 7, 9, 11, 13, 25]), powerW: Float64Array.from([0, 0.3e6, 0.9e6, 1.9e6, 2.8e6, 3e6, 3e6]) },
  thrust: { kind: 'table', speeds: Float64Array.from([3, 6, 9, 12, 15, 25]), ct: Float64Array.from([0.82, 0.8, 0.77, 0.55, 0.3, 0.1]) },
};

// Directions deliberately off the grid axes so no pair sits exactly on a wake edge.
const wind = roseFromSectors(
  [7, 61, 133, 199, 262, 311],
  [0.1, 0.2, 0.15, 0.25, 0.2, 0.1],
  [6.3, 8.1, 10.7, 13.9],
  [
    [0.3, 0.3, 0.2, 0.2],
    [0.25, 0.25, 0.25, 0.25],
    [0.1, 0.4, 0.3, 0.2],
    [0.4, 0.3, 0.2, 0.1],
    [0.2, 0.2, 0.3, 0.3],
    [0.5, 0.2, 0.2, 0.1],
  ],
);

function checkGradient(
  turbine: Turbine,
  wake: (typeof WAKE_MODEL_NAMES)[number],
  superposition: (typeof SUPERPOSITION_NAMES)[number],
  seed: number,
  extraParams: Record<string, number> = {},
) {
  const rng = createRng(seed);
  const n = 12;
  const x = new Float64Array(n),
    y = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    x[i] = rng.uniform(0, 2500);
    y[i] = rng.uniform(0, 2500);
  }
  const model = { wake, superposition, params: wake === 'jensen' ? { k: 0.1, ...extraParams } : extraParams };
  const ev = createFarmEvaluator(turbine, wind, model);
  const { maxAbs, maxErr } = centralDifferenceCheck(ev, x, y);
  assert.ok(maxAbs > 1e-3, `gradient should not vanish on a waked layout (max |g| = ${maxAbs})`);
  assert.ok(
    maxErr <= 1e-6 * maxAbs,
    `${wake}/${superposition} seed ${seed}: max |exact − FD| = ${maxErr.toExponential(3)}, relative ${(maxErr / maxAbs).toExponential(3)}`,
  );
}

for (const wake of WAKE_MODEL_NAMES) {
  // The weighted sum (Zong 2020) has its own gradient test (weightedSumGradient.test.ts).
  for (const superposition of SUPERPOSITION_NAMES.filter((s) => s !== 'weighted')) {
    test(`exact gradient = central differences: ${wake} wake, ${superposition} superposition`, () => {
      for (const seed of [1, 2, 3]) {
        checkGradient(tableTurbine, wake, superposition, seed);
        checkGradient(builtinTurbine('iea37-3.35mw'), wake, superposition, seed + 100);
      }
    });
  }
}

test('exact gradient with wake expansion continuation (wec = 3) for the Gaussian models', () => {
  for (const wake of ['iea37', 'bastankhah2014'] as const) {
    checkGradient(tableTurbine, wake, 'sos', 7, { wec: 3 });
    checkGradient(builtinTurbine('iea37-3.35mw'), wake, 'sos', 8, { wec: 3 });
  }
});
