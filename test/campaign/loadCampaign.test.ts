/** Campaign files: validation with located one-line errors, resolution, task grid, spec hashes. */
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseCampaign, loadCampaign } from '../../src/campaign/loadCampaign.js';
import { expandTasks } from '../../src/campaign/taskGrid.js';
import { backoffDelayS } from '../../src/campaign/campaign.js';
import { InputError } from '../../src/util/errors.js';
import { ALLOW_OUTSIDE_ENV } from '../../src/io/fileDoor.js';

const IEA37 = path.resolve(fileURLToPath(new URL('../../../test/data/iea37/', import.meta.url)));
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wflo-campaign-'));
const file = path.join(dir, 'campaign.yaml');

const BASE = `name: grid
output: out
farms:
  - id: 0
    case: iea37-cs1-16
  - id: 1
    boundary: {polygon: [[0, 0], [3000, 0], [3000, 2000], [0, 2000]]}
    wind: iea37-cs1
farm_types:
  - id: 0
    turbine: iea37-3.35mw
    n_turbines: 16
  - id: 1
    turbine: iea37-10mw
    n_turbines: 4
seeds: {start: 10, count: 3}
optimizer:
  method: noop
`;

/** The InputError a campaign text raises (fails the test when it loads). */
function errorOf(text: string): InputError {
  try {
    parseCampaign(text, file);
  } catch (err) {
    assert.ok(err instanceof InputError, `expected InputError, got ${(err as Error).stack}`);
    assert.equal(err.message.includes('\n'), false, 'error must be one line');
    return err;
  }
  assert.fail('campaign was accepted');
}

test('a valid campaign resolves farms, types, seeds and defaults', () => {
  const c = parseCampaign(BASE, file);
  assert.equal(c.name, 'grid');
  assert.equal(c.outputDir, path.join(dir, 'out'));
  assert.deepEqual(c.seeds, [10, 11, 12]);
  assert.equal(c.farms[0].boundary.kind, 'circle');
  assert.equal(c.farms[1].boundary.kind, 'polygon');
  assert.equal(c.farmTypes[0].turbine.diameter, 130);
  assert.equal(c.farmTypes[1].turbine.diameter, 198);
  assert.equal(c.farmTypes[0].minSpacingM, 260, 'default spacing is 2 rotor diameters');
  assert.equal(c.retry.attempts, 3);
  assert.equal(c.timeoutS, 3600);
  assert.equal(c.exportEveryResults, 100);
  assert.equal(c.only, null);
});

test('--out overrides the output folder', () => {
  const c = parseCampaign(BASE, file, { outputOverride: '/tmp/elsewhere' });
  assert.equal(c.outputDir, '/tmp/elsewhere');
});

test('the task grid has stable ids in (farm, type, seed) order', () => {
  const tasks = expandTasks(parseCampaign(BASE, file));
  assert.equal(tasks.length, 2 * 2 * 3);
  assert.equal(tasks[0].taskId, 'farm_0_type_0_seed_10');
  assert.equal(tasks[11].taskId, 'farm_1_type_1_seed_12');
  assert.equal(new Set(tasks.map((t) => t.specHash)).size, tasks.length, 'every task has its own spec hash');
  const again = expandTasks(parseCampaign(BASE, file));
  assert.deepEqual(
    again.map((t) => t.specHash),
    tasks.map((t) => t.specHash),
  );
});

test("editing one farm makes exactly that farm's tasks stale", () => {
  const before = expandTasks(parseCampaign(BASE, file));
  const edited = BASE.replace('[3000, 2000], [0, 2000]', '[3000, 2500], [0, 2500]');
  const after = expandTasks(parseCampaign(edited, file));
  for (let i = 0; i < before.length; i++) {
    const changed = before[i].specHash !== after[i].specHash;
    assert.equal(changed, before[i].farmId === 1, before[i].taskId);
  }
});

test('labels, ids order and run settings do not change spec hashes; optimizer settings do', () => {
  const base = expandTasks(parseCampaign(BASE, file));
  const cosmetic =
    BASE.replace('  - id: 0\n    case: iea37-cs1-16', '  - id: 0\n    label: renamed\n    case: iea37-cs1-16') +
    'workers: 1\ntimeout_s: 5\nattempts: 9\nmax_failures: 2\n';
  assert.deepEqual(
    expandTasks(parseCampaign(cosmetic, file)).map((t) => t.specHash),
    base.map((t) => t.specHash),
  );
  const otherSettings = BASE.replace('method: noop', 'method: noop\n  sleep_ms: 1');
  const changed = expandTasks(parseCampaign(otherSettings, file));
  assert.ok(changed.every((t, i) => t.specHash !== base[i].specHash));
});

test('a turbine file and the built-in turbine with the same numbers hash the same', () => {
  const fromFile = BASE.replace('turbine: iea37-3.35mw', `turbine: ${path.join(IEA37, 'cs1-2', 'iea37-335mw.yaml')}`);
  const a = expandTasks(parseCampaign(BASE, file));
  // The turbine file is outside the campaign's folder: allowed here as an operator would (io/fileDoor.ts).
  process.env[ALLOW_OUTSIDE_ENV] = '1';
  let b;
  try {
    b = expandTasks(parseCampaign(fromFile, file));
  } finally {
    delete process.env[ALLOW_OUTSIDE_ENV];
  }
  assert.equal(b[0].specHash, a[0].specHash);
});

test('files are resolved relative to the campaign file', () => {
  const sub = path.join(dir, 'sub');
  fs.mkdirSync(sub, { recursive: true });
  fs.copyFileSync(path.join(IEA37, 'cs3-4', 'iea37-boundary-cs3.yaml'), path.join(sub, 'site.yaml'));
  const text = BASE.replace('boundary: {polygon: [[0, 0], [3000, 0], [3000, 2000], [0, 2000]]}', 'boundary: sub/site.yaml');
  const c = parseCampaign(text, file);
  assert.equal(c.farms[1].boundary.kind, 'polygon');
});

test('seeds as a list; only restricts the grid', () => {
  const text = BASE.replace('seeds: {start: 10, count: 3}', 'seeds: [7, 3]') + 'only: [farm_1_type_0_seed_3, farm_0_type_1_seed_7]\n';
  const tasks = expandTasks(parseCampaign(text, file));
  assert.deepEqual(
    tasks.map((t) => t.taskId),
    ['farm_0_type_1_seed_7', 'farm_1_type_0_seed_3'],
  );
});

test('malformed YAML names the file and line', () => {
  const e = errorOf('name: x\nfarms: [\n  {id: 0\n');
  assert.match(e.message, /campaign\.yaml:[34]: farms\[0\]\.id: malformed YAML/);
});

test('unknown turbine: line and field path', () => {
  const e = errorOf(BASE.replace('turbine: iea37-10mw', 'turbine: vestas-v999'));
  assert.match(e.message, /^.*campaign\.yaml:14: farm_types\[1\]\.turbine: unknown turbine 'vestas-v999'/);
});

test('self-intersecting polygon is rejected at its line', () => {
  const e = errorOf(BASE.replace('[[0, 0], [3000, 0], [3000, 2000], [0, 2000]]', '[[0, 0], [3000, 2000], [3000, 0], [0, 2000]]'));
  assert.match(e.message, /campaign\.yaml:7: farms\[1\]\.boundary: .*self-intersect/i);
});

test('empty seed list', () => {
  const e = errorOf(BASE.replace('seeds: {start: 10, count: 3}', 'seeds: []'));
  assert.match(e.message, /campaign\.yaml:16: seeds: must contain at least one seed/);
});

test('negative counts name the field', () => {
  assert.match(errorOf(BASE.replace('n_turbines: 4', 'n_turbines: -4')).message, /campaign\.yaml:15: farm_types\[1\]\.n_turbines: must be an integer >= 1/);
  assert.match(errorOf(BASE + 'workers: -2\n').message, /campaign\.yaml:19: workers: must be an integer >= 1/);
  assert.match(errorOf(BASE.replace('count: 3', 'count: -3')).message, /campaign\.yaml:16: seeds\.count: must be an integer >= 1, got -3/);
  assert.match(errorOf(BASE + 'attempts: 0\n').message, /attempts: must be an integer >= 1/);
});

test('unknown fields, missing fields, wrong types, duplicates', () => {
  assert.match(
    errorOf(BASE.replace('n_turbines: 16', 'n_turbine: 16')).message,
    /campaign\.yaml:12: farm_types\[0\]\.n_turbine: unknown field 'n_turbine'; did you mean 'n_turbines'\?$/,
  );
  assert.match(errorOf(BASE.replace('name: grid\n', '')).message, /campaign\.yaml:1: name: missing/);
  assert.match(errorOf(BASE.replace('n_turbines: 16', 'n_turbines: many')).message, /farm_types\[0\]\.n_turbines: expected .*got 'many'/);
  assert.match(errorOf(BASE.replace('  - id: 1\n    boundary', '  - id: 0\n    boundary')).message, /farms\[1\]\.id: id 0 is used twice/);
  assert.match(errorOf(BASE.replace('seeds: {start: 10, count: 3}', 'seeds: [1, 2, 1]')).message, /seeds\[2\]: seed 1 is listed twice/);
  assert.match(errorOf(BASE + 'only: [farm_9_type_0_seed_10]\n').message, /only\[0\]: task 'farm_9_type_0_seed_10' is not in/);
  assert.match(errorOf(BASE.replace('case: iea37-cs1-16', 'case: iea37-cs9')).message, /farms\[0\]\.case: unknown built-in case 'iea37-cs9'/);
  assert.match(errorOf(BASE.replace('    wind: iea37-cs1\n', '')).message, /farms\[1\]: no wind resource/);
});

test('a missing referenced file is named', () => {
  const e = errorOf(BASE.replace('wind: iea37-cs1', 'wind: winds/none.yaml'));
  assert.match(e.message, /farms\[1\]\.wind: .*none\.yaml.*not found/);
});

test('an unknown optimizer method is rejected when the runner knows its methods', () => {
  const optimizerProblem = (s: { method: string }) => (s.method === 'noop' ? null : { field: 'method', message: `unknown optimizer method '${s.method}'` });
  assert.throws(
    () => parseCampaign(BASE.replace('method: noop', 'method: magic'), file, { optimizerProblem }),
    /campaign\.yaml:18: optimizer\.method: unknown optimizer method 'magic'$/,
  );
});

test('a missing campaign file is an InputError', () => {
  assert.throws(
    () => loadCampaign(path.join(dir, 'nope.yaml')),
    (e: unknown) => e instanceof InputError && /campaign file not found/.test(e.message),
  );
});

test('backoff grows geometrically up to its cap', () => {
  const policy = { attempts: 5, backoffInitialS: 1, backoffFactor: 2, backoffMaxS: 5 };
  assert.deepEqual(
    [1, 2, 3, 4, 5].map((n) => backoffDelayS(policy, n)),
    [1, 2, 4, 5, 5],
  );
});
