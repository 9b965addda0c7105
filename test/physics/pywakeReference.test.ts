/**
 * The waked-inflow engine against PyWake: every reference case in test/data/reference/ (SOURCE.md
 * there) must match the PyWake AEP to 1e-9 relative in total and per turbine, and the flow of its
 * check condition (wind from 270° at 8 m/s: each turbine's effective speed and Ct). Cases whose
 * model fields say "library default" are computed with PyWake's defaults for that model (Zong 2020
 * with its weighted sum). One case also goes through `wflo aep FILE --json`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { PYWAKE_REFERENCE as REFERENCE, runWflo } from '../helpers.js';
import { readYamlFile } from '../../src/io/yamlFile.js';
import { caseFromReferenceDocument } from '../../src/io/referenceCase.js';
import { wakedFlow } from '../../src/physics/wakedAep.js';
import { blockageFlow } from '../../src/physics/blockageSolve.js';
import { caseEvaluator } from '../../src/optimize/caseEvaluator.js';

// Farms of several turbine types and farms with neighbours have their own test (mixedReference.test.ts).
const files = fs.readdirSync(REFERENCE).filter((f) => f.endsWith('.yaml') && !/^(mixed|neighbours)-/.test(f)).sort();

function rel(a: number, b: number): number {
  return Math.abs(a - b) / Math.max(Math.abs(b), 1e-300);
}

test('the reference folder holds cases', () => {
  assert.ok(files.length >= 12, `expected at least 12 reference cases in ${REFERENCE}, found ${files.length}`);
});

for (const file of files) {
  test(`PyWake reference ${file}: AEP and per-turbine AEP to 1e-9, check condition to 1e-9`, () => {
    const full = path.join(REFERENCE, file);
    const c = caseFromReferenceDocument(readYamlFile(full), full);
    const expected = c.expected!;
    const r = caseEvaluator(c).aep(c.layout!.x, c.layout!.y);
    assert.ok(rel(r.aepMwh, expected.aepMwh) <= 1e-9, `${file}: AEP ${r.aepMwh} vs PyWake ${expected.aepMwh}: relative ${rel(r.aepMwh, expected.aepMwh).toExponential(2)}`);
    assert.equal(r.perTurbineMwh.length, expected.perTurbineMwh.length);
    expected.perTurbineMwh.forEach((v, i) => {
      assert.ok(rel(r.perTurbineMwh[i], v) <= 1e-9, `${file}: turbine ${i}: ${r.perTurbineMwh[i]} vs ${v}`);
    });
    const cc = expected.checkCondition;
    if (cc) {
      const flowOf = c.model.blockage ? blockageFlow : wakedFlow;
      const flow = flowOf(c.turbine, { ...c.model, inflow: 'waked' }, c.layout!.x, c.layout!.y, cc.windDirection, cc.windSpeed, cc.turbulenceIntensity ?? c.wind.turbulenceIntensity);
      cc.wsEff.forEach((v, i) => assert.ok(rel(flow.wsEff[i], v) <= 1e-9, `${file}: check condition ws_eff[${i}] ${flow.wsEff[i]} vs ${v}`));
      cc.ct.forEach((v, i) => assert.ok(Math.abs(flow.ct[i] - v) <= 1e-9 * Math.max(v, 1e-3), `${file}: check condition ct[${i}] ${flow.ct[i]} vs ${v}`));
    }
  });
}

test('"library default" asking for what wflo lacks is refused, naming the field', () => {
  const full = path.join(REFERENCE, 'niayifar2016-grid5x5.yaml');
  const doc = readYamlFile(full) as { model: Record<string, unknown> };
  doc.model.rotor_average = 'library default';
  assert.throws(() => caseFromReferenceDocument(doc, full), /model\.rotor_average: PyWake's default for niayifar2016 includes the Gaussian-overlap/);
  doc.model.rotor_average = 'rotor centre';
  doc.model.superposition = 'library default';
  assert.equal(caseFromReferenceDocument(doc, full).model.superposition, 'linear');
});

test('wflo aep REFERENCE.yaml --json prints aep_mwh and per_turbine_mwh matching PyWake', () => {
  const file = files.find((f) => f.startsWith('niayifar')) ?? files[0];
  assert.ok(file);
  const full = path.join(REFERENCE, file);
  const r = runWflo(['aep', full, '--json']);
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  const expected = caseFromReferenceDocument(readYamlFile(full), full).expected!;
  assert.ok(rel(out.aep_mwh, expected.aepMwh) <= 1e-9);
  assert.equal(out.per_turbine_mwh.length, expected.perTurbineMwh.length);
  out.per_turbine_mwh.forEach((v: number, i: number) => assert.ok(rel(v, expected.perTurbineMwh[i]) <= 1e-9));
  assert.ok(Math.abs(out.relative_difference) <= 1e-9);
});

test('a reference file with an unsupported model option is refused in one line, exit 2', () => {
  const file = files.find((f) => f.startsWith('turbopark')) ?? files[0];
  const text = fs.readFileSync(path.join(REFERENCE, file), 'utf8').replace(/^  ground: null$/m, '  ground: Mirror');
  const dir = fs.mkdtempSync(path.join(fs.realpathSync(process.env.TMPDIR ?? '/tmp'), 'wflo-ref-'));
  try {
    const bad = path.join(dir, 'bad.yaml');
    fs.writeFileSync(bad, text.includes('ground: Mirror') ? text : text.replace(/^model:/m, 'model:\n  ground: Mirror'));
    const r = runWflo(['aep', bad, '--json']);
    assert.equal(r.status, 2, r.stdout + r.stderr);
    assert.match(r.stderr, /bad\.yaml: model\.ground/);
    assert.equal(r.stderr.trim().split('\n').length, 1);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
