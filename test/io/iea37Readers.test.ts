/**
 * Reading the IEA37 case-study files as published: the cs1 and cs3/cs4 turbines, the 16-direction,
 * 20×20 and 360×20 roses, and the cs3/cs4 boundary files, checked against the numbers the files
 * state (read here independently with the yaml package).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { IEA37, runWflo } from '../helpers.js';
import { readBoundaryFile, readTurbineFile, readWindFile } from '../../src/io/readers.js';
import { powerAt } from '../../src/physics/turbine.js';

const raw = (rel: string) => parse(fs.readFileSync(path.join(IEA37, rel), 'utf8'), { uniqueKeys: false });

test('turbines: 3.35 MW (cs1) and 10 MW (cs3/cs4)', () => {
  const t1 = readTurbineFile(path.join(IEA37, 'cs1-2/iea37-335mw.yaml'));
  assert.equal(t1.diameter, 130);
  assert.equal(t1.hubHeight, 110);
  assert.equal(t1.ratedPowerW, 3.35e6);
  assert.equal(powerAt(t1, 9.8), 3.35e6);
  assert.equal(powerAt(t1, 3.9), 0);
  assert.equal(powerAt(t1, 25), 0);
  assert.ok(Math.abs(powerAt(t1, 6.9) - 3.35e6 * ((6.9 - 4) / 5.8) ** 3) < 1e-6);
  const t10 = readTurbineFile(path.join(IEA37, 'cs3-4/iea37-10mw.yaml'));
  assert.deepEqual([t10.diameter, t10.hubHeight, t10.ratedPowerW, t10.cutIn, t10.cutOut], [198, 119, 10e6, 4, 25]);
  assert.equal(powerAt(t10, 11), 10e6);
});

for (const [file, nd, ns] of [
  ['cs1-2/iea37-windrose.yaml', 16, 1],
  ['cs3-4/iea37-windrose-cs3.yaml', 20, 20],
  ['cs3-4/iea37-windrose-cs4.yaml', 360, 20],
] as const) {
  test(`wind rose ${file}: ${nd} directions × ${ns} speeds`, () => {
    const w = readWindFile(path.join(IEA37, file));
    assert.equal(w.directionsDeg.length, nd);
    assert.equal(w.speeds.length, ns);
    const props = raw(file).definitions.wind_inflow.properties;
    assert.deepEqual(Array.from(w.directionsDeg), props.direction.bins);
    if (ns > 1) {
      // probability = direction frequency × speed frequency of that direction
      const d = nd - 1,
        s = 3;
      assert.equal(w.probability[d * ns + s], props.direction.frequency[d] * props.speed.frequency[d][s]);
    }
    const sum = w.probability.reduce((a, b) => a + b, 0);
    assert.ok(Math.abs(sum - 1) < 1e-3);
  });
}

test('boundaries: cs3 is one concave polygon, cs4 five polygons', () => {
  const b3 = readBoundaryFile(path.join(IEA37, 'cs3-4/iea37-boundary-cs3.yaml'));
  assert.equal(b3.kind, 'polygon');
  assert.equal(b3.kind === 'polygon' && b3.vertices.length, raw('cs3-4/iea37-boundary-cs3.yaml').boundaries.IIIa.length);
  const b4 = readBoundaryFile(path.join(IEA37, 'cs3-4/iea37-boundary-cs4.yaml'));
  assert.equal(b4.kind, 'multipolygon');
  assert.equal(b4.kind === 'multipolygon' && b4.polygons.length, 5);
});

test("aep overrides: --wake changes the model, --case with a file uses the file's layout", () => {
  const file = path.join(IEA37, 'cs1-2/iea37-ex16.yaml');
  const base = JSON.parse(runWflo(['aep', file, '--json']).stdout);
  const gauss = JSON.parse(runWflo(['aep', file, '--wake', 'bastankhah2014', '--json']).stdout);
  const jensen = JSON.parse(runWflo(['aep', file, '--wake', 'jensen', '--superposition', 'linear', '--json']).stdout);
  assert.equal(gauss.wake_model, 'bastankhah2014');
  assert.equal(jensen.superposition, 'linear');
  assert.notEqual(gauss.aep_mwh, base.aep_mwh);
  assert.notEqual(jensen.aep_mwh, base.aep_mwh);
  // With every turbine unwaked the AEP is 16 × 29346 MWh at most.
  for (const r of [gauss, jensen]) assert.ok(r.aep_mwh > 300000 && r.aep_mwh < 16 * 29346);
  const viaCase = JSON.parse(runWflo(['aep', file, '--case', 'iea37-cs1-16', '--json']).stdout);
  assert.equal(viaCase.aep_mwh, base.aep_mwh);
  const cs4on360 = runWflo(['aep', '--case', 'iea37-cs4', '--wind', path.join(IEA37, 'cs3-4/iea37-windrose-cs4.yaml'), '--json']);
  assert.ok(Math.abs(JSON.parse(cs4on360.stdout).aep_mwh - 2851096.41252) / 2851096.41252 < 1e-9);
});
