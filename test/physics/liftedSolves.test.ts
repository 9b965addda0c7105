/**
 * The combinations the solve plan refused before issue 41 and computes now, against PyWake
 * (test/data/reference/lifted/, bench/peers/pywake_lift.py; SOURCE.md there): blockage on sites
 * that are not uniform (speed-up and TI fields, shear about a reference height, a per-point
 * Weibull), TurbOPark on such sites (its deficit scaled by the target's free stream), the weighted
 * sum on them, with a constant-Ct turbine and over a rose with a turbulence intensity per bin.
 * Every file: AEP and every turbine's AEP to 1e-9 relative with the JavaScript kernel
 * and, where the plan gives the farm to the native kernel, with it too; the check condition's
 * effective speeds to 1e-9. The site's part of the exact gradient against central differences on a
 * lighter rose, for each solver that gained a site.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { PYWAKE_REFERENCE } from '../helpers.js';
import { readYamlFile } from '../../src/io/yamlFile.js';
import { caseFromReferenceDocument } from '../../src/io/referenceCase.js';
import { createFarmEvaluator } from '../../src/physics/aep.js';
import { casePlan } from '../../src/optimize/caseEvaluator.js';
import { blockageFlow } from '../../src/physics/blockageSolve.js';
import { wakedFlow } from '../../src/physics/wakedAep.js';
import { farmConflict } from '../../src/physics/solvePlan.js';
import { centralDifferenceCheck, randomLayout } from './gradientCheck.js';
import { builtinTurbine } from '../../src/io/builtinCases.js';
import type { FarmModelSpec } from '../../src/physics/farmModel.js';
import { SITE_STEP, thinRose } from './siteReference.js';

const LIFTED = path.join(PYWAKE_REFERENCE, 'lifted');
const files = fs
  .readdirSync(LIFTED)
  .filter((f) => f.endsWith('.yaml'))
  .sort();
const rel = (a: number, b: number): number => Math.abs(a - b) / Math.max(Math.abs(b), 1e-300);
// *-constantct-*: PyWake's IEA37_WindTurbines (Ct 8/9, cubic power), tabulated in the file for its format;
// wflo evaluates its built-in constant-Ct iea37-3.35mw, the same turbine (its Ct no table: the case the free-stream engine took before).
const load = (file: string) => {
  const full = path.join(LIFTED, file);
  const c = caseFromReferenceDocument(readYamlFile(full), full);
  if (/-constantct-/.test(file)) {
    const iea37 = builtinTurbine('iea37-3.35mw');
    assert.equal(iea37.thrust.kind, 'constant');
    assert.equal(iea37.diameter, c.turbine.diameter);
    c.turbine = iea37;
  }
  return c;
};

test('the lifted folder holds a case of every lifted combination', () => {
  for (const prefix of ['blockage-', 'turbopark-', 'weighted-'])
    assert.ok(
      files.some((f) => f.startsWith(prefix)),
      `${prefix}* in ${files.join(', ')}`,
    );
});

for (const file of files) {
  test(`PyWake ${file}: AEP and every turbine to 1e-9 (JavaScript, and native where the plan takes it)`, () => {
    const c = load(file);
    assert.equal(farmConflict(c.model, { types: [c.turbine], neighbours: false, wind: c.wind }), null);
    const expected = c.expected!;
    const kernels: ('js' | 'native')[] = ['js'];
    if (casePlan(c, c.model, { kernel: 'native' }).kernel === 'native') kernels.push('native');
    for (const kernel of kernels) {
      const r = createFarmEvaluator(c.turbine, c.wind, c.model, kernel).aep(c.layout!.x, c.layout!.y);
      assert.ok(
        rel(r.aepMwh, expected.aepMwh) <= 1e-9,
        `${kernel}: AEP ${r.aepMwh} vs PyWake ${expected.aepMwh}: ${rel(r.aepMwh, expected.aepMwh).toExponential(2)}`,
      );
      expected.perTurbineMwh.forEach((v, i) => assert.ok(rel(r.perTurbineMwh[i], v) <= 1e-9, `${kernel}: turbine ${i}: ${r.perTurbineMwh[i]} vs ${v}`));
    }
    const cc = expected.checkCondition!;
    const flowOf = c.model.blockage ? blockageFlow : wakedFlow;
    const flow = flowOf(
      c.turbine,
      { ...c.model, inflow: 'waked' },
      c.layout!.x,
      c.layout!.y,
      cc.windDirection,
      cc.windSpeed,
      cc.turbulenceIntensity ?? c.wind.turbulenceIntensity,
    );
    cc.wsEff.forEach((v, i) => assert.ok(rel(flow.wsEff[i], v) <= 1e-9, `check condition ws_eff[${i}] ${flow.wsEff[i]} vs ${v}`));
  });
}

for (const file of files.filter((f) => /^(blockage|turbopark|weighted)-/.test(f))) {
  test(`${file}: the gradient through the site equals central differences`, () => {
    const c = load(file);
    // A time series as it is (thinning its summary rose would orphan samples); a rose every 3rd direction.
    const wind = c.wind.series ? c.wind : thinRose(c.wind, 3, !c.model.site?.weibull);
    const byBin = c.wind.turbulenceIntensityByBin,
      nS = c.wind.speeds.length;
    if (byBin) wind.turbulenceIntensityByBin = byBin.filter((_, i) => Math.floor(i / nS) % 3 === 0);
    const x = c.layout!.x.slice(0, 9),
      y = c.layout!.y.slice(0, 9);
    const { maxAbs, maxErr } = centralDifferenceCheck(createFarmEvaluator(c.turbine, wind, c.model, 'js'), x, y, SITE_STEP);
    assert.ok(maxAbs > 1e-3, `gradient should not vanish (max |g| = ${maxAbs})`);
    assert.ok(maxErr <= 1e-5 * maxAbs, `max |exact − FD| = ${maxErr.toExponential(3)}, relative ${(maxErr / maxAbs).toExponential(3)}`);
  });
}

test("TurbOPark on a site, native kernel (CFG_REF_TARGET): the JavaScript engine's AEP, every turbine and gradient to 1e-12 on random farms", () => {
  const c = load('turbopark-speedup-ti-turbopark2022.yaml');
  const wind = thinRose(c.wind, 2);
  // The rotor-average points and the ground mirror take the kernel's multi-point forward pass, which must scale by the target's free stream too.
  const changes: [number, Partial<FarmModelSpec>][] = [
    [1, {}],
    [2, { superposition: 'linear' }],
    [3, { turbulence: 'crespo-hernandez', useEffectiveTi: true }],
    [4, { rotorAverage: 'cgi4' }],
    [5, { ground: 'mirror', superposition: 'linear' }],
  ];
  for (const [seed, change] of changes) {
    const model: FarmModelSpec = { ...c.model, ...change, inflow: 'waked' };
    assert.equal(casePlan({ ...c, wind }, model, { kernel: 'native' }).kernel, 'native', `seed ${seed}: the native kernel takes it`);
    const { x, y } = randomLayout(seed, 14, 1900);
    const n = createFarmEvaluator(c.turbine, wind, model, 'native').aepWithGradient(x, y);
    const j = createFarmEvaluator(c.turbine, wind, model, 'js').aepWithGradient(x, y);
    assert.ok(rel(n.aepMwh, j.aepMwh) <= 1e-12, `seed ${seed}: AEP native ${n.aepMwh} vs JavaScript ${j.aepMwh}`);
    j.perTurbineMwh.forEach((v, i) => assert.ok(rel(n.perTurbineMwh[i], v) <= 1e-12, `seed ${seed}: turbine ${i}: ${n.perTurbineMwh[i]} vs ${v}`));
    let largest = 0,
      worst = 0;
    for (let i = 0; i < x.length; i++) {
      largest = Math.max(largest, Math.abs(j.gradX[i]), Math.abs(j.gradY[i]));
      worst = Math.max(worst, Math.abs(n.gradX[i] - j.gradX[i]), Math.abs(n.gradY[i] - j.gradY[i]));
    }
    assert.ok(largest > 0 && worst <= 1e-12 * largest, `seed ${seed}: gradient native vs JavaScript ${worst.toExponential(2)} of ${largest.toExponential(2)}`);
  }
});

test("blockage under shear: ∂AEP/∂h of every turbine (gradH, through the site's free stream) equals central differences of the hub height", () => {
  const c = load('blockage-shear-bastankhah2014.yaml');
  const wind = thinRose(c.wind, 3);
  const x = c.layout!.x.slice(0, 9),
    y = c.layout!.y.slice(0, 9);
  const aepAt = (h: number) => createFarmEvaluator({ ...c.turbine, hubHeight: h }, wind, c.model, 'js').aep(x, y).aepMwh;
  const r = createFarmEvaluator(c.turbine, wind, c.model, 'js', 'best', { hubHeightGradient: true }).aepWithGradient(x, y) as { gradH?: Float64Array };
  assert.ok(r.gradH && r.gradH.length === 9);
  const exact = r.gradH.reduce((a, b) => a + b, 0);
  const h0 = c.turbine.hubHeight,
    step = 1e-3;
  const fd = (aepAt(h0 + step) - aepAt(h0 - step)) / (2 * step);
  assert.ok(Math.abs(exact) > 1, `∂AEP/∂h ${exact}`);
  assert.ok(Math.abs(exact - fd) <= 1e-6 * Math.abs(fd), `∂AEP/∂h exact ${exact} vs central difference ${fd}`);
});
