/**
 * The hub-height gradient and per-turbine weighted energy gradients on the native kernel
 * (wakedNative.ts: ∂AEP/∂h_i chained from the kernel's site adjoints through the site's ∂/∂h; the
 * kernel's turbineWeight seeding its adjoint) against the JavaScript engine (engine/siteWork.ts,
 * engine/weightedAepTerm.ts), which stays the reference, on random farms of PyWake's site reference
 * turbine and rose under shear with speed-up and TI fields over h: AEP and energies to 1e-12
 * relative, ∂x, ∂y, ∂h by turbine and the weighted gradient to 1e-12 of their largest component.
 * The solve plan names the native kernel for both needs. ∂h against central differences on both
 * kernels: siteHubGradient.test.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadSiteReference, overHeight, thinRose } from './siteReference.js';
import { randomLayout } from './gradientCheck.js';
import { createFarmEvaluator, type FarmEvaluator } from '../../src/physics/aep.js';
import { createWeightedAepEvaluator } from '../../src/physics/weightedAep.js';
import { oneModelFarm, solvePlan } from '../../src/physics/solvePlan.js';
import { curveArrays, requireAddon, wakedConfig } from '../../src/physics/nativeKernel.js';
import { withHubHeight } from '../../src/optimize/hubHeight.js';
import { createRng } from '../../src/util/rng.js';
import { builtinTurbine, builtinWind } from '../../src/io/builtinCases.js';
import type { FarmModelSpec } from '../../src/physics/farmModel.js';
import type { Case } from '../../src/case/case.js';
import type { SiteShear } from '../../src/physics/site/site.js';
import { loadCase } from '../../src/io/caseFile.js';
import { REPO } from '../helpers.js';
import path from 'node:path';

const TOL = 1e-12;

function rel(a: number, b: number): number {
  return Math.abs(a - b) / Math.max(Math.abs(b), 1e-300);
}

/** max |a − b| over the components against the largest |b| (b: the JavaScript engine's). */
function worstOf(label: string, a: Float64Array, b: Float64Array): void {
  assert.equal(a.length, b.length, `${label}: lengths`);
  let largest = 0,
    worst = 0;
  for (let i = 0; i < b.length; i++) {
    largest = Math.max(largest, Math.abs(b[i]));
    worst = Math.max(worst, Math.abs(a[i] - b[i]));
  }
  assert.ok(largest > 0, `${label}: a gradient`);
  assert.ok(worst <= TOL * largest, `${label}: native vs JavaScript ${worst.toExponential(2)} of ${largest.toExponential(2)}`);
}

const POWER: SiteShear = { kind: 'power', hRef: 100, alpha: 0.2 };
const LOG: SiteShear = { kind: 'log', hRef: 100, z0: 0.03 };

/** A site reference case on 12 directions with its (x, y) fields given an h dimension and a shear. */
function shearCase(file: string, shear: SiteShear, change: Partial<FarmModelSpec> = {}): Case {
  const c = loadSiteReference(file);
  c.wind = thinRose(c.wind, 6);
  const site = c.model.site!;
  // The speed-up falls with height (a hill's), the TI too; nodes at 40, 65, 90, 130 m.
  const speedup = site.speedup ? overHeight(site.speedup, [40, 65, 90, 130], [1.12, 1.05, 1.0, 0.97]) : null;
  const ti = site.ti ? overHeight(site.ti, [40, 65, 90, 130], [1.3, 1.1, 1.0, 0.9]) : null;
  c.model = { ...c.model, ...change, inflow: 'waked', site: { ...site, speedup, ti, shear } };
  return c;
}

const CASES: [string, () => Case][] = [
  ['bastankhah2014, speed-up over h, power shear', () => shearCase('site-speedup-bastankhah2014.yaml', POWER)],
  ['niayifar2016 with Crespo–Hernández (sqrmax), speed-up and TI over h, log shear', () => shearCase('site-ti-niayifar2016.yaml', LOG)],
  [
    'niayifar2016, linear added turbulence, free-stream deficit reference, power shear',
    () => shearCase('site-ti-niayifar2016.yaml', POWER, { turbulenceSuperposition: 'linear', deficitReference: 'free-stream' }),
  ],
  [
    'niayifar2016, ambient TI in the width, sos deficits, log shear',
    () => shearCase('site-ti-niayifar2016.yaml', LOG, { useEffectiveTi: false, superposition: 'sos', turbulenceSuperposition: 'sos' }),
  ],
  ['jensen area overlap (sos, Madsen), speed-up over h, power shear', () => shearCase('site-speedup-jensen1983.yaml', POWER)],
];

for (const [what, make] of CASES) {
  test(`native ∂AEP/∂(x, y, h) on random farms, ${what}: the JavaScript engine's to 1e-12`, () => {
    const base = make();
    const rng = createRng(41);
    for (let trial = 0; trial < 3; trial++) {
      const n = 5 + Math.floor(rng.uniform(0, 9));
      const { x, y } = randomLayout(100 + trial, n, 2000);
      const c = withHubHeight(base, rng.uniform(55, 125));
      const label = `${what}, trial ${trial} (${n} turbines, hub ${c.turbine.hubHeight.toFixed(1)} m)`;
      const plan = solvePlan(oneModelFarm(c.turbine, c.wind), c.model, { hubHeightGradient: true });
      assert.equal(plan.kernel, 'native', `${label}: the plan's kernel (${plan.why.kernel})`);
      type WithH = ReturnType<FarmEvaluator['aepWithGradient']> & { gradH?: Float64Array };
      const native = createFarmEvaluator(c.turbine, c.wind, c.model, 'native', 'best', { hubHeightGradient: true }).aepWithGradient(x, y) as WithH;
      const js = createFarmEvaluator(c.turbine, c.wind, c.model, 'js').aepWithGradient(x, y) as WithH;
      assert.ok(rel(native.aepMwh, js.aepMwh) <= TOL, `${label}: AEP ${native.aepMwh} vs ${js.aepMwh}`);
      js.perTurbineMwh.forEach((v, i) => assert.ok(rel(native.perTurbineMwh[i], v) <= TOL, `${label}: turbine ${i}`));
      worstOf(`${label} ∂x`, native.gradX, js.gradX);
      worstOf(`${label} ∂y`, native.gradY, js.gradY);
      assert.ok(native.gradH && js.gradH, `${label}: both give ∂AEP/∂h`);
      worstOf(`${label} ∂h`, native.gradH, js.gradH);
    }
  });
}

/** The example's rose with its speeds replaced (probabilities spread over them). */
function withSpeeds(c: Case, speeds: number[]): Case {
  const nd = c.wind.directionsDeg.length,
    ns = speeds.length;
  return { ...c, wind: { ...c.wind, speeds: Float64Array.from(speeds), probability: new Float64Array(nd * ns).fill(1 / (nd * ns)) } };
}

test("native ∂AEP/∂(x, y, h) with 3, 5, 12 and 13 speeds (the kernel takes lanes four or eight at a time): the JavaScript engine's to 1e-12", () => {
  const base = loadCase(path.join(REPO, 'examples', 'hub-height-shear.yaml'));
  const { x, y } = randomLayout(7, 11, 1300);
  for (const speeds of [
    [6, 7, 8],
    [4, 6, 8, 10, 12],
    [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14],
    [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
  ]) {
    const c = withSpeeds(base, speeds);
    const label = `${speeds.length} speeds`;
    type WithH = ReturnType<FarmEvaluator['aepWithGradient']> & { gradH?: Float64Array };
    const native = createFarmEvaluator(c.turbine, c.wind, c.model, 'native', 'best', { hubHeightGradient: true }).aepWithGradient(x, y) as WithH;
    const js = createFarmEvaluator(c.turbine, c.wind, c.model, 'js').aepWithGradient(x, y) as WithH;
    assert.ok(rel(native.aepMwh, js.aepMwh) <= TOL, `${label}: AEP ${native.aepMwh} vs ${js.aepMwh}`);
    worstOf(`${label} ∂x`, native.gradX, js.gradX);
    worstOf(`${label} ∂y`, native.gradY, js.gradY);
    worstOf(`${label} ∂h`, native.gradH!, js.gradH!);
  }
});

test("an evaluator's atHubHeight(h) gives a fresh evaluator's results at h, to the bit, on either kernel", () => {
  const c = loadCase(path.join(REPO, 'examples', 'hub-height-shear.yaml'));
  const { x, y } = randomLayout(8, 9, 1300);
  for (const kernel of ['native', 'js'] as const) {
    let ev = createFarmEvaluator(c.turbine, c.wind, c.model, kernel, 'best', { hubHeightGradient: true });
    for (const h of [83.25, 121.5, 83.25]) {
      ev = ev.atHubHeight!(h);
      assert.equal(ev.turbine.hubHeight, h);
      const ch = withHubHeight(c, h);
      const fresh = createFarmEvaluator(ch.turbine, ch.wind, ch.model, kernel, 'best', { hubHeightGradient: true }).aepWithGradient(x, y);
      const r = ev.aepWithGradient(x, y);
      assert.deepEqual(r, fresh, `${kernel}, h ${h}`);
      assert.equal(ev.aep(x, y).aepMwh, fresh.aepMwh, `${kernel}, h ${h}: the AEP alone`);
    }
  }
});

/** Random weights in [0.3, 1.7] (as an economic objective's ∂J/∂AEP_i differs by turbine). */
function randomWeights(seed: number, n: number): Float64Array {
  const rng = createRng(seed);
  return Float64Array.from({ length: n }, () => rng.uniform(0.3, 1.7));
}

const WEIGHTED: [string, () => Case][] = [
  [
    'a uniform site (no site), bastankhah2014',
    () => {
      const c = loadSiteReference('site-speedup-bastankhah2014.yaml');
      c.wind = thinRose(c.wind, 6);
      c.model = { ...c.model, site: undefined };
      return c;
    },
  ],
  ['speed-up and TI over h under log shear, niayifar2016 with Crespo–Hernández', CASES[1][1]],
  ['jensen area overlap under power shear', CASES[4][1]],
  // A farm the free-stream engine takes: the weighted solve is the waked one with the free-stream inflow (mixedFarm.ts's choice).
  [
    'the free-stream inflow (IEA37 case study 1, constant Ct)',
    () => ({
      ...loadSiteReference('site-speedup-bastankhah2014.yaml'),
      turbine: builtinTurbine('iea37-3.35mw'),
      wind: builtinWind('iea37-cs1'),
      model: { wake: 'iea37', superposition: 'sos' },
    }),
  ],
];

for (const [what, make] of WEIGHTED) {
  test(`native per-turbine weighted energy gradient on random farms, ${what}: the JavaScript engine's to 1e-12`, () => {
    const c = make();
    const types = [c.turbine];
    const plan = solvePlan({ types, neighbours: false, wind: c.wind }, c.model, { perTurbineWeights: true });
    assert.equal(plan.kernel, 'native', `${what}: the plan's kernel (${plan.why.kernel})`);
    const native = createWeightedAepEvaluator(types, c.wind, c.model, null, 'native');
    const js = createWeightedAepEvaluator(types, c.wind, c.model, null, 'js');
    for (let trial = 0; trial < 3; trial++) {
      const n = 6 + 3 * trial;
      const { x, y } = randomLayout(200 + trial, n, 2000);
      const typeOf = new Int32Array(n),
        w = randomWeights(300 + trial, n);
      const a = native(x, y, typeOf, w),
        b = js(x, y, typeOf, w);
      const label = `${what}, trial ${trial} (${n} turbines)`;
      assert.ok(rel(a.weightedMwh, b.weightedMwh) <= TOL, `${label}: Σ w·AEP ${a.weightedMwh} vs ${b.weightedMwh}`);
      b.perTurbineMwh.forEach((v, i) => assert.ok(rel(a.perTurbineMwh[i], v) <= TOL, `${label}: turbine ${i}`));
      worstOf(`${label} ∂x`, a.gradX, b.gradX);
      worstOf(`${label} ∂y`, a.gradY, b.gradY);
      // The weights change the gradient (not the AEP's): unit weights give the waked AEP's gradient, to the bit.
      const unit = native(x, y, typeOf, new Float64Array(n).fill(1));
      const aep = createFarmEvaluator(c.turbine, c.wind, { ...c.model, inflow: plan.model.inflow ?? 'free-stream' }, 'native').aepWithGradient(x, y);
      if (plan.solver === 'waked') assert.deepEqual([...unit.gradX], [...aep.gradX], `${label}: unit weights, ∂x`);
      assert.ok(
        a.gradX.some((g, i) => Math.abs(g - aep.gradX[i]) > 1e-6 * Math.abs(aep.gradX[i])),
        `${label}: the weights change ∂x`,
      );
    }
  });
}

test('the addon refuses per-turbine weights (slot 28) that are not one per turbine, with a TypeError naming them', () => {
  const c = loadSiteReference('site-speedup-bastankhah2014.yaml');
  const spec = { ...c.model, site: undefined, inflow: 'waked' as const };
  const cfg = wakedConfig(c.turbine, c.wind, spec, 'best')!;
  const cv = curveArrays(c.turbine);
  const n = 3,
    nDir = c.wind.directionsDeg.length;
  const rad = Float64Array.from(c.wind.directionsDeg, (d) => (d * Math.PI) / 180);
  const rows = (k: number) => new Float64Array(k);
  const call = (weight: unknown) =>
    requireAddon().waked(
      cfg,
      cv.powerSpeeds,
      cv.powerW,
      cv.ctSpeeds,
      cv.ctValues,
      rad.map(Math.cos),
      rad.map(Math.sin),
      c.wind.speeds,
      c.wind.probability,
      rows(0),
      Float64Array.of(0, 400, 800),
      Float64Array.of(0, 0, 0),
      0,
      nDir,
      1,
      rows(nDir),
      rows(nDir * n),
      rows(nDir * n),
      rows(nDir * n),
      rows(2),
      rows(0),
      rows(0),
      rows(0),
      rows(0),
      rows(0),
      rows(0),
      rows(0),
      rows(0),
      weight,
    );
  assert.throws(() => call(rows(n + 1)), { name: 'TypeError', message: /turbineWeight must hold one weight per turbine/ });
  assert.throws(() => call([1, 1, 1]), { name: 'TypeError', message: /turbineWeight must be a Float64Array/ });
  call(rows(n).fill(2));
  call(rows(0));
});
