/**
 * The waked-inflow engine's exact gradient against central finite differences on random layouts,
 * for the options the default-model sweep of aepGradient.test.ts does not reach: added turbulence
 * (Crespo–Hernández) with each turbulence superposition, rotor-averaging quadrature, each
 * deficit reference, Madsen's induction, wake expansion continuation, the ground mirror, the
 * free-stream shortcut for the new models; and the same AEP with and without the gradient.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createFarmEvaluator } from '../../src/physics/aep.js';
import type { FarmModelSpec } from '../../src/physics/farmModel.js';
import type { Turbine } from '../../src/physics/turbine.js';
import { roseFromSectors } from '../../src/physics/windResource.js';
import { createRng } from '../../src/util/rng.js';
import { centralDifferenceCheck } from './gradientCheck.js';

// A tabulated turbine shaped like a 2 MW, 80 m machine (Ct falling above rated, 0 outside the table).
const turbine: Turbine = {
  name: 'table-2mw',
  diameter: 80,
  hubHeight: 70,
  ratedPowerW: 2e6,
  cutIn: 3,
  cutOut: 25,
  cutOutInclusive: true,
  power: { kind: 'table', speeds: Float64Array.from([3, 5, 7, 9, 11, 13, 25]), powerW: Float64Array.from([0, 0.15e6, 0.46e6, 1.0e6, 1.66e6, 1.96e6, 2e6]) },
  thrust: { kind: 'table', speeds: Float64Array.from([3, 4, 6, 9, 12, 15, 25]), ct: Float64Array.from([0, 0.82, 0.8, 0.8, 0.7, 0.25, 0.05]), outside: 'zero' },
};
const wind = {
  ...roseFromSectors([7, 61, 133, 199, 262, 311], [0.1, 0.2, 0.15, 0.25, 0.2, 0.1], [4.7, 6.3, 8.1, 10.7, 13.9], null),
  turbulenceIntensity: 0.08,
};

function checkGradient(model: FarmModelSpec, seed: number): void {
  const rng = createRng(seed);
  const n = 10;
  const x = new Float64Array(n),
    y = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    x[i] = rng.uniform(0, 1600);
    y[i] = rng.uniform(0, 1600);
  }
  const ev = createFarmEvaluator(turbine, wind, model);
  const { maxAbs, maxErr } = centralDifferenceCheck(ev, x, y);
  const label = JSON.stringify(model);
  assert.ok(maxAbs > 1e-3, `${label}: gradient should not vanish (max |g| = ${maxAbs})`);
  assert.ok(maxErr <= 1e-6 * maxAbs, `${label} seed ${seed}: max |exact − FD| = ${maxErr.toExponential(3)}, relative ${(maxErr / maxAbs).toExponential(3)}`);
}

const variants: FarmModelSpec[] = [
  { wake: 'niayifar2016', superposition: 'linear' },
  { wake: 'niayifar2016', superposition: 'linear', turbulenceSuperposition: 'linear' },
  { wake: 'niayifar2016', superposition: 'sos', turbulenceSuperposition: 'sos' },
  { wake: 'niayifar2016', superposition: 'linear', rotorAverage: 'gauss3' },
  { wake: 'niayifar2016', superposition: 'linear', rotorAverage: 'cgi4', ct2a: 'madsen' },
  { wake: 'niayifar2016', superposition: 'linear', inflow: 'free-stream' },
  { wake: 'niayifar2016', superposition: 'max', rotorAverage: 'cgi7' },
  { wake: 'bastankhah2014', superposition: 'sos', rotorAverage: 'gqgrid4x4' },
  { wake: 'turbopark2022', superposition: 'sos', rotorAverage: 'cgi21' },
  { wake: 'zong2020', superposition: 'linear' },
  { wake: 'zong2020', superposition: 'sos', rotorAverage: 'cgi4', turbulence: 'none' },
  { wake: 'blondel2020', superposition: 'linear', turbulence: 'crespo-hernandez' },
  { wake: 'blondel2020', superposition: 'sos', rotorAverage: 'gauss2' },
  { wake: 'turbopark2022', superposition: 'sos', useEffectiveTi: true, turbulence: 'crespo-hernandez' },
  { wake: 'turbopark2022', superposition: 'linear', deficitReference: 'source-effective', rotorAverage: 'gauss2' },
  { wake: 'bastankhah2014', superposition: 'linear', deficitReference: 'free-stream', rotorAverage: 'gauss4' },
  { wake: 'bastankhah2014', superposition: 'sos', params: { wec: 3 } },
  { wake: 'iea37', superposition: 'sos', inflow: 'waked' },
  { wake: 'jensen', superposition: 'sos', ct2a: 'madsen', params: { k: 0.1 } },
  { wake: 'jensen', superposition: 'linear', turbulence: 'crespo-hernandez', useEffectiveTi: true },
  // The ground as a mirror: each pair's direct and image deficits combined by the superposition rule.
  { wake: 'bastankhah2014', superposition: 'linear', ground: 'mirror' },
  { wake: 'niayifar2016', superposition: 'sos', ground: 'mirror' },
  { wake: 'turbopark2022', superposition: 'sos', rotorAverage: 'cgi4', ground: 'mirror' },
  { wake: 'bastankhah2014', superposition: 'max', rotorAverage: 'gauss3', ground: 'mirror' },
  { wake: 'jensen', superposition: 'sos', params: { k: 0.1 }, ground: 'mirror' },
  // Carbajo Fuertes: the width at the rotor follows the source's TI (ε = c_ε0·k + c_ε1).
  { wake: 'carbajofuertes2018', superposition: 'linear' },
  { wake: 'carbajofuertes2018', superposition: 'sos', rotorAverage: 'cgi4', turbulenceSuperposition: 'linear' },
  { wake: 'carbajofuertes2018', superposition: 'linear', ground: 'mirror' },
  // PyWake's grid rotor averages.
  { wake: 'bastankhah2014', superposition: 'linear', rotorAverage: 'eqgrid4' },
  { wake: 'niayifar2016', superposition: 'sos', rotorAverage: 'polargrid', ground: 'mirror' },
  { wake: 'turbopark2022', superposition: 'sos', rotorAverage: 'grid' },
];

for (const model of variants) {
  test(`waked engine: exact gradient = central differences for ${JSON.stringify(model)}`, () => {
    for (const seed of [11, 12]) checkGradient(model, seed);
  });
}

test('the free-stream shortcut of the waked engine equals the original engine for the original models', () => {
  const rng = createRng(5);
  const x = Float64Array.from({ length: 12 }, () => rng.uniform(0, 2000));
  const y = Float64Array.from({ length: 12 }, () => rng.uniform(0, 2000));
  for (const wake of ['iea37', 'bastankhah2014', 'jensen'] as const) {
    const original = createFarmEvaluator(turbine, wind, { wake, superposition: 'sos', inflow: 'free-stream' }).aep(x, y).aepMwh;
    // ct2a given explicitly routes the same model to the waked engine's free-stream mode.
    const spec: FarmModelSpec = {
      wake,
      superposition: 'sos',
      inflow: 'free-stream',
      ct2a: 'mom1d',
      params: wake === 'bastankhah2014' ? { ctlim: 0.999999 } : {},
    };
    const waked = createFarmEvaluator(turbine, wind, spec).aep(x, y).aepMwh;
    assert.ok(Math.abs(waked - original) <= 1e-12 * original, `${wake}: ${waked} vs ${original}`);
  }
});
