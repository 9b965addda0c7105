/**
 * Turbines in the forms users have (docs/inputs.md, "Turbine files"): a PyWake table held beyond
 * its ends (`beyond_table: hold`), a windIO turbine with curves only (no rated_power, no cut
 * speeds), the same curves from a CSV file in kW (`power_unit: kW`). Checked against PyWake: the
 * V80 tables of the reference cases (test/data/reference/, computed with PyWake), read as a native
 * turbine with `hold`, give PyWake's AEP; the windIO reading (0 from the last speed on) gives less,
 * by at most the energy of the bins at 25 m/s.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { PYWAKE_REFERENCE, tempDir } from '../helpers.js';
import { readYamlFile, parseYamlText } from '../../src/io/yamlFile.js';
import { caseFromReferenceDocument } from '../../src/io/referenceCase.js';
import { readTurbineFile } from '../../src/io/readers.js';
import { turbineFromNative } from '../../src/io/nativeTurbine.js';
import { nativeTurbine } from '../../src/io/layoutResultYaml.js';
import { caseEvaluator } from '../../src/optimize/caseEvaluator.js';
import { NO_CUT_OUT, powerAt } from '../../src/physics/turbine.js';

const referenceFile = path.join(PYWAKE_REFERENCE, 'bastankhah2014-random16.yaml');

function writeTurbines(dir: string, t: { wind_speed: number[]; power_w: number[]; ct: number[] }): Record<string, string> {
  const curves = `  power_curve:\n    power_wind_speeds: [${t.wind_speed.join(', ')}]\n    power_values: [${t.power_w.join(', ')}]\n  Ct_curve:\n    Ct_wind_speeds: [${t.wind_speed.join(', ')}]\n    Ct_values: [${t.ct.join(', ')}]\n`;
  const head = 'rotor_diameter: 80\nhub_height: 70\nperformance:\n';
  const files: Record<string, string> = {
    hold: `name: V80 held\n${head}  beyond_table: hold\n${curves}`,
    windio: `name: V80 windIO\n${head}${curves}`,
    csv: `name: V80 CSV kW\n${head}  power_unit: kW\n  beyond_table: hold\n  power_curve: v80.csv\n  Ct_curve: v80.csv\n`,
  };
  fs.writeFileSync(path.join(dir, 'v80.csv'), `wind_speed,power,ct\n${t.wind_speed.map((v, i) => `${v},${t.power_w[i] / 1000},${t.ct[i]}`).join('\n')}\n`);
  const out: Record<string, string> = {};
  for (const [k, text] of Object.entries(files)) {
    out[k] = path.join(dir, `${k}.yaml`);
    fs.writeFileSync(out[k], text);
  }
  return out;
}

test("a PyWake table held beyond its ends (beyond_table: hold) gives PyWake's AEP; the windIO reading differs only at 25 m/s", () => {
  const doc = readYamlFile(referenceFile) as { turbine: { power_curve: { wind_speed: number[]; power_w: number[] }; ct_curve: { ct: number[] } } };
  const ref = caseFromReferenceDocument(doc, referenceFile);
  const dir = tempDir('wflo-turbine-forms-');
  const files = writeTurbines(dir, { wind_speed: doc.turbine.power_curve.wind_speed, power_w: doc.turbine.power_curve.power_w, ct: doc.turbine.ct_curve.ct });
  const aepWith = (file: string) => {
    const turbine = readTurbineFile(file);
    return { turbine, aep: caseEvaluator({ ...ref, turbine }).aep(ref.layout!.x, ref.layout!.y).aepMwh };
  };
  const expected = ref.expected!.aepMwh;
  const hold = aepWith(files.hold),
    windio = aepWith(files.windio),
    csv = aepWith(files.csv);
  assert.equal(hold.turbine.cutOut, NO_CUT_OUT);
  assert.equal(hold.turbine.ratedPowerW, 2e6, "rated power: the curve's maximum");
  assert.ok(Math.abs(hold.aep - expected) <= 1e-9 * expected, `hold ${hold.aep} vs PyWake ${expected}`);
  assert.ok(Math.abs(csv.aep - expected) <= 1e-9 * expected, `CSV in kW ${csv.aep} vs PyWake ${expected}`);
  // windIO's reading: cut-out at the last speed (25 m/s), power 0 there. Only a turbine that sees
  // exactly 25 m/s (unwaked in a 25 m/s bin) loses its 2 MW; a waked one sees less and keeps the
  // table's value. So the difference is positive and at most the 25 m/s bins with every turbine at 2 MW.
  assert.equal(windio.turbine.cutOut, 25);
  assert.equal(powerAt(windio.turbine, 25), 0);
  assert.equal(powerAt(hold.turbine, 25), 2e6);
  assert.equal(powerAt(hold.turbine, 30), 2e6, "held beyond the table, as PyWake's np.interp");
  const ns = ref.wind.speeds.length;
  let p25 = 0;
  for (let d = 0; d < ref.wind.directionsDeg.length; d++) p25 += ref.wind.probability[d * ns + ns - 1];
  const bins25 = (8760 * p25 * ref.layout!.x.length * 2e6) / 1e6;
  assert.ok(windio.aep < hold.aep, 'less energy without the 25 m/s bins');
  assert.ok(hold.aep - windio.aep <= bins25, `${hold.aep - windio.aep} MWh vs the 25 m/s bins' ${bins25} MWh`);
});

test('beyond_table: hold writes back as itself (wflo optimize --out) and reads back to the same turbine', () => {
  const dir = tempDir('wflo-turbine-hold-');
  const file = path.join(dir, 't.yaml');
  fs.writeFileSync(
    file,
    'rotor_diameter: 80\nhub_height: 70\nperformance:\n  beyond_table: hold\n  power_curve: {power_wind_speeds: [3, 10, 15], power_values: [0, 1300000, 2000000]}\n  Ct: 0.8\n',
  );
  const t = readTurbineFile(file);
  const written = nativeTurbine(t) as { performance: Record<string, unknown> };
  assert.equal(written.performance.beyond_table, 'hold');
  assert.equal(written.performance.cutout_wind_speed, undefined);
  const again = turbineFromNative(parseYamlText(JSON.stringify(written), 'again.yaml'), 'again.yaml');
  assert.deepEqual(again, { ...t, name: again.name });
});
