/**
 * Blockage on farms of several turbine types and beside fixed neighbours (issue 41's mixed ×
 * blockage and neighbours × blockage), against PyWake's All2AllIterative with WindTurbines of two
 * types and the neighbours as extra turbines (test/data/reference/lifted/blockage-mixed/,
 * bench/peers/pywake_blockage_mixed.py; SOURCE.md there): 16 own turbines, 36 directions × 9
 * speeds, Niayifar 2016 with Crespo–Hernández, Bastankhah 2014 with the CGI-4 rotor average (hub
 * heights 70 and 65 m, so dz ≠ 0 at the rotor points), Jensen's top hat with area overlap; two
 * mixed farms on XRSites (a speed-up under shear, each type at its own hub height; speed-up and TI
 * fields); the mixed farm and its neighbours over a 48-sample time series. The AEP,
 * every own turbine's and every neighbour's energy beside the farm and alone to 1e-9 relative;
 * the exact gradient of the fixed point against central differences; a farm of one model through
 * the mixed-farm evaluator equal to the one-model blockage evaluator.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { PYWAKE_REFERENCE } from '../helpers.js';
import { readYamlFile } from '../../src/io/yamlFile.js';
import { caseFromReferenceDocument } from '../../src/io/referenceCase.js';
import { caseEvaluator, caseMixedEvaluator, casePlan, caseTypeOf } from '../../src/optimize/caseEvaluator.js';
import { createFarmEvaluator } from '../../src/physics/aep.js';
import { createMixedFarmEvaluator } from '../../src/physics/mixedFarm.js';
import { centralDifferenceCheck } from './gradientCheck.js';
import { thinRose } from './siteReference.js';

const DIR = path.join(PYWAKE_REFERENCE, 'lifted', 'blockage-mixed');
const files = fs
  .readdirSync(DIR)
  .filter((f) => f.endsWith('.yaml'))
  .sort();
const rel = (a: number, b: number): number => Math.abs(a - b) / Math.max(Math.abs(b), 1e-300);
const load = (file: string) => {
  const full = path.join(DIR, file);
  return caseFromReferenceDocument(readYamlFile(full), full);
};

test('the folder holds mixed, neighbours, mixed + neighbours and mixed-on-a-site cases', () => {
  for (const what of [
    'blockage-mixed-',
    'blockage-neighbours-',
    'blockage-mixed-neighbours-',
    'blockage-mixed-shear-',
    'blockage-mixed-speedup-ti-',
    'blockage-mixed-neighbours-timeseries-',
  ])
    assert.ok(
      files.some((f) => f.startsWith(what)),
      `${what}* in ${files.join(', ')}`,
    );
});

for (const file of files) {
  test(`PyWake ${file}: AEP, every turbine and every neighbour (beside the farm and alone) to 1e-9`, () => {
    const c = load(file);
    assert.equal(casePlan(c).solver, 'blockage');
    const e = c.expected!;
    const ev = caseMixedEvaluator(c);
    const r = ev.aep(c.layout!.x, c.layout!.y, caseTypeOf(c));
    assert.ok(rel(r.aepMwh, e.aepMwh) <= 1e-9, `AEP ${r.aepMwh} vs PyWake ${e.aepMwh}: ${rel(r.aepMwh, e.aepMwh).toExponential(2)}`);
    assert.equal(r.perTurbineMwh.length, e.perTurbineMwh.length);
    e.perTurbineMwh.forEach((v, i) => assert.ok(rel(r.perTurbineMwh[i], v) <= 1e-9, `turbine ${i}: ${r.perTurbineMwh[i]} vs ${v}`));
    if (c.neighbours) {
      assert.ok(e.neighbourMwh && e.neighbourAloneMwh, "the file has the neighbours' energies");
      e.neighbourMwh.forEach((v, i) => assert.ok(rel(r.neighbourMwh[i], v) <= 1e-9, `neighbour ${i} beside the farm: ${r.neighbourMwh[i]} vs ${v}`));
      const alone = ev.neighboursAlone();
      e.neighbourAloneMwh.forEach((v, i) => assert.ok(rel(alone[i], v) <= 1e-9, `neighbour ${i} alone: ${alone[i]} vs ${v}`));
    }
    // Each feature shows: without blockage, with every turbine the first model, without the neighbours, PyWake's AEP is missed.
    const m = { ...c.model };
    delete m.blockage;
    const variants: [string, number][] = [['without blockage', caseEvaluator({ ...c, model: m }).aep(c.layout!.x, c.layout!.y).aepMwh]];
    if (c.turbines && c.turbines.typeOf.some((t) => t !== 0))
      variants.push(['every own turbine a V80', caseEvaluator(c, c.model, new Int32Array(c.nTurbines)).aep(c.layout!.x, c.layout!.y).aepMwh]);
    if (c.model.site)
      variants.push(['on a uniform site', caseEvaluator({ ...c, model: { ...c.model, site: undefined } }).aep(c.layout!.x, c.layout!.y).aepMwh]);
    if (c.neighbours) variants.push(['without neighbours', caseEvaluator({ ...c, neighbours: undefined }).aep(c.layout!.x, c.layout!.y).aepMwh]);
    for (const [what, aep] of variants) assert.ok(rel(aep, e.aepMwh) > 1e-6, `${what} the AEP ${aep} is still PyWake's ${e.aepMwh}`);
  });
}

for (const file of files) {
  test(`${file}: the gradient of the fixed point equals central differences (own turbines; neighbours fixed)`, () => {
    const c = load(file);
    const wind = c.wind.series ? c.wind : thinRose(c.wind, 6);
    const x = c.layout!.x.slice(0, 10),
      y = c.layout!.y.slice(0, 10);
    const ev = caseEvaluator({ ...c, wind });
    const { maxAbs, maxErr } = centralDifferenceCheck(ev, x, y, 1e-3);
    assert.ok(maxAbs > 1e-3, `gradient should not vanish (max |g| = ${maxAbs})`);
    assert.ok(maxErr <= 1e-5 * maxAbs, `max |exact − FD| = ${maxErr.toExponential(3)}, relative ${(maxErr / maxAbs).toExponential(3)}`);
  });
}

test('one model without neighbours through the mixed-farm evaluator: the one-model blockage evaluator, AEP, turbines and gradient to 1e-12', () => {
  const c = load('blockage-mixed-niayifar2016.yaml');
  const wind = thinRose(c.wind, 4);
  const v80 = c.turbines!.types[0];
  const one = createFarmEvaluator(v80, wind, c.model).aepWithGradient(c.layout!.x, c.layout!.y);
  const mixed = createMixedFarmEvaluator([v80, c.turbines!.types[1]], wind, c.model).aepWithGradient(c.layout!.x, c.layout!.y, new Int32Array(c.nTurbines));
  assert.ok(rel(mixed.aepMwh, one.aepMwh) <= 1e-12, `AEP ${mixed.aepMwh} vs ${one.aepMwh}`);
  one.perTurbineMwh.forEach((v, i) => assert.ok(rel(mixed.perTurbineMwh[i], v) <= 1e-12, `turbine ${i}`));
  let largest = 0,
    worst = 0;
  for (let i = 0; i < c.nTurbines; i++) {
    largest = Math.max(largest, Math.abs(one.gradX[i]), Math.abs(one.gradY[i]));
    worst = Math.max(worst, Math.abs(mixed.gradX[i] - one.gradX[i]), Math.abs(mixed.gradY[i] - one.gradY[i]));
  }
  assert.ok(largest > 0 && worst <= 1e-12 * largest, `gradient ${worst.toExponential(2)} of ${largest.toExponential(2)}`);
});
