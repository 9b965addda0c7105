/**
 * The AEP engine against the IEA Wind Task 37 published reference values: the baseline layouts'
 * AEP stated in the case-study files (test/data/iea37/, written from the published facts),
 * and small anchors computed with the official case-study calculator.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { IEA37, runWflo } from '../helpers.js';
import { readYamlFile } from '../../src/io/yamlFile.js';
import { iea37Layout } from '../../src/io/iea37Format.js';
import { computeAep } from '../../src/physics/aep.js';
import { builtinCase, builtinTurbine, builtinWind } from '../../src/io/builtinCases.js';
import { readWindFile } from '../../src/io/readers.js';

const REL = 1e-9;
function assertRel(actual: number, expected: number, tol = REL, what = '') {
  const rel = Math.abs(actual - expected) / Math.abs(expected);
  assert.ok(rel <= tol, `${what} ${actual} vs ${expected}: relative difference ${rel.toExponential(3)} > ${tol}`);
}

const cases: [string, number][] = [
  ['cs1-2/iea37-ex16.yaml', 366941.57116],
  ['cs1-2/iea37-ex36.yaml', 737883.09851],
  ['cs1-2/iea37-ex64.yaml', 1294974.2977],
  ['cs3-4/iea37-ex-opt3.yaml', 938573.6295],
  ['cs3-4/iea37-ex-opt4.yaml', 2861182.50569],
];

for (const [file, expected] of cases) {
  test(`wflo aep ${file} --json matches the published ${expected} MWh`, () => {
    const r = runWflo(['aep', path.join(IEA37, file), '--json']);
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assertRel(out.aep_mwh, expected);
    // The per-direction values printed in the same file.
    const ref = iea37Layout(readYamlFile(path.join(IEA37, file)), file);
    assert.equal(out.per_direction_mwh.length, ref.referenceBinnedMwh!.length);
    out.per_direction_mwh.forEach((v: number, i: number) => assertRel(v, ref.referenceBinnedMwh![i], 1e-8, `direction ${i}`));
    const sumTurbines = out.per_turbine_mwh.reduce((a: number, b: number) => a + b, 0);
    assertRel(sumTurbines, out.aep_mwh, 1e-12, 'per-turbine sum');
  });
}

test('cs4 baseline on the 360×20 rose: 2851096.41252 MWh', () => {
  const r = runWflo(['aep', path.join(IEA37, 'cs3-4/iea37-ex-opt4.yaml'), '--wind', path.join(IEA37, 'cs3-4/iea37-windrose-cs4.yaml'), '--json']);
  assert.equal(r.status, 0, r.stderr);
  assertRel(JSON.parse(r.stdout).aep_mwh, 2851096.41252);
});

test('built-in cases reproduce the files they were transcribed from', () => {
  for (const [name, file] of [
    ['iea37-cs1-16', 'cs1-2/iea37-ex16.yaml'],
    ['iea37-cs1-36', 'cs1-2/iea37-ex36.yaml'],
    ['iea37-cs1-64', 'cs1-2/iea37-ex64.yaml'],
    ['iea37-cs3', 'cs3-4/iea37-ex-opt3.yaml'],
    ['iea37-cs4', 'cs3-4/iea37-ex-opt4.yaml'],
  ]) {
    const c = builtinCase(name);
    const ref = iea37Layout(readYamlFile(path.join(IEA37, file)), file);
    const aep = computeAep(c.layout!.x, c.layout!.y, c.turbine, c.wind, c.model).aepMwh;
    assertRel(aep, ref.referenceAepMwh!, REL, name);
  }
  // The built-in cs3 rose equals the file's rose, probability by probability.
  const fileRose = readWindFile(path.join(IEA37, 'cs3-4/iea37-windrose-cs3.yaml'));
  const builtin = builtinWind('iea37-cs3');
  assert.deepEqual(Array.from(builtin.probability), Array.from(fileRose.probability));
});

// Anchors from the official IEA37 calculator (cs1 turbine and rose, IEA37 wake).
const anchors: [string, number[], number[], number][] = [
  ['one turbine', [0], [0], 29346.0],
  ['two turbines 650 m apart east-west', [0, 650], [0, 0], 52334.21444],
  ['three turbines in an east-west line 650 m apart', [0, 650, 1300], [0, 0, 0], 74879.74013],
];
for (const [what, x, y, expected] of anchors) {
  test(`anchor: ${what} = ${expected} MWh`, () => {
    const aep = computeAep(Float64Array.from(x), Float64Array.from(y), builtinTurbine('iea37-3.35mw'), builtinWind('iea37-cs1'), {
      wake: 'iea37',
      superposition: 'sos',
    }).aepMwh;
    assertRel(aep, expected, 1e-9, what);
  });
}
