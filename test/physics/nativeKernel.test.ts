/**
 * The native wake kernel against the JavaScript reference engines (wakedAep.ts, aep.ts) for every
 * option it covers: AEP, energy by turbine and gradient on random layouts, with each superposition,
 * induction, deficit reference, added-turbulence superposition, wake expansion continuation and both
 * inflows; the SSE2 and AVX2 builds give the same bits; options it does not cover run in the
 * reference engine; bad arguments to the addon are a TypeError, not a crash.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createFarmEvaluator } from '../../src/physics/aep.js';
import type { FarmModelSpec } from '../../src/physics/farmModel.js';
import type { Turbine } from '../../src/physics/turbine.js';
import { roseFromSectors } from '../../src/physics/windResource.js';
import { nativeIsa, requireAddon } from '../../src/physics/nativeKernel.js';
import { createRng } from '../../src/util/rng.js';
import { builtinTurbine } from '../../src/io/builtinCases.js';

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
  ...roseFromSectors([7, 61, 133, 199, 262, 311, 340], [0.1, 0.2, 0.15, 0.2, 0.2, 0.1, 0.05], [4.7, 6.3, 8.1, 10.7, 13.9, 17, 22, 25], null),
  turbulenceIntensity: 0.08,
};

const variants: FarmModelSpec[] = [
  { wake: 'bastankhah2014', superposition: 'linear' },
  { wake: 'bastankhah2014', superposition: 'sos', deficitReference: 'free-stream' },
  { wake: 'bastankhah2014', superposition: 'max', ct2a: 'madsen' },
  { wake: 'bastankhah2014', superposition: 'sos', params: { wec: 3 } },
  { wake: 'iea37', superposition: 'sos', inflow: 'waked' },
  { wake: 'niayifar2016', superposition: 'linear' },
  { wake: 'niayifar2016', superposition: 'linear', turbulenceSuperposition: 'linear' },
  { wake: 'niayifar2016', superposition: 'sos', turbulenceSuperposition: 'sos', ct2a: 'madsen' },
  { wake: 'niayifar2016', superposition: 'linear', inflow: 'free-stream' },
  { wake: 'turbopark2022', superposition: 'sos' },
  { wake: 'turbopark2022', superposition: 'linear', deficitReference: 'source-effective', ct2a: 'madsen' },
  { wake: 'turbopark2022', superposition: 'sos', useEffectiveTi: true, turbulence: 'crespo-hernandez' },
  { wake: 'jensen', superposition: 'sos', ct2a: 'madsen', params: { k: 0.1 } },
  { wake: 'jensen', superposition: 'linear', rotorAverage: 'center' },
  { wake: 'jensen', superposition: 'linear', turbulence: 'crespo-hernandez', useEffectiveTi: true },
];

function layout(seed: number, n: number, side: number) {
  const rng = createRng(seed);
  const x = new Float64Array(n),
    y = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    x[i] = rng.uniform(0, side);
    y[i] = rng.uniform(0, side);
  }
  return { x, y };
}

for (const model of variants) {
  test(`native = reference: ${JSON.stringify(model)}`, () => {
    assert.equal(
      createFarmEvaluator(turbine, wind, { ...model, inflow: model.inflow ?? 'waked' }, 'native').plan.kernel,
      'native',
      'covered by the native kernel',
    );
    for (const seed of [1, 2]) {
      const { x, y } = layout(seed, 14, 1500);
      const a = createFarmEvaluator(turbine, wind, model, 'native').aepWithGradient(x, y);
      const b = createFarmEvaluator(turbine, wind, model, 'js').aepWithGradient(x, y);
      assert.ok(Math.abs(a.aepMwh - b.aepMwh) <= 1e-13 * b.aepMwh, `AEP ${a.aepMwh} vs reference ${b.aepMwh}`);
      const scale = Math.max(...b.gradX.map(Math.abs), ...b.gradY.map(Math.abs));
      assert.ok(scale > 1e-3);
      for (let i = 0; i < x.length; i++) {
        assert.ok(Math.abs(a.perTurbineMwh[i] - b.perTurbineMwh[i]) <= 1e-12 * b.perTurbineMwh[i], `energy of turbine ${i}`);
        assert.ok(Math.abs(a.gradX[i] - b.gradX[i]) <= 1e-10 * scale, `∂/∂x of turbine ${i}: ${a.gradX[i]} vs ${b.gradX[i]}`);
        assert.ok(Math.abs(a.gradY[i] - b.gradY[i]) <= 1e-10 * scale, `∂/∂y of turbine ${i}: ${a.gradY[i]} vs ${b.gradY[i]}`);
      }
      const sse2 = createFarmEvaluator(turbine, wind, model, 'native', 'sse2').aepWithGradient(x, y);
      assert.equal(sse2.aepMwh, a.aepMwh, `SSE2 build (${nativeIsa()} is best here)`);
      assert.deepEqual([...sse2.gradX, ...sse2.gradY], [...a.gradX, ...a.gradY]);
    }
  });
}

test('native free-stream engine = reference (IEA37 turbine, constant Ct; Bastankhah with a Ct table)', () => {
  const iea = builtinTurbine('iea37-3.35mw');
  const tabulated: Turbine = { ...iea, thrust: { kind: 'table', speeds: Float64Array.from([4, 9.8, 25]), ct: Float64Array.from([0.8, 0.8, 0.1]) } };
  for (const [t, model] of [
    [iea, { wake: 'iea37', superposition: 'sos' }],
    [iea, { wake: 'bastankhah2014', superposition: 'linear', params: { wec: 2 } }],
    [tabulated, { wake: 'bastankhah2014', superposition: 'max', inflow: 'free-stream' }],
  ] as [Turbine, FarmModelSpec][]) {
    const { x, y } = layout(5, 23, 3000);
    const a = createFarmEvaluator(t, wind, model, 'native').aepWithGradient(x, y);
    const b = createFarmEvaluator(t, wind, model, 'js').aepWithGradient(x, y);
    assert.ok(Math.abs(a.aepMwh - b.aepMwh) <= 1e-13 * b.aepMwh, `${JSON.stringify(model)}: ${a.aepMwh} vs ${b.aepMwh}`);
    const scale = Math.max(...b.gradX.map(Math.abs), ...b.gradY.map(Math.abs));
    for (let i = 0; i < x.length; i++) assert.ok(Math.abs(a.gradX[i] - b.gradX[i]) <= 1e-10 * scale && Math.abs(a.gradY[i] - b.gradY[i]) <= 1e-10 * scale);
  }
});

test('options the native kernel lacks run in the reference engine', () => {
  for (const model of [
    { wake: 'zong2020', superposition: 'linear' },
    { wake: 'zong2020', superposition: 'sos', rotorAverage: 'cgi4' },
  ] as FarmModelSpec[]) {
    assert.equal(createFarmEvaluator(turbine, wind, model, 'native').plan.kernel, 'js');
    const { x, y } = layout(3, 6, 1000);
    const a = createFarmEvaluator(turbine, wind, model, 'native').aep(x, y).aepMwh;
    assert.equal(a, createFarmEvaluator(turbine, wind, model, 'js').aep(x, y).aepMwh);
  }
});

test('bad arguments to the addon are a TypeError', () => {
  const addon = requireAddon();
  assert.throws(() => addon.waked(new Float64Array(3)), TypeError);
  assert.throws(() => addon.freeStream('x'), TypeError);
});
