/**
 * The native waked kernel (native/wakedKernel.inc forwardDeficitsMulti, addedTurbulenceKernel.inc)
 * against the JavaScript engine (engine/forward.ts pointwiseTarget, engine/pairDeficit.ts) for the
 * features it took over from it: the ground mirror, every rotor-average quadrature of
 * rotor/rotorPoints.ts and Madsen's Ct→a inside Crespo–Hernández — alone and in every combination
 * (ground × rotor average × ct2a), on random farms, AEP, energy by turbine and ∂AEP/∂(x, y) to
 * 1e-12 relative, and the SSE2 build bit for bit the AVX2 one. The JavaScript engine equals PyWake
 * on these features (pywakeReference.test.ts: ground-*, rotor-*, *-cgi4-* cases, which now run on
 * the native kernel too).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createFarmEvaluator } from '../../src/physics/aep.js';
import type { FarmModelSpec } from '../../src/physics/farmModel.js';
import type { Turbine } from '../../src/physics/turbine.js';
import { roseFromSectors } from '../../src/physics/windResource.js';
import { wakedConfig } from '../../src/physics/nativeKernel.js';
import { createRng } from '../../src/util/rng.js';
import { loadSiteReference } from './siteReference.js';

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

const ROTOR_AVERAGES = ['center', 'cgi4', 'cgi7', 'cgi9', 'cgi21', 'gqgrid3x2', 'gauss2', 'gauss4', 'eqgrid1', 'eqgrid5', 'grid', 'polargrid'];
const SUPERPOSITIONS = ['linear', 'sos', 'max'] as const;
const WAKES: { wake: string; extra: Partial<FarmModelSpec>; averages: string[] }[] = [
  { wake: 'bastankhah2014', extra: {}, averages: ROTOR_AVERAGES },
  { wake: 'niayifar2016', extra: {}, averages: ROTOR_AVERAGES },
  { wake: 'turbopark2022', extra: { useEffectiveTi: true }, averages: ROTOR_AVERAGES },
  { wake: 'jensen', extra: { ct2a: 'madsen' }, averages: ['area-overlap', ...ROTOR_AVERAGES] },
];

/**
 * n turbines uniformly at random in a square, at least 2D apart (a closer pair drives the added
 * turbulence, ∝ (dx/D)^−0.32, past 100 % TI, where the gradient is ill-conditioned: two kernels
 * that differ in the last bit then differ by ~1e-12 of the gradient).
 */
function layout(seed: number, n: number, side: number) {
  const rng = createRng(seed);
  const x = new Float64Array(n),
    y = new Float64Array(n);
  const min2 = (2 * turbine.diameter) ** 2;
  for (let i = 0; i < n; i++) {
    do {
      x[i] = rng.uniform(0, side);
      y[i] = rng.uniform(0, side);
    } while (Array.from({ length: i }, (_, j) => (x[i] - x[j]) ** 2 + (y[i] - y[j]) ** 2).some((d2) => d2 < min2));
  }
  return { x, y };
}

function rel(a: number, b: number, scale = Math.abs(b)): number {
  return Math.abs(a - b) / Math.max(scale, 1e-300);
}

/** Native = JavaScript for the model on a random farm of `n` turbines; returns the largest relative differences. */
function compare(model: FarmModelSpec, seed: number, n: number): { aep: number; turbine: number; gradient: number } {
  const { x, y } = layout(seed, n, 110 * n);
  const a = createFarmEvaluator(turbine, wind, model, 'native').aepWithGradient(x, y);
  const b = createFarmEvaluator(turbine, wind, model, 'js').aepWithGradient(x, y);
  const scale = Math.max(...b.gradX.map(Math.abs), ...b.gradY.map(Math.abs));
  assert.ok(scale > 1e-3, 'the farm has wakes');
  let perTurbine = 0,
    gradient = 0;
  for (let i = 0; i < n; i++) {
    perTurbine = Math.max(perTurbine, rel(a.perTurbineMwh[i], b.perTurbineMwh[i]));
    gradient = Math.max(gradient, rel(a.gradX[i], b.gradX[i], scale), rel(a.gradY[i], b.gradY[i], scale));
  }
  const sse2 = createFarmEvaluator(turbine, wind, model, 'native', 'sse2').aepWithGradient(x, y);
  assert.equal(sse2.aepMwh, a.aepMwh, 'SSE2 build = AVX2 build');
  assert.deepEqual([...sse2.gradX, ...sse2.gradY], [...a.gradX, ...a.gradY], 'SSE2 gradient = AVX2 gradient');
  return { aep: rel(a.aepMwh, b.aepMwh), turbine: perTurbine, gradient };
}

for (const { wake, extra, averages } of WAKES) {
  test(`native = JavaScript to 1e-12 with ${wake}: ground × rotor average × added-turbulence ct2a, with the gradient`, () => {
    let k = 0;
    for (const ground of ['none', 'mirror'] as const) {
      for (const rotorAverage of averages) {
        for (const ct2a of [null, 'mom1d', 'madsen'] as const) {
          const superposition = SUPERPOSITIONS[k++ % 3];
          const model: FarmModelSpec = {
            wake,
            superposition,
            ...extra,
            ground,
            rotorAverage,
            ...(ct2a === null
              ? {}
              : { turbulence: 'crespo-hernandez', turbulenceCt2a: ct2a, turbulenceSuperposition: (['sqrmax', 'linear', 'sos'] as const)[k % 3] }),
          };
          const what = JSON.stringify(model);
          assert.ok(wakedConfig(turbine, wind, { ...model, inflow: 'waked' }, 'best'), `${what}: the native kernel covers it`);
          const d = compare(model, 11 + k, 10 + (k % 5));
          assert.ok(d.aep <= 1e-12, `${what}: AEP relative ${d.aep.toExponential(2)}`);
          assert.ok(d.turbine <= 1e-12, `${what}: energy by turbine relative ${d.turbine.toExponential(2)}`);
          // The gradient relative to its largest component (nativeKernel.test.ts allows 1e-10).
          assert.ok(d.gradient <= 1e-12, `${what}: gradient relative ${d.gradient.toExponential(2)}`);
        }
      }
    }
  });
}

test('the ground changes the native result as it changes the JavaScript one (the mirror is not a no-op)', () => {
  const { x, y } = layout(3, 12, 1000);
  for (const model of [
    { wake: 'bastankhah2014', superposition: 'linear' },
    { wake: 'jensen', superposition: 'sos', rotorAverage: 'cgi4', params: { k: 0.2 } },
  ] as FarmModelSpec[]) {
    const flat = createFarmEvaluator(turbine, wind, model, 'native').aep(x, y).aepMwh;
    const mirrored = createFarmEvaluator(turbine, wind, { ...model, ground: 'mirror' }, 'native').aep(x, y).aepMwh;
    const js = createFarmEvaluator(turbine, wind, { ...model, ground: 'mirror' }, 'js').aep(x, y).aepMwh;
    assert.ok(mirrored < flat * (1 - 1e-6), `${JSON.stringify(model)}: the image's wake lowers the AEP (${mirrored} vs ${flat})`);
    assert.ok(rel(mirrored, js) <= 1e-12);
  }
});

test('on a site that is not uniform (speed-up, TI field): the ground, rotor points and ct2a on the native kernel = JavaScript to 1e-12', () => {
  for (const [file, extra] of [
    ['site-speedup-bastankhah2014.yaml', { ground: 'mirror', rotorAverage: 'cgi7' }],
    ['site-speedup-jensen1983.yaml', { ground: 'mirror' }],
    ['site-ti-niayifar2016.yaml', { ground: 'mirror', rotorAverage: 'gauss2', turbulenceCt2a: 'madsen' }],
  ] as [string, Partial<FarmModelSpec>][]) {
    const c = loadSiteReference(file);
    const spec: FarmModelSpec = { ...c.model, ...extra, inflow: 'waked' };
    assert.ok(wakedConfig(c.turbine, c.wind, spec, 'best'), `${file}: native`);
    const x = Float64Array.from(c.layout!.x),
      y = Float64Array.from(c.layout!.y);
    const a = createFarmEvaluator(c.turbine, c.wind, spec, 'native').aepWithGradient(x, y);
    const b = createFarmEvaluator(c.turbine, c.wind, spec, 'js').aepWithGradient(x, y);
    assert.ok(rel(a.aepMwh, b.aepMwh) <= 1e-12, `${file}: AEP ${a.aepMwh} vs ${b.aepMwh}`);
    const scale = Math.max(...b.gradX.map(Math.abs), ...b.gradY.map(Math.abs));
    for (let i = 0; i < x.length; i++) {
      assert.ok(rel(a.perTurbineMwh[i], b.perTurbineMwh[i]) <= 1e-12, `${file}: turbine ${i}`);
      assert.ok(rel(a.gradX[i], b.gradX[i], scale) <= 1e-12 && rel(a.gradY[i], b.gradY[i], scale) <= 1e-12, `${file}: gradient of turbine ${i}`);
    }
  }
});
