/**
 * The native kernel on the conditions that are not one rose with one TI (issue 41): time series
 * (each sample its own direction, speed and TI; physics/windSeries.ts), a rose with a TI per bin,
 * and per-point Weibull sites (each turbine's own probability of every condition;
 * physics/site/siteWeibull.ts). Against the JavaScript engine (engine/solveWaked.ts, the readable
 * reference) on random farms: AEP, energy by turbine and by direction, ∂AEP/∂x and ∂AEP/∂y to 1e-12
 * relative (the gradient: of its largest component), for several wake, superposition and
 * added-turbulence options; the same through parallelAep's worker threads (rows by direction added
 * up on this thread). PyWake's references for these features run on the native kernel where it is
 * built (pywakeReference.test.ts, realFarmReference.test.ts, siteWeibull*.test.ts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createFarmEvaluator } from '../../src/physics/aep.js';
import { createParallelEvaluator } from '../../src/physics/parallelAep.js';
import type { FarmModelSpec } from '../../src/physics/farmModel.js';
import type { Turbine } from '../../src/physics/turbine.js';
import type { WindResource } from '../../src/physics/windResource.js';
import { roseFromSectors } from '../../src/physics/windResource.js';
import { windFromSeries } from '../../src/physics/windSeries.js';
import { createRng } from '../../src/util/rng.js';
import { loadSiteReference, thinRose } from './siteReference.js';

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

const MODELS: FarmModelSpec[] = [
  { wake: 'bastankhah2014', superposition: 'linear' },
  { wake: 'bastankhah2014', superposition: 'max', ct2a: 'madsen', deficitReference: 'free-stream' },
  { wake: 'niayifar2016', superposition: 'linear' },
  { wake: 'niayifar2016', superposition: 'sos', turbulenceSuperposition: 'linear' },
  { wake: 'niayifar2016', superposition: 'sos', turbulenceSuperposition: 'sos', ct2a: 'madsen' },
  { wake: 'niayifar2016', superposition: 'linear', useEffectiveTi: false },
  { wake: 'turbopark2022', superposition: 'sos' },
  { wake: 'jensen', superposition: 'linear', turbulence: 'crespo-hernandez', useEffectiveTi: true },
];

function layout(seed: number, n: number, x0: number, y0: number, side: number) {
  const rng = createRng(seed);
  const x = new Float64Array(n),
    y = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    x[i] = x0 + rng.uniform(0, side);
    y[i] = y0 + rng.uniform(0, side);
  }
  return { x, y };
}

/** A series of `count` samples: directions on a 0.5° grid (so that some repeat), speeds 2–26 m/s, weights and (withTi) TI. */
function series(seed: number, count: number, withTi: boolean): WindResource {
  const rng = createRng(seed);
  const directionsDeg: number[] = [],
    speeds: number[] = [],
    weights: number[] = [],
    ti: number[] = [];
  for (let t = 0; t < count; t++) {
    directionsDeg.push((Math.round(rng.uniform(0, 720)) / 2) % 360);
    speeds.push(2 + 24 * rng.uniform(0, 1));
    weights.push(rng.uniform(0.1, 1));
    ti.push(0.03 + 0.2 * rng.uniform(0, 1));
  }
  return windFromSeries({ directionsDeg, speeds, weights, turbulenceIntensity: withTi ? ti : null, defaultTurbulenceIntensity: 0.09 });
}

function rel(a: number, b: number): number {
  return Math.abs(a - b) / Math.max(Math.abs(b), 1e-300);
}

interface Result {
  aepMwh: number;
  perTurbineMwh: Float64Array;
  perDirectionMwh: Float64Array;
  gradX: Float64Array;
  gradY: Float64Array;
}

function assertSame(label: string, a: Result, b: Result, tol = 1e-12): void {
  assert.ok(rel(a.aepMwh, b.aepMwh) <= tol, `${label}: AEP native ${a.aepMwh} vs JavaScript ${b.aepMwh}`);
  b.perTurbineMwh.forEach((v, i) => assert.ok(rel(a.perTurbineMwh[i], v) <= tol, `${label}: turbine ${i}: ${a.perTurbineMwh[i]} vs ${v}`));
  assert.equal(a.perDirectionMwh.length, b.perDirectionMwh.length, `${label}: directions`);
  const dirScale = Math.max(...b.perDirectionMwh);
  b.perDirectionMwh.forEach((v, d) =>
    assert.ok(Math.abs(a.perDirectionMwh[d] - v) <= tol * dirScale, `${label}: direction ${d}: ${a.perDirectionMwh[d]} vs ${v}`),
  );
  let largest = 0,
    worst = 0;
  for (let i = 0; i < b.gradX.length; i++) {
    largest = Math.max(largest, Math.abs(b.gradX[i]), Math.abs(b.gradY[i]));
    worst = Math.max(worst, Math.abs(a.gradX[i] - b.gradX[i]), Math.abs(a.gradY[i] - b.gradY[i]));
  }
  assert.ok(largest > 0, `${label}: a gradient`);
  assert.ok(worst <= tol * largest, `${label}: gradient native vs JavaScript ${worst.toExponential(2)} of ${largest.toExponential(2)}`);
}

/** Native and JavaScript on one farm (the native kernel must take it), with and without the gradient. */
function compare(label: string, wind: WindResource, model: FarmModelSpec, x: Float64Array, y: Float64Array, turb: Turbine = turbine): Result {
  const native = createFarmEvaluator(turb, wind, model, 'native');
  assert.equal(native.plan.kernel, 'native', `${label}: the native kernel takes it (${native.plan.why.kernel})`);
  const n = native.aepWithGradient(x, y);
  assertSame(label, n, createFarmEvaluator(turb, wind, model, 'js').aepWithGradient(x, y));
  assert.equal(native.aep(x, y).aepMwh, n.aepMwh, `${label}: the AEP alone is the gradient call's`);
  return n;
}

for (const model of MODELS) {
  test(`time series with TI per sample, native = JavaScript: ${JSON.stringify(model)}`, () => {
    for (const seed of [1, 2]) {
      const { x, y } = layout(seed, 12, 0, 0, 1400);
      compare(`seed ${seed}`, series(10 + seed, 300, true), model, x, y);
    }
  });
}

test("time series without TI (every sample the resource's), native = JavaScript", () => {
  const { x, y } = layout(3, 15, 0, 0, 1600);
  for (const model of MODELS.slice(0, 4)) compare(JSON.stringify(model), series(21, 400, false), model, x, y);
});

test('a rose with a TI per bin, native = JavaScript', () => {
  const rose = {
    ...roseFromSectors([7, 61, 133, 199, 262, 311, 340], [0.1, 0.2, 0.15, 0.2, 0.2, 0.1, 0.05], [4.7, 6.3, 8.1, 10.7, 13.9, 17, 22], null),
    turbulenceIntensity: 0.08,
  };
  const rng = createRng(5);
  const wind: WindResource = { ...rose, turbulenceIntensityByBin: Float64Array.from(rose.probability, () => 0.04 + 0.15 * rng.uniform(0, 1)) };
  for (const seed of [1, 2]) {
    const { x, y } = layout(seed, 14, 0, 0, 1500);
    for (const model of MODELS) compare(`seed ${seed} ${JSON.stringify(model)}`, wind, model, x, y);
  }
});

const WEIBULL_FILES = ['site-weibull-bastankhah2014.yaml', 'site-weibull-speedup-niayifar2016.yaml', 'site-weibull-wrg-jensen1983.yaml'];

for (const file of WEIBULL_FILES) {
  test(`per-point Weibull site ${file}, native = JavaScript on random farms inside the grid`, () => {
    const c = loadSiteReference(file);
    const wind = thinRose(c.wind, 5, false);
    const site = c.model.site!;
    const xs = site.weibull!.a.coords[0],
      ys = site.weibull!.a.coords[1];
    const x0 = xs[0],
      y0 = ys[0],
      side = Math.min(xs[xs.length - 1] - x0, ys[ys.length - 1] - y0);
    for (const seed of [1, 2]) {
      const { x, y } = layout(seed, 12, x0, y0, side);
      compare(`${file} seed ${seed}`, wind, c.model, x, y, c.turbine);
      // Other options on the same site: the added-turbulence sums, another wake model.
      compare(
        `${file} seed ${seed}, niayifar2016 sos`,
        wind,
        { ...c.model, wake: 'niayifar2016', superposition: 'sos', turbulenceSuperposition: 'sos', rotorAverage: undefined },
        x,
        y,
        c.turbine,
      );
    }
    // The reference layout itself (PyWake's numbers: pywakeReference.test.ts).
    compare(`${file} reference layout`, wind, c.model, Float64Array.from(c.layout!.x), Float64Array.from(c.layout!.y), c.turbine);
  });
}

test('through parallelAep (2 worker threads): a time series and a per-point Weibull site equal one thread bit for bit, and JavaScript to 1e-12', async () => {
  const { x, y } = layout(7, 12, 0, 0, 1400);
  const wind = series(31, 300, true);
  const model = MODELS[2];
  const one = createFarmEvaluator(turbine, wind, model, 'native').aepWithGradient(x, y);
  const par = createParallelEvaluator(turbine, wind, model, 2, 'native');
  try {
    const r = await par.aepWithGradient(x, y);
    assert.equal(r.aepMwh, one.aepMwh);
    assert.deepEqual(r.gradX, one.gradX);
    assert.deepEqual(r.perDirectionMwh, one.perDirectionMwh);
    assertSame('series, parallel', r, createFarmEvaluator(turbine, wind, model, 'js').aepWithGradient(x, y));
  } finally {
    await par.close();
  }
  const c = loadSiteReference(WEIBULL_FILES[2]);
  const rose = thinRose(c.wind, 5, false);
  const cx = Float64Array.from(c.layout!.x),
    cy = Float64Array.from(c.layout!.y);
  const single = createFarmEvaluator(c.turbine, rose, c.model, 'native').aepWithGradient(cx, cy);
  const parW = createParallelEvaluator(c.turbine, rose, c.model, 2, 'native');
  try {
    const r = await parW.aepWithGradient(cx, cy);
    assert.equal(r.aepMwh, single.aepMwh);
    assert.deepEqual(r.gradY, single.gradY);
    assertSame('weibull, parallel', r, createFarmEvaluator(c.turbine, rose, c.model, 'js').aepWithGradient(cx, cy));
  } finally {
    await parW.close();
  }
});
