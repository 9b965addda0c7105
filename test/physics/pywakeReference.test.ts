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
const files = fs
  .readdirSync(REFERENCE)
  .filter((f) => f.endsWith('.yaml') && !/^(mixed|neighbours)-/.test(f))
  .sort();

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
    assert.ok(
      rel(r.aepMwh, expected.aepMwh) <= 1e-9,
      `${file}: AEP ${r.aepMwh} vs PyWake ${expected.aepMwh}: relative ${rel(r.aepMwh, expected.aepMwh).toExponential(2)}`,
    );
    assert.equal(r.perTurbineMwh.length, expected.perTurbineMwh.length);
    expected.perTurbineMwh.forEach((v, i) => {
      assert.ok(rel(r.perTurbineMwh[i], v) <= 1e-9, `${file}: turbine ${i}: ${r.perTurbineMwh[i]} vs ${v}`);
    });
    const cc = expected.checkCondition;
    if (cc) {
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

test('the ground cases depend on the mirror: with it every turbine agrees to 1e-12, without it some turbine misses by more than the 1e-9 tolerance', () => {
  // With the max rule the image (always farther than the source) never wins: those cases check that it adds nothing.
  // With the squared sum the image adds only to second order (TurbOPark: about 1e-8 of a turbine's AEP).
  const ground = files.filter((f) => f.startsWith('ground-') && !f.includes('-max-'));
  assert.ok(ground.length >= 8, `${ground.length} ground cases`);
  const worst = (per: ArrayLike<number>, expected: ArrayLike<number>): number => Math.max(...Array.from(expected, (v, i) => rel(per[i], v)));
  for (const file of ground) {
    const full = path.join(REFERENCE, file);
    const c = caseFromReferenceDocument(readYamlFile(full), full);
    assert.equal(c.model.ground, 'mirror', file);
    const expected = c.expected!.perTurbineMwh;
    const withMirror = worst(caseEvaluator(c).aep(c.layout!.x, c.layout!.y).perTurbineMwh, expected);
    const without = worst(caseEvaluator({ ...c, model: { ...c.model, ground: 'none' } }).aep(c.layout!.x, c.layout!.y).perTurbineMwh, expected);
    assert.ok(withMirror <= 1e-12, `${file}: with the mirror, worst turbine ${withMirror.toExponential(2)}`);
    assert.ok(without > 1e-9, `${file}: without the mirror, worst turbine only ${without.toExponential(2)}`);
  }
});

test('"library default" ground: TurbOPark\'s is the mirror (Nygaard_2022), the others have none', () => {
  const full = path.join(REFERENCE, 'turbopark2022-grid5x5.yaml');
  const doc = readYamlFile(full) as { model: Record<string, unknown> };
  doc.model.ground = 'library default';
  assert.equal(caseFromReferenceDocument(doc, full).model.ground, 'mirror');
  doc.model.rotor_average = 'library default';
  assert.throws(
    () => caseFromReferenceDocument(doc, full),
    /model\.rotor_average: PyWake's default for turbopark2022 includes the Gaussian-overlap rotor average/,
  );
  const other = path.join(REFERENCE, 'bastankhah2014-grid5x5.yaml');
  const b = readYamlFile(other) as { model: Record<string, unknown> };
  b.model.ground = 'library default';
  assert.equal(caseFromReferenceDocument(b, other).model.ground, undefined);
  b.model.ground = 'Mirror';
  b.model.superposition = 'library default';
  assert.equal(caseFromReferenceDocument(b, other).model.ground, 'mirror');
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
  const text = fs.readFileSync(path.join(REFERENCE, file), 'utf8').replace(/^  ground: null$/m, '  ground: Wall');
  const dir = fs.mkdtempSync(path.join(fs.realpathSync(process.env.TMPDIR ?? '/tmp'), 'wflo-ref-'));
  try {
    const bad = path.join(dir, 'bad.yaml');
    fs.writeFileSync(bad, text.includes('ground: Wall') ? text : text.replace(/^model:/m, 'model:\n  ground: Wall'));
    const r = runWflo(['aep', bad, '--json']);
    assert.equal(r.status, 2, r.stdout + r.stderr);
    assert.match(r.stderr, /bad\.yaml:\d+: model\.ground: unknown ground model 'Wall' \(known: Mirror, none\)/);
    assert.equal(r.stderr.trim().split('\n').length, 1);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
