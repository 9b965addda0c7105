/**
 * `wflo aep` on bad input: one line on stderr naming the file and field, exit code 2, no stack.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { IEA37, runWflo, tempDir } from '../helpers.js';

const dir = tempDir('wflo-aep-bad-');
const copy = (from: string, to: string, edit: (s: string) => string = (s) => s) =>
  fs.writeFileSync(path.join(dir, to), edit(fs.readFileSync(path.join(IEA37, from), 'utf8')));

function expectBadInput(args: string[], pattern: RegExp) {
  const r = runWflo(args);
  assert.equal(r.status, 2, `exit code 2 expected, got ${r.status}; stderr: ${r.stderr}`);
  const lines = r.stderr.trim().split('\n');
  assert.equal(lines.length, 1, `one line expected, got:\n${r.stderr}`);
  assert.match(lines[0], pattern);
  assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
  assert.equal(r.stdout, '');
}

test('missing file', () => expectBadInput(['aep', path.join(dir, 'nope.yaml')], /nope\.yaml: file not found/));

test('missing reference: the turbine file beside the layout is absent', () => {
  copy('cs1-2/iea37-ex16.yaml', 'ex16.yaml');
  copy('cs1-2/iea37-windrose.yaml', 'iea37-windrose.yaml');
  expectBadInput(['aep', path.join(dir, 'ex16.yaml')], /ex16\.yaml: referenced file 'iea37-335mw\.yaml' not found/);
});

test('malformed YAML names the line', () => {
  fs.writeFileSync(path.join(dir, 'bad.yaml'), 'definitions:\n  position: [1, 2\n  other: {\n');
  expectBadInput(['aep', path.join(dir, 'bad.yaml')], /bad\.yaml:\d+: definitions\.\w+: malformed YAML/);
});

test('mismatched xc/yc lengths', () => {
  copy('cs1-2/iea37-335mw.yaml', 'iea37-335mw.yaml');
  copy('cs1-2/iea37-windrose.yaml', 'iea37-windrose.yaml');
  copy('cs1-2/iea37-ex16.yaml', 'short.yaml', (s) => s.replace('yc: [0.0, 0.0, 618.1867,', 'yc: [0.0, 618.1867,'));
  expectBadInput(['aep', path.join(dir, 'short.yaml')], /short\.yaml:\d+: definitions\.position\.items: 16 xc but 15 yc/);
});

test('negative rotor diameter', () => {
  copy('cs1-2/iea37-windrose.yaml', 'iea37-windrose.yaml');
  copy('cs1-2/iea37-ex16.yaml', 'neg.yaml', (s) => s.replace('iea37-335mw.yaml', 'neg-turbine.yaml'));
  copy('cs1-2/iea37-335mw.yaml', 'neg-turbine.yaml', (s) => s.replace('default: 65.0', 'default: -65.0'));
  expectBadInput(['aep', path.join(dir, 'neg.yaml')], /neg-turbine\.yaml:\d+: definitions\.rotor\.properties\.radius\.default: must be > 0/);
});

test('probabilities that do not sum to 1', () => {
  copy('cs1-2/iea37-335mw.yaml', 'iea37-335mw.yaml');
  copy('cs1-2/iea37-ex16.yaml', 'p.yaml', (s) => s.replace('iea37-windrose.yaml', 'p-rose.yaml'));
  copy('cs1-2/iea37-windrose.yaml', 'p-rose.yaml', (s) => s.replace('.213,', '.313,'));
  expectBadInput(
    ['aep', path.join(dir, 'p.yaml')],
    /p-rose\.yaml:\d+: definitions\.wind_inflow\.properties\.probability: probabilities sum to 1\.1\d*, expected 1 within 0\.001/,
  );
});

test('NaN coordinate', () => {
  copy('cs1-2/iea37-335mw.yaml', 'iea37-335mw.yaml');
  copy('cs1-2/iea37-windrose.yaml', 'iea37-windrose.yaml');
  copy('cs1-2/iea37-ex16.yaml', 'nan.yaml', (s) => s.replace('xc: [0.0, 650.0,', 'xc: [.nan, 650.0,'));
  expectBadInput(['aep', path.join(dir, 'nan.yaml')], /nan\.yaml:\d+: definitions\.position\.items\.xc\[0\]: expected a finite number/);
});

test('native case: NaN in an inline layout and an unknown wake model', () => {
  fs.writeFileSync(path.join(dir, 'case.yaml'), 'base: iea37-cs1-16\nlayout: {x: [0, .nan], y: [0, 1]}\n');
  expectBadInput(['aep', path.join(dir, 'case.yaml')], /case\.yaml:2: layout\.x\[1\]: turbine 1 has a non-finite coordinate/);
  expectBadInput(['aep', '--case', 'iea37-cs1-16', '--wake', 'floris'], /--wake: expected one of: iea37, .*; got 'floris'/);
  expectBadInput(['aep', '--case', 'iea37-cs9'], /--case: unknown case 'iea37-cs9': not a built-in case .*; did you mean 'iea37-cs3'\?/);
});

test('native turbine with mismatched curve lengths', () => {
  fs.writeFileSync(
    path.join(dir, 'turb.yaml'),
    [
      'name: t',
      'rotor_diameter: 100',
      'hub_height: 80',
      'performance:',
      '  rated_power: 2000000',
      '  cutin_wind_speed: 3',
      '  cutout_wind_speed: 25',
      '  power_curve: {power_wind_speeds: [3, 10, 25], power_values: [0, 2000000]}',
      '  Ct: 0.8',
      '',
    ].join('\n'),
  );
  expectBadInput(
    ['aep', '--case', 'iea37-cs1-16', '--turbine', path.join(dir, 'turb.yaml')],
    /turb\.yaml:8: performance\.power_curve: power curve: 3 speeds but 2 values/,
  );
});
