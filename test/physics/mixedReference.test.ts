/**
 * Farms of several turbine types and farms beside fixed neighbouring turbines against PyWake: the
 * `mixed-*` and `neighbours-*` cases of test/data/reference/ (computed with PyWake's
 * PropagateDownwind and a WindTurbines object of two types by bench/peers/pywake_mixed.py; SOURCE.md
 * there) must match to 1e-9 relative: the AEP of the farm's own turbines in total and per turbine,
 * the neighbours' energy beside the farm and alone, and each turbine's effective speed and Ct at the
 * check condition. The cases are also shown to depend on what they test (types, hub heights,
 * neighbours), so that a match is not an accident.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { PYWAKE_REFERENCE as REFERENCE, runWflo } from '../helpers.js';
import { readYamlFile } from '../../src/io/yamlFile.js';
import { caseFromReferenceDocument } from '../../src/io/referenceCase.js';
import { wakedFlow } from '../../src/physics/wakedAep.js';
import { neighbourLoss } from '../../src/physics/mixedFarm.js';
import { caseEvaluator, caseMixedEvaluator, caseTypeOf, caseTypes } from '../../src/optimize/caseEvaluator.js';
import type { Case } from '../../src/case/case.js';

const files = fs
  .readdirSync(REFERENCE)
  .filter((f) => /^(mixed|neighbours)-.*\.yaml$/.test(f))
  .sort();
const rel = (a: number, b: number): number => Math.abs(a - b) / Math.max(Math.abs(b), 1e-300);
const load = (file: string) => caseFromReferenceDocument(readYamlFile(path.join(REFERENCE, file)), path.join(REFERENCE, file));

test('the reference folder holds mixed-type and neighbour cases', () => {
  assert.ok(files.filter((f) => f.startsWith('mixed-')).length >= 4, files.join(', '));
  assert.ok(files.filter((f) => f.startsWith('neighbours-')).length >= 2, files.join(', '));
});

for (const file of files) {
  test(`PyWake reference ${file}: own AEP, per turbine, neighbours and check condition to 1e-9`, () => {
    const c = load(file);
    const expected = c.expected!;
    const ev = caseMixedEvaluator(c);
    const typeOf = caseTypeOf(c);
    const r = ev.aep(c.layout!.x, c.layout!.y, typeOf);
    assert.ok(rel(r.aepMwh, expected.aepMwh) <= 1e-9, `${file}: AEP ${r.aepMwh} vs PyWake ${expected.aepMwh}`);
    assert.equal(r.perTurbineMwh.length, expected.perTurbineMwh.length);
    expected.perTurbineMwh.forEach((v, i) => assert.ok(rel(r.perTurbineMwh[i], v) <= 1e-9, `${file}: turbine ${i}: ${r.perTurbineMwh[i]} vs ${v}`));
    if (c.neighbours) {
      assert.ok(expected.neighbourMwh && expected.neighbourAloneMwh, `${file}: neighbour energies expected`);
      expected.neighbourMwh!.forEach((v, i) => assert.ok(rel(r.neighbourMwh[i], v) <= 1e-9, `${file}: neighbour ${i}: ${r.neighbourMwh[i]} vs ${v}`));
      const alone = ev.neighboursAlone();
      expected.neighbourAloneMwh!.forEach((v, i) => assert.ok(rel(alone[i], v) <= 1e-9, `${file}: neighbour ${i} alone: ${alone[i]} vs ${v}`));
      const loss = neighbourLoss(ev, c.layout!.x, c.layout!.y, typeOf);
      const expectedLoss = expected.neighbourAloneMwh!.reduce((s, v, i) => s + v - expected.neighbourMwh![i], 0);
      assert.ok(
        Math.abs(loss.totalMwh - expectedLoss) <= 1e-9 * expected.neighbourAloneMwh!.reduce((s, v) => s + v, 0),
        `${file}: loss ${loss.totalMwh} vs ${expectedLoss}`,
      );
    }
    // The one-type evaluator interface (what optimizers and the gate use) gives the same number.
    assert.equal(caseEvaluator(c).aep(c.layout!.x, c.layout!.y).aepMwh, r.aepMwh);
    const cc = expected.checkCondition!;
    const { types, ownTypes } = caseTypes(c);
    const nb = c.neighbours;
    const x = nb ? Float64Array.from([...c.layout!.x, ...nb.x]) : c.layout!.x;
    const y = nb ? Float64Array.from([...c.layout!.y, ...nb.y]) : c.layout!.y;
    const all = nb ? Int32Array.from([...typeOf, ...Array.from(nb.typeOf, (t) => t + ownTypes)]) : typeOf;
    const flow = wakedFlow(types, { ...c.model, inflow: 'waked' }, x, y, cc.windDirection, cc.windSpeed, c.wind.turbulenceIntensity, {
      typeOf: all,
      own: x.length,
    });
    assert.equal(cc.wsEff.length, x.length);
    cc.wsEff.forEach((v, i) => assert.ok(rel(flow.wsEff[i], v) <= 1e-9, `${file}: check ws_eff[${i}] ${flow.wsEff[i]} vs ${v}`));
    cc.ct.forEach((v, i) => assert.ok(Math.abs(flow.ct[i] - v) <= 1e-9 * Math.max(v, 1e-3), `${file}: check ct[${i}] ${flow.ct[i]} vs ${v}`));
  });
}

/** The AEP of a case changed by `edit`, relative to PyWake's. */
function departure(file: string, edit: (c: Case) => void): number {
  const c = load(file);
  edit(c);
  return rel(caseEvaluator(c).aep(c.layout!.x, c.layout!.y).aepMwh, c.expected!.aepMwh);
}

test('the mixed cases depend on what they test: types, diameters, hub heights', () => {
  for (const file of files.filter((f) => f.startsWith('mixed-'))) {
    // Every turbine as the first type: far off.
    assert.ok(
      departure(file, (c) => {
        c.turbines!.typeOf.fill(0);
      }) > 1e-3,
      `${file}: one type`,
    );
    // The second type's hub height set to the first's: the 5 m offset shows.
    assert.ok(
      departure(file, (c) => {
        c.turbines!.types[1] = { ...c.turbines!.types[1], hubHeight: c.turbines!.types[0].hubHeight };
      }) > 1e-7,
      `${file}: hub height`,
    );
    // The second type's diameter set to the first's (curves kept).
    assert.ok(
      departure(file, (c) => {
        c.turbines!.types[1] = { ...c.turbines!.types[1], diameter: c.turbines!.types[0].diameter };
      }) > 1e-5,
      `${file}: diameter`,
    );
  }
  for (const file of files.filter((f) => f.startsWith('neighbours-'))) {
    assert.ok(
      departure(file, (c) => {
        delete c.neighbours;
      }) > 1e-3,
      `${file}: without neighbours the farm makes more`,
    );
  }
});

test('wflo aep on a mixed and a neighbour case prints the own AEP matching PyWake (and the loss the farm causes)', () => {
  for (const file of [files.find((f) => f.startsWith('mixed-'))!, files.find((f) => f.startsWith('neighbours-'))!]) {
    const full = path.join(REFERENCE, file);
    const r = runWflo(['aep', full, '--json']);
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    const expected = load(file).expected!;
    assert.ok(rel(out.aep_mwh, expected.aepMwh) <= 1e-9, `${file}: ${out.aep_mwh} vs ${expected.aepMwh}`);
    assert.equal(out.per_turbine_mwh.length, expected.perTurbineMwh.length);
    if (expected.neighbourAloneMwh) {
      const loss = expected.neighbourAloneMwh.reduce((s, v, i) => s + v - expected.neighbourMwh![i], 0);
      assert.ok(Math.abs(out.neighbour_loss_mwh - loss) <= 1e-6, `${file}: neighbour loss ${out.neighbour_loss_mwh} vs ${loss}`);
    }
  }
});
