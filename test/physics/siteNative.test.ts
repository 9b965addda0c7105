/**
 * The native kernel on a site that is not uniform (wakedNative.ts samples the fields; the kernel takes
 * each turbine's free stream and ambient TI and returns their adjoints): against the JavaScript
 * engine (engine/siteWork.ts, which stays the readable reference) and PyWake's reference values, on
 * every single-type site reference case, and on the TI-field case under the options the references
 * do not cover (the added-turbulence sums, the free-stream deficit reference, the ambient TI in the
 * wake width only, the other superpositions). The gradient of either engine against central
 * differences: siteFields.test.ts (caseEvaluator: the native kernel where built, WFLO_KERNEL=js for
 * the JavaScript one).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadSiteReference, thinRose } from './siteReference.js';
import { createFarmEvaluator } from '../../src/physics/aep.js';
import { curveArrays, requireAddon, wakedConfig } from '../../src/physics/nativeKernel.js';
import type { FarmModelSpec } from '../../src/physics/farmModel.js';
import type { Case } from '../../src/case/case.js';

function rel(a: number, b: number): number {
  return Math.abs(a - b) / Math.max(Math.abs(b), 1e-300);
}

/** Native and JavaScript engines on one case: AEP and every turbine to `tol` relative, gradient to `tol` of its largest component. */
function compare(label: string, c: Case, model: FarmModelSpec, tol: number) {
  const spec = { ...model, inflow: 'waked' as const };
  assert.equal(createFarmEvaluator(c.turbine, c.wind, spec, 'native').plan.kernel, 'native', `${label}: the native kernel takes the site`);
  const x = Float64Array.from(c.layout!.x),
    y = Float64Array.from(c.layout!.y);
  const native = createFarmEvaluator(c.turbine, c.wind, spec, 'native');
  const js = createFarmEvaluator(c.turbine, c.wind, spec, 'js');
  const n = native.aepWithGradient(x, y),
    j = js.aepWithGradient(x, y);
  const plain = native.aep(x, y);
  assert.equal(plain.aepMwh, n.aepMwh, `${label}: the AEP alone is the AEP of the gradient call`);
  assert.ok(rel(n.aepMwh, j.aepMwh) <= tol, `${label}: AEP native ${n.aepMwh} vs JavaScript ${j.aepMwh}`);
  j.perTurbineMwh.forEach((v, i) => assert.ok(rel(n.perTurbineMwh[i], v) <= tol, `${label}: turbine ${i}: ${n.perTurbineMwh[i]} vs ${v}`));
  let largest = 0,
    worst = 0;
  for (let i = 0; i < x.length; i++) {
    largest = Math.max(largest, Math.abs(j.gradX[i]), Math.abs(j.gradY[i]));
    worst = Math.max(worst, Math.abs(n.gradX[i] - j.gradX[i]), Math.abs(n.gradY[i] - j.gradY[i]));
  }
  assert.ok(largest > 0, `${label}: a gradient`);
  assert.ok(worst <= tol * largest, `${label}: gradient native vs JavaScript ${worst.toExponential(2)} of ${largest.toExponential(2)}`);
  return { native: n, js: j };
}

for (const file of ['site-speedup-bastankhah2014.yaml', 'site-speedup-jensen1983.yaml', 'site-ti-niayifar2016.yaml', 'site-wd-niayifar2016.yaml']) {
  test(`native kernel on ${file}: the JavaScript engine's AEP, energies and gradient to 1e-12, PyWake's to 1e-9`, () => {
    const c = loadSiteReference(file);
    const { native, js } = compare(file, c, c.model, 1e-12);
    const expected = c.expected!;
    for (const [engine, r] of [
      ['native', native],
      ['JavaScript', js],
    ] as const) {
      assert.ok(rel(r.aepMwh, expected.aepMwh) <= 1e-9, `${file}: ${engine} AEP ${r.aepMwh} vs PyWake ${expected.aepMwh}`);
      expected.perTurbineMwh.forEach((v, i) =>
        assert.ok(rel(r.perTurbineMwh[i], v) <= 1e-9, `${file}: ${engine} turbine ${i}: ${r.perTurbineMwh[i]} vs PyWake ${v}`),
      );
    }
  });
}

const TI_VARIANTS: [string, Partial<FarmModelSpec>][] = [
  ['linear added-turbulence sum', { turbulenceSuperposition: 'linear' }],
  ['root-sum-square added turbulence, sos deficits', { turbulenceSuperposition: 'sos', superposition: 'sos' }],
  ['free-stream deficit reference', { deficitReference: 'free-stream' }],
  ['ambient TI in the wake width (no effective TI)', { useEffectiveTi: false }],
  ['max superposition, Madsen induction', { superposition: 'max', ct2a: 'madsen' }],
];

for (const [what, change] of TI_VARIANTS) {
  test(`native kernel on the TI field, ${what}: the JavaScript engine's AEP, energies and gradient to 1e-12`, () => {
    const c = loadSiteReference('site-ti-niayifar2016.yaml');
    c.wind = thinRose(c.wind, 6);
    compare(what, c, { ...c.model, ...change }, 1e-12);
  });
}

test('native kernel on a site with a speed-up by direction and a TI field, Jensen (free-stream reference) with added turbulence', () => {
  const c = loadSiteReference('site-wd-niayifar2016.yaml');
  const ti = loadSiteReference('site-ti-niayifar2016.yaml').model.site!.ti;
  c.wind = thinRose(c.wind, 4);
  compare(
    'jensen on wd + TI',
    c,
    { wake: 'jensen', superposition: 'linear', turbulence: 'crespo-hernandez', useEffectiveTi: true, site: { ...c.model.site!, ti } },
    1e-12,
  );
});

test('the addon refuses site arrays of the wrong size, or an adjoint without its field, with a TypeError naming them', () => {
  const c = loadSiteReference('site-speedup-bastankhah2014.yaml');
  const spec = { ...c.model, inflow: 'waked' as const };
  const cfg = wakedConfig(c.turbine, c.wind, spec, 'best');
  const cv = curveArrays(c.turbine);
  const n = 3,
    nDir = c.wind.directionsDeg.length;
  const rad = Float64Array.from(c.wind.directionsDeg, (d) => (d * Math.PI) / 180);
  const rows = (k: number) => new Float64Array(k);
  const call = (site: Float64Array[]) =>
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
      ...site,
    );
  assert.throws(() => call([rows(nDir * n - 1)]), { name: 'TypeError', message: /site arrays must hold directions × turbines/ });
  assert.throws(() => call([rows(0), rows(0), rows(nDir * n)]), { name: 'TypeError', message: /a site adjoint needs its field/ });
  assert.throws(() => call([Array(nDir * n).fill(1) as unknown as Float64Array]), { name: 'TypeError', message: /siteSpeed must be a Float64Array/ });
  call([rows(nDir * n).fill(1), rows(0), rows(nDir * n), rows(0)]);
});
