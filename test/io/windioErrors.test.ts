/**
 * Bad windIO input through `wflo aep`: exit 2 and one line `wflo: <file>:<line>: <path>: <what>`
 * naming the file that holds the problem (an included file where it is there), the line of the
 * offending node and the field path from the top document. Each case edits one file of a copy
 * of the official IEA37 examples (test/data/windio/).
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { REPO, runWflo, tempDir } from '../helpers.js';
import { WAKE_MODEL_NAMES } from '../../src/physics/farmModel.js';

const PLANT = path.join(REPO, 'test', 'data', 'windio', 'plant');
const made: string[] = [];
after(() => {
  for (const d of made) fs.rmSync(d, { recursive: true, force: true });
});

interface Edit {
  /** File under plant/ to edit. */
  file: string;
  edit: (text: string) => string;
}

/** Copy the plant tree, apply the edit, run `wflo aep` on a system file; return the error line and the edited file's lines. */
function failWith(system: string, { file, edit }: Edit): { line: string; lines: string[]; editedPath: string } {
  const dir = tempDir('wflo-windio-bad-');
  made.push(dir);
  fs.cpSync(PLANT, path.join(dir, 'plant'), { recursive: true });
  const editedPath = path.join(dir, 'plant', file);
  const before = fs.readFileSync(editedPath, 'utf8');
  const after_ = edit(before);
  assert.notEqual(after_, before, 'the edit changed nothing');
  fs.writeFileSync(editedPath, after_);
  const r = runWflo(['aep', path.join(dir, 'plant', 'wind_energy_system', system)]);
  assert.equal(r.status, 2, `expected exit 2, got ${r.status}: ${r.stderr}${r.stdout}`);
  const errLines = r.stderr.trim().split('\n');
  assert.equal(errLines.length, 1, `expected one line, got:\n${r.stderr}`);
  assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
  return { line: errLines[0], lines: after_.split('\n'), editedPath };
}

/** 1-based number of the first line containing `needle` at or after line `from`. */
function lineOf(lines: string[], needle: string, from = 1): number {
  const i = lines.findIndex((l, k) => k >= from - 1 && l.includes(needle));
  assert.ok(i >= 0, `'${needle}' not in the edited file`);
  return i + 1;
}

const CS1 = 'IEA37_case_study_1_2_wind_energy_system.yaml';
const CS3 = 'IEA37_case_study_3_wind_energy_system.yaml';
const CS1_RESOURCE = 'plant_energy_resource/IEA37_case_study_1_2_energy_resource.yaml';
const CS3_RESOURCE = 'plant_energy_resource/IEA37_case_study_3_energy_resource.yaml';

test('missing dims on an array: the included resource file, the line of its data, the full path', () => {
  const { line, lines, editedPath } = failWith(CS1, { file: CS1_RESOURCE, edit: (t) => t.replace(/\n\s*dims: \[wind_direction\]/, '') });
  const expected = lineOf(lines, 'data: [.025');
  assert.equal(
    line,
    `wflo: ${editedPath}:${expected}: site.energy_resource.wind_resource.probability.dims: missing: data is an array, so dims must give its axis order (from: wind_direction, wind_speed)`,
  );
});

test('dims/shape mismatch: a row one value short names that row', () => {
  const { line, lines, editedPath } = failWith(CS3, {
    file: CS3_RESOURCE,
    edit: (t) => t.replace('[0.0131561184, 0.0483094348, ', '[0.0131561184, '),
  });
  const row = lineOf(lines, '[0.0131561184,');
  assert.equal(
    line,
    `wflo: ${editedPath}:${row}: site.energy_resource.wind_resource.probability.data[3]: dims [wind_direction, wind_speed] need shape 20 × 20, but this wind_speed level has 19 values (dims/shape mismatch)`,
  );
});

test('dims that do not fit the data: 16 values declared along the 1-long wind_speed axis', () => {
  const { line, lines, editedPath } = failWith(CS1, { file: CS1_RESOURCE, edit: (t) => t.replace('dims: [wind_direction]', 'dims: [wind_speed]') });
  assert.equal(
    line,
    `wflo: ${editedPath}:${lineOf(lines, 'data: [.025')}: site.energy_resource.wind_resource.probability.data: dims [wind_speed] need shape 1, but this wind_speed level has 16 values (dims/shape mismatch)`,
  );
});

test('a bare list without {data, dims}, and an axis wflo cannot represent', () => {
  const bare = failWith(CS1, {
    file: CS1_RESOURCE,
    edit: (t) => t.replace(/probability: \n\s*data: (\[[^\]]*\])\n\s*dims: \[wind_direction\]/, 'probability: $1'),
  });
  assert.match(
    bare.line,
    new RegExp(
      `^wflo: ${bare.editedPath.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:${lineOf(bare.lines, 'probability: [')}: site\\.energy_resource\\.wind_resource\\.probability: a bare list has no axis order`,
    ),
  );
  const height = failWith(CS1, { file: CS1_RESOURCE, edit: (t) => t.replace('dims: [wind_direction]', 'dims: [height]') });
  assert.match(
    height.line,
    /:\d+: site\.energy_resource\.wind_resource\.probability\.dims\[0\]: 'height': only weibull_a, weibull_k, sector_probability and turbulence_intensity may vary with height/,
  );
});

test('unknown wake model name: the system file, the line of the name, the known models', () => {
  const { line, lines, editedPath } = failWith(CS1, {
    file: `wind_energy_system/${CS1}`,
    edit: (t) => t.replace('Bastankhah’s Gaussian wake model (simplified version)', 'Gaussian-ish Wake 9000'),
  });
  assert.match(
    line,
    new RegExp(
      `^wflo: ${editedPath.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:${lineOf(lines, 'Gaussian-ish')}: attributes\\.analyses\\.wake_model\\.name: unknown/unsupported wake model 'Gaussian-ish Wake 9000' \\(known: ${WAKE_MODEL_NAMES.join(', ')};`,
    ),
  );
});

test('missing !include file and an !include cycle: the line of the tag', () => {
  const missing = failWith(CS1, {
    file: `wind_energy_system/${CS1}`,
    edit: (t) => t.replace('../plant_energy_site/IEA37_case_study_1_2_energy_site.yaml', '../plant_energy_site/no_such_site.yaml'),
  });
  assert.match(
    missing.line,
    new RegExp(
      `^wflo: ${missing.editedPath.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:2: site: !include '\\.\\./plant_energy_site/no_such_site\\.yaml': file not found \\(looked for /.*no_such_site\\.yaml\\)$`,
    ),
  );

  const cycle = failWith(CS1, {
    file: 'plant_energy_site/IEA37_case_study_1_2_energy_site.yaml',
    edit: (t) => t.replace('../plant_energy_resource/IEA37_case_study_1_2_energy_resource.yaml', `../wind_energy_system/${CS1}`),
  });
  assert.match(
    cycle.line,
    new RegExp(
      `^wflo: .*IEA37_case_study_1_2_energy_site\\.yaml:${lineOf(cycle.lines, 'energy_resource: !include')}: site\\.energy_resource: !include cycle: ${CS1.replace(/\./g, '\\.')} → IEA37_case_study_1_2_energy_site\\.yaml → ${CS1.replace(/\./g, '\\.')}$`,
    ),
  );
});

test('time series with more speeds than time stamps', () => {
  const { line } = failWith(CS1, {
    file: CS1_RESOURCE,
    edit: () =>
      [
        'name: series',
        'wind_resource:',
        "  time: ['2023-07-25T00:00:00Z', '2023-07-25T01:00:00Z']",
        '  wind_speed: [5, 6, 3]',
        '  wind_direction: [0, 350]',
        '',
      ].join('\n'),
  });
  assert.match(line, /energy_resource\.yaml:4: site\.energy_resource\.wind_resource\.wind_speed: 3 values for 2 time stamps \(dims\/shape mismatch\)$/);
});
