/**
 * `optimizer: {method: command, …}` in campaign files: strict keys at every depth with the line and
 * the nearest key, params checked at campaign, farm and farm type level, inputs resolved and
 * hashed; and the spec hash: editing the script or a params mapping makes exactly the tasks that
 * see it stale, while how the program is run (mode, aep, workdir, moving the folder) and what
 * Python writes beside the code (__pycache__) leave every hash alone.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseCampaign } from '../../src/campaign/loadCampaign.js';
import { expandTasks } from '../../src/campaign/taskGrid.js';
import { restrictCampaignText } from '../../src/campaign/restrictCampaign.js';
import { aepModeOf } from '../../src/campaign/commandOptimizer.js';
import { optimizerSettingsProblem } from '../../src/runner/taskFunction.js';
import { InputError } from '../../src/util/errors.js';

function project(): { dir: string; file: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wflo-command-campaign-'));
  fs.writeFileSync(path.join(dir, 'opt.py'), 'print("v1")\n');
  fs.mkdirSync(path.join(dir, 'mylib'));
  fs.writeFileSync(path.join(dir, 'mylib', 'wake.py'), 'K = 0.0324555\n');
  return { dir, file: path.join(dir, 'campaign.yaml') };
}

const BASE = `name: own
output: out
farms:
  - id: 0
    case: iea37-cs1-16
  - id: 1
    case: iea37-cs1-16
    params: {shore_distance_m: 5000}
farm_types:
  - {id: 0, turbine: iea37-3.35mw, n_turbines: 16}
  - {id: 1, turbine: iea37-3.35mw, n_turbines: 9, params: {cable: hvac}}
seeds: {start: 0, count: 3}
optimizer:
  method: command
  run: [python3, opt.py, --iters, "200"]
  inputs: [opt.py, mylib/]
  mode: per-task
  aep: recompute
  params: {iterations: 200, restarts: [1, 2]}
`;

function loader(file: string) {
  return (text: string) => parseCampaign(text, file, { optimizerProblem: optimizerSettingsProblem });
}

function errorOf(file: string, text: string): string {
  try {
    loader(file)(text);
  } catch (err) {
    assert.ok(err instanceof InputError, String(err));
    assert.equal(err.message.includes('\n'), false, err.message);
    return err.message;
  }
  assert.fail('accepted');
}

const hashes = (c: ReturnType<ReturnType<typeof loader>>): Map<string, string> => new Map(expandTasks(c).map((t) => [t.taskId, t.specHash]));

test('a command optimizer resolves: argv as written, every input file hashed, params per level, aep mode for the gate', () => {
  const { dir, file } = project();
  const c = loader(file)(BASE);
  assert.equal(c.optimizer.method, 'command');
  assert.deepEqual(c.optimizer.run, ['python3', 'opt.py', '--iters', '200']);
  assert.deepEqual(
    (c.optimizer.inputFiles as { path: string }[]).map((f) => f.path),
    ['mylib/wake.py', 'opt.py'],
  );
  assert.equal(c.optimizer.workdir, dir);
  assert.deepEqual(c.optimizer.params, { iterations: 200, restarts: [1, 2] });
  assert.deepEqual(c.farms[1].params, { shore_distance_m: 5000 });
  assert.equal(c.farms[0].params, undefined);
  assert.deepEqual(c.farmTypes[1].params, { cable: 'hvac' });
  assert.deepEqual(c.farms[0].windAsWritten, { kind: 'case', case: 'iea37-cs1-16' });
  assert.equal(aepModeOf(c.optimizer), 'recompute');
  assert.equal(aepModeOf(loader(file)(BASE.replace('aep: recompute', 'aep: verify')).optimizer), 'verify');
  assert.equal(aepModeOf({ method: 'gradient' }), null);
});

test('editing the script, a library file or params makes exactly the tasks that see it stale', () => {
  const { dir, file } = project();
  const load = loader(file);
  const before = hashes(load(BASE));
  fs.writeFileSync(path.join(dir, 'opt.py'), 'print("v2")\n');
  const edited = hashes(load(BASE));
  for (const [id, h] of before) assert.notEqual(edited.get(id), h, `${id}: the script changed`);
  fs.writeFileSync(path.join(dir, 'mylib', 'wake.py'), 'K = 0.04\n');
  const lib = hashes(load(BASE));
  for (const [id, h] of edited) assert.notEqual(lib.get(id), h, `${id}: a library file changed`);

  const farmParams = hashes(load(BASE.replace('shore_distance_m: 5000', 'shore_distance_m: 6000')));
  for (const [id, h] of lib) assert.equal(farmParams.get(id) !== h, id.startsWith('farm_1_'), `${id}: only farm 1 has the edited params`);
  const typeParams = hashes(load(BASE.replace('cable: hvac', 'cable: hvdc')));
  for (const [id, h] of lib) assert.equal(typeParams.get(id) !== h, id.includes('_type_1_'), `${id}: only farm type 1 has the edited params`);
  const campaignParams = hashes(load(BASE.replace('iterations: 200', 'iterations: 300')));
  for (const [id, h] of lib) assert.notEqual(campaignParams.get(id), h);
  const argv = hashes(load(BASE.replace('"200"', '"300"')));
  for (const [id, h] of lib) assert.notEqual(argv.get(id), h);
});

test('how the program is run changes no hash: mode, aep, __pycache__, a copy of the folder elsewhere', () => {
  const { dir, file } = project();
  const load = loader(file);
  const base = hashes(load(BASE));
  assert.deepEqual(hashes(load(BASE.replace('mode: per-task', 'mode: persistent').replace('aep: recompute', 'aep: verify'))), base);
  fs.mkdirSync(path.join(dir, 'mylib', '__pycache__'));
  fs.writeFileSync(path.join(dir, 'mylib', '__pycache__', 'wake.cpython-311.pyc'), 'bytecode');
  fs.writeFileSync(path.join(dir, 'mylib', '.wake.py.swp'), 'editor');
  assert.deepEqual(hashes(load(BASE)), base);
  // The same project in another folder: the same tasks.
  const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'wflo-command-copy-'));
  fs.cpSync(dir, copy, { recursive: true });
  assert.deepEqual(hashes(loader(path.join(copy, 'campaign.yaml'))(BASE)), base);
  // The output folder inside an input folder is not hashed (it changes during the run).
  const wide = BASE.replace('inputs: [opt.py, mylib/]', 'inputs: [.]').replace('output: out', 'output: mylib/out');
  const wideHashes = hashes(load(wide));
  fs.mkdirSync(path.join(dir, 'mylib', 'out'));
  fs.writeFileSync(path.join(dir, 'mylib', 'out', 'ledger.sqlite'), 'changes all the time');
  assert.deepEqual(hashes(load(wide)), wideHashes);
});

test('a missing-tasks campaign written elsewhere keeps the program where it was (same hashes)', () => {
  const { dir, file } = project();
  fs.writeFileSync(file, BASE);
  const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), 'wflo-command-missing-'));
  const out = path.join(elsewhere, 'rerun.yaml');
  const text = restrictCampaignText(BASE, file, out, ['farm_0_type_0_seed_1'], path.join(dir, 'out'));
  const c = loader(out)(text);
  assert.equal(c.optimizer.workdir, dir);
  assert.equal(hashes(c).get('farm_0_type_0_seed_1'), hashes(loader(file)(BASE)).get('farm_0_type_0_seed_1'));
});

test('strict: unknown keys with the nearest one, wrong types, missing inputs, params where nothing reads them', () => {
  const { file } = project();
  const e = (text: string) => errorOf(file, text);
  assert.match(e(BASE.replace('  mode: per-task', '  mod: per-task')), /campaign\.yaml:17: optimizer\.mod: unknown field 'mod'; did you mean 'mode'\?$/);
  assert.match(
    e(BASE.replace('mode: per-task', 'mode: per_task')),
    /campaign\.yaml:17: optimizer\.mode: expected one of: per-task, persistent; got 'per_task'/,
  );
  assert.match(e(BASE.replace('aep: recompute', 'aep: check')), /campaign\.yaml:18: optimizer\.aep: expected one of: recompute, verify/);
  assert.match(e(BASE.replace('"200"', '200')), /campaign\.yaml:\d+: optimizer\.run\[3\]: expected a string; quote it: "200"/);
  assert.match(
    e(BASE.replace('run: [python3, opt.py, --iters, "200"]', 'run: python3 opt.py')),
    /optimizer\.run: expected a list: the program and its arguments/,
  );
  assert.match(e(BASE.replace('run: [python3, opt.py, --iters, "200"]', 'run: []')), /optimizer\.run: must name the program to run/);
  assert.match(
    e(BASE.replace('  inputs: [opt.py, mylib/]\n', '')),
    /campaign\.yaml:\d+: optimizer\.inputs: missing: list the files and folders of your program/,
  );
  assert.match(
    e(BASE.replace('inputs: [opt.py, mylib/]', 'inputs: [opt.py, mylibs/]')),
    /campaign\.yaml:16: optimizer\.inputs\[1\]: 'mylibs\/' does not exist in /,
  );
  assert.match(e(BASE.replace('restarts: [1, 2]', 'max-restarts: 2')), /optimizer\.params\.max-restarts: 'max-restarts' is not a usable parameter name/);
  assert.match(
    e(BASE.replace('shore_distance_m: 5000', 'shore_distance_m: .nan')),
    /campaign\.yaml:8: farms\[1\]\.params\.shore_distance_m: expected number, got NaN/,
  );
  assert.match(
    e(BASE.replace('  workdir', '  workdir').replace('aep: recompute', 'aep: recompute\n  workdir: nowhere')),
    /optimizer\.workdir: working directory .*nowhere is not a folder/,
  );
  const gradient = BASE.replace(/optimizer:[\s\S]*$/, 'optimizer: {method: gradient}\n');
  assert.match(e(gradient), /campaign\.yaml:8: farms\[1\]\.params: params are passed to a `method: command` program; method 'gradient' reads none/);
  assert.match(e(gradient.replace('    params: {shore_distance_m: 5000}\n', '')), /campaign\.yaml:10: farm_types\[1\]\.params: params are passed/);
});
