/**
 * The exact AEP gradient of farms with several turbine types (different diameters, hub heights and
 * curves) and of farms beside fixed neighbours, against central differences: every deficit path of
 * the waked engine (the inline Gaussian, the generic kernel, rotor points with hub offsets, top-hat
 * area overlap, added turbulence with each superposition), for the own turbines only (neighbours
 * are fixed and seed no energy of their own).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createMixedFarmEvaluator } from '../../src/physics/mixedFarm.js';
import type { FarmModelSpec } from '../../src/physics/farmModel.js';
import type { Turbine } from '../../src/physics/turbine.js';
import { roseFromSectors } from '../../src/physics/windResource.js';
import { createRng } from '../../src/util/rng.js';
import { centralDifferenceCheck } from './gradientCheck.js';

function tabulated(name: string, diameter: number, hubHeight: number, rated: number, ctScale: number): Turbine {
  return {
    name,
    diameter,
    hubHeight,
    ratedPowerW: rated,
    cutIn: 3,
    cutOut: 25,
    cutOutInclusive: true,
    power: {
      kind: 'table',
      speeds: Float64Array.from([3, 5, 7, 9, 11, 13, 25]),
      powerW: Float64Array.from([0, 0.075, 0.23, 0.5, 0.83, 0.98, 1].map((f) => f * rated)),
    },
    thrust: {
      kind: 'table',
      speeds: Float64Array.from([3, 4, 6, 9, 12, 15, 25]),
      ct: Float64Array.from([0, 0.82, 0.8, 0.8, 0.7, 0.25, 0.05].map((c) => c * ctScale)),
      outside: 'zero',
    },
  };
}
const types = [tabulated('small', 80, 70, 2e6, 1), tabulated('large', 120, 95, 4.5e6, 0.95), tabulated('low', 90, 60, 2.5e6, 0.9)];
const wind = {
  ...roseFromSectors([7, 61, 133, 199, 262, 311], [0.1, 0.2, 0.15, 0.25, 0.2, 0.1], [4.7, 6.3, 8.1, 10.7, 13.9], null),
  turbulenceIntensity: 0.08,
};

const variants: FarmModelSpec[] = [
  { wake: 'bastankhah2014', superposition: 'linear' },
  { wake: 'bastankhah2014', superposition: 'sos', rotorAverage: 'cgi4' },
  { wake: 'niayifar2016', superposition: 'linear' },
  { wake: 'niayifar2016', superposition: 'sos', turbulenceSuperposition: 'sos', rotorAverage: 'gauss3' },
  { wake: 'niayifar2016', superposition: 'max', turbulenceSuperposition: 'linear' },
  { wake: 'turbopark2022', superposition: 'sos' },
  { wake: 'zong2020', superposition: 'linear' },
  { wake: 'blondel2020', superposition: 'linear', turbulence: 'crespo-hernandez' },
  { wake: 'jensen', superposition: 'sos', ct2a: 'madsen', params: { k: 0.1 } },
  { wake: 'iea37', superposition: 'sos', inflow: 'free-stream' },
  { wake: 'niayifar2016', superposition: 'linear', ground: 'mirror' },
  { wake: 'turbopark2022', superposition: 'sos', rotorAverage: 'cgi4', ground: 'mirror' },
];

function layout(seed: number, n: number, side: number, offset = 0): { x: Float64Array; y: Float64Array; typeOf: Int32Array } {
  const rng = createRng(seed);
  const x = new Float64Array(n),
    y = new Float64Array(n),
    typeOf = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    x[i] = offset + rng.uniform(0, side);
    y[i] = rng.uniform(0, side);
    typeOf[i] = rng.int(types.length);
  }
  return { x, y, typeOf };
}

for (const model of variants) {
  test(`mixed types and neighbours: exact gradient = central differences for ${JSON.stringify(model)}`, () => {
    for (const seed of [21, 22]) {
      const own = layout(seed, 9, 1600);
      for (const neighbours of [null, layout(seed + 100, 6, 1200, -1500)]) {
        const ev = createMixedFarmEvaluator(types, wind, model, neighbours);
        const { maxAbs, maxErr } = centralDifferenceCheck(ev.bind(own.typeOf), own.x, own.y);
        const label = `${JSON.stringify(model)} seed ${seed}${neighbours ? ' with neighbours' : ''}`;
        assert.ok(maxAbs > 1e-3, `${label}: gradient should not vanish (max |g| = ${maxAbs})`);
        assert.ok(maxErr <= 1e-6 * maxAbs, `${label}: max |exact − FD| = ${maxErr.toExponential(3)}, relative ${(maxErr / maxAbs).toExponential(3)}`);
      }
    }
  });
}

test('one type and no neighbours through the mixed evaluator: the one-type JavaScript engine, bit for bit', async () => {
  const { createFarmEvaluator } = await import('../../src/physics/aep.js');
  const own = layout(7, 12, 2000);
  for (const model of variants.filter((m) => m.inflow === undefined)) {
    const single = createFarmEvaluator(types[1], wind, model, 'js').aepWithGradient(own.x, own.y);
    const mixed = createMixedFarmEvaluator([types[1]], wind, model).aepWithGradient(own.x, own.y, new Int32Array(12));
    assert.equal(mixed.aepMwh, single.aepMwh, JSON.stringify(model));
    assert.deepEqual(mixed.gradX, single.gradX);
    assert.deepEqual(mixed.perTurbineMwh, single.perTurbineMwh);
  }
});

test('neighbours are fixed sources: moving one changes the own AEP, its energy is not counted', () => {
  const model: FarmModelSpec = { wake: 'niayifar2016', superposition: 'linear' };
  const own = layout(3, 8, 1500);
  const nb = layout(4, 5, 1000, -1300);
  const ev = createMixedFarmEvaluator(types, wind, model, nb);
  const r = ev.aep(own.x, own.y, own.typeOf);
  assert.equal(r.perTurbineMwh.length, 8);
  assert.equal(r.neighbourMwh.length, 5);
  assert.ok(Math.abs(r.perTurbineMwh.reduce((s, v) => s + v, 0) - r.aepMwh) <= 1e-9 * r.aepMwh);
  const alone = createMixedFarmEvaluator(types, wind, model).aep(own.x, own.y, own.typeOf).aepMwh;
  assert.ok(r.aepMwh < alone, `neighbours take energy: ${r.aepMwh} < ${alone}`);
  // Far away, at a bearing no wind direction comes from (97°, between 61° and 133°), a Gaussian
  // wake without added turbulence (Crespo–Hernández decays too slowly to vanish) cannot reach.
  const gaussian: FarmModelSpec = { wake: 'bastankhah2014', superposition: 'linear' };
  const bearing = (97 * Math.PI) / 180;
  const moved = { ...nb, x: nb.x.map((v) => v + 1300 + 20000 * Math.sin(bearing)), y: nb.y.map((v) => v + 20000 * Math.cos(bearing)) };
  const far = createMixedFarmEvaluator(types, wind, gaussian, moved).aep(own.x, own.y, own.typeOf).aepMwh;
  const aloneGaussian = createMixedFarmEvaluator(types, wind, gaussian).aep(own.x, own.y, own.typeOf).aepMwh;
  assert.equal(far, aloneGaussian, 'neighbours no wake reaches change nothing');
});
