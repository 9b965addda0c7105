/**
 * Blockage with the weighted wake sum (issue 41's blockage × weighted), against PyWake's
 * All2AllIterative with WeightedSum() and SelfSimilarityDeficit2020 (test/data/reference/lifted/
 * blockage-weighted/, bench/peers/pywake_blockage_mixed.py; SOURCE.md there): 16 V80s, 36
 * directions × 9 speeds, Zong 2020 with its defaults, Niayifar 2016 with Crespo–Hernández and
 * Bastankhah 2014 under the weighted sum, on a uniform site and on XRSites that are not (speed-up
 * and TI fields, a per-point Weibull, shear). AEP and every turbine to 1e-9 relative; without
 * blockage, with the linear sum or without the site PyWake's AEP is missed; the exact gradient
 * (weightedBlockageGradient.ts) against central differences on a uniform site; what the solve does
 * not take is refused in one line (a time series, a gradient on a site that is not uniform).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { PYWAKE_REFERENCE } from '../helpers.js';
import { readYamlFile } from '../../src/io/yamlFile.js';
import { caseFromReferenceDocument } from '../../src/io/referenceCase.js';
import { caseEvaluator, casePlan } from '../../src/optimize/caseEvaluator.js';
import { farmConflict } from '../../src/physics/solvePlan.js';
import { FarmConflictError } from '../../src/physics/farmConflictError.js';
import { createFarmEvaluator } from '../../src/physics/aep.js';
import { centralDifferenceCheck } from './gradientCheck.js';
import { thinRose } from './siteReference.js';

const DIR = path.join(PYWAKE_REFERENCE, 'lifted', 'blockage-weighted');
const files = fs
  .readdirSync(DIR)
  .filter((f) => f.endsWith('.yaml'))
  .sort();
const rel = (a: number, b: number): number => Math.abs(a - b) / Math.max(Math.abs(b), 1e-300);
const load = (file: string) => {
  const full = path.join(DIR, file);
  return caseFromReferenceDocument(readYamlFile(full), full);
};

test('the folder holds the three weighted-sum wake models, uniform and on three sites', () => {
  assert.equal(files.length, 6);
  for (const what of ['zong2020', 'niayifar2016', 'bastankhah2014', 'speedup-ti', 'weibull', 'shear'])
    assert.ok(
      files.some((f) => f.includes(what)),
      `${what} in ${files.join(', ')}`,
    );
});

for (const file of files) {
  test(`PyWake ${file}: AEP and every turbine to 1e-9; blockage and the weighted sum both show`, () => {
    const c = load(file);
    assert.equal(c.model.superposition, 'weighted');
    assert.equal(casePlan(c).solver, 'blockage');
    const e = c.expected!;
    const r = caseEvaluator(c).aep(c.layout!.x, c.layout!.y);
    assert.ok(rel(r.aepMwh, e.aepMwh) <= 1e-9, `AEP ${r.aepMwh} vs PyWake ${e.aepMwh}: ${rel(r.aepMwh, e.aepMwh).toExponential(2)}`);
    assert.equal(r.perTurbineMwh.length, e.perTurbineMwh.length);
    e.perTurbineMwh.forEach((v, i) => assert.ok(rel(r.perTurbineMwh[i], v) <= 1e-9, `turbine ${i}: ${r.perTurbineMwh[i]} vs ${v}`));
    const m = { ...c.model };
    delete m.blockage;
    const variants: [string, typeof m][] = [
      ['without blockage', m],
      ['with the linear sum', { ...c.model, superposition: 'linear' }],
    ];
    if (c.model.site) variants.push(['on a uniform site', { ...c.model, site: undefined }]);
    for (const [what, model] of variants) {
      const aep = caseEvaluator({ ...c, model }).aep(c.layout!.x, c.layout!.y).aepMwh;
      assert.ok(rel(aep, e.aepMwh) > 1e-6, `${what} the AEP ${aep} is still PyWake's ${e.aepMwh}`);
    }
  });
}

for (const file of files.filter((f) => !/-(speedup-ti|weibull|shear)-/.test(f))) {
  test(`${file}: the gradient of the fixed point equals central differences`, () => {
    const c = load(file);
    const wind = thinRose(c.wind, 12);
    const x = c.layout!.x.slice(0, 8),
      y = c.layout!.y.slice(0, 8);
    const { maxAbs, maxErr } = centralDifferenceCheck(createFarmEvaluator(c.turbine, wind, c.model, 'js'), x, y, 1e-3);
    assert.ok(maxAbs > 1e-3, `gradient should not vanish (max |g| = ${maxAbs})`);
    assert.ok(maxErr <= 1e-6 * maxAbs, `max |exact − FD| = ${maxErr.toExponential(3)}, relative ${(maxErr / maxAbs).toExponential(3)}`);
  });
}

test('blockage with the weighted sum: a time series, and a gradient on a site that is not uniform, are refused in one line (exit 2)', () => {
  const c = load('blockage-weighted-niayifar2016.yaml');
  const series = { ...c.wind, series: { weight: Float64Array.of(1) } } as unknown as typeof c.wind;
  const conflict = farmConflict(c.model, { types: [c.turbine], neighbours: false, wind: series });
  assert.equal(conflict?.field, 'superposition');
  assert.match(conflict!.message, /does not take a time series/);
  const onSite = load('blockage-weighted-shear-niayifar2016.yaml');
  assert.throws(
    () => caseEvaluator(onSite).aepWithGradient(onSite.layout!.x, onSite.layout!.y),
    (err: unknown) =>
      err instanceof FarmConflictError &&
      err.exitCode === 2 &&
      err.conflict.field === 'superposition' &&
      /not its gradient yet/.test(err.message) &&
      !err.message.includes('\n'),
  );
});
