/**
 * Issue 25, the rescue through `wflo shards check | merge`, on the worker folder the rescue example
 * writes with h5py (examples/rescue/make_incident_folder.py: 0-byte, placeholder-only, truncated,
 * left-open and valid files, a conflicting duplicate, optimizer slack):
 *   - check and merge apply one definition of a problem: a placeholder-only folder is no problem
 *     for either (it was exit 3 for check, 0 for merge); the incident folder is one for both, with
 *     the same counts;
 *   - the merged file's `/source` names the worker file each row came from (it was ""), and keeps
 *     what the workers wrote (aep_initial, iterations, evaluations), read back by h5py;
 *   - optimizer slack (a turbine 0.01 m outside, a pair 259.9995 m apart) is rejected by default,
 *     the line saying how far off and the --tolerance-m that accepts it; with that option the
 *     rows are merged as written;
 *   - a file's own `adopted:<file>` source column is kept, as printable ASCII, anything else not.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { hasH5py, PYTHON, runWflo, tempDir } from '../helpers.js';
import { dumpWithH5py } from './helpers/python.js';
import { tasksWith, writeRescueExample } from './helpers/rescueExample.js';

const SKIP = hasH5py() ? false : 'python3-h5py not installed (the worker files are written by h5py)';

test('check and merge agree: a folder of placeholder-only files is no problem for either', { skip: SKIP }, (t) => {
  const root = tempDir('wflo-rescue-agree-');
  t.after(() => fs.rmSync(root, { recursive: true, force: true }));
  const incident = writeRescueExample(root);
  const only = path.join(root, 'placeholders');
  fs.mkdirSync(only);
  for (const name of ['worker_41003.h5', 'worker_41006.h5']) fs.copyFileSync(path.join(incident.folder, name), path.join(only, name));
  const check = runWflo(['shards', 'check', only]);
  const merge = runWflo(['shards', 'merge', only, '-o', path.join(root, 'm.h5')]);
  assert.equal(check.status, 0, `check: ${check.stdout}${check.stderr}`);
  assert.equal(merge.status, 0, `merge: ${merge.stdout}${merge.stderr}`);
  assert.match(check.stdout, /^no problems \(2 files holding only placeholders\)$/m);
  assert.match(check.stdout, /worker_41003\.h5: placeholder_only - no records; root holds only init/);
  assert.match(merge.stdout, /^no problems$/m);
});

test('check and merge agree on the incident folder: the same problems, exit 3 for both', { skip: SKIP }, (t) => {
  const root = tempDir('wflo-rescue-agree-');
  t.after(() => fs.rmSync(root, { recursive: true, force: true }));
  const incident = writeRescueExample(root);
  const check = runWflo(['shards', 'check', incident.folder, '--expect', incident.campaign]);
  assert.equal(check.status, 3, check.stderr);
  // 0 bytes and truncated; the two slack records; the task worker_41002.h5 and worker_41009.h5 disagree on.
  const problems = 'problems found: 2 invalid files, 2 rejected records, 1 conflicting duplicate';
  assert.match(check.stdout, new RegExp(`^${problems}$`, 'm'));
  // A rule for the conflict does not make it disappear: one record of the task is left out.
  const merge = runWflo([
    'shards',
    'merge',
    incident.folder,
    '-o',
    path.join(root, 'r.h5'),
    '--expect',
    incident.campaign,
    '--on-invalid',
    'skip',
    '--on-conflict',
    'first',
  ]);
  assert.equal(merge.status, 3, merge.stderr);
  assert.match(merge.stdout, new RegExp(`^${problems.replace('problems found', 'problems found \\(exit 3\\)')}; see the lists above$`, 'm'));
});

test("merge: /source names each row's worker file, and what the workers wrote is kept", { skip: SKIP }, (t) => {
  const root = tempDir('wflo-rescue-merge-');
  t.after(() => fs.rmSync(root, { recursive: true, force: true }));
  const incident = writeRescueExample(root);
  const out = path.join(root, 'rescued.h5');
  // As a user types it, from the folder's parent: the path given is the one the sources use.
  const merge = runWflo(
    ['shards', 'merge', 'layouts.h5_temp', '-o', 'rescued.h5', '--expect', 'campaign.yaml', '--on-invalid', 'skip', '--on-conflict', 'first'],
    { cwd: root },
  );
  assert.equal(merge.status, 3, merge.stderr);
  const f = dumpWithH5py(out).datasets;
  const ids = f.task_id!.value as string[];
  const good = tasksWith(incident, 'good');
  assert.deepEqual([...ids].sort(), good, 'every good record merged, slack and missing ones not');
  ids.forEach((id, i) => {
    const want = incident.tasks[id]!;
    assert.equal((f.source!.value as string[])[i], `adopted:layouts.h5_temp/${want.file}`, id);
    assert.equal((f.aep!.value as number[])[i], want.aep, `${id} aep`);
    assert.equal((f.aep_initial!.value as (number | string)[])[i], want.aep_initial ?? 'NaN', `${id} aep_initial`);
    assert.equal((f.iterations!.value as number[])[i], want.iterations, `${id} iterations`);
    assert.equal((f.evaluations!.value as number[])[i], want.evaluations, `${id} evaluations`);
  });
  const withInitial = good.filter((id) => incident.tasks[id]!.aep_initial !== null);
  assert.ok(withInitial.length >= 13 && withInitial.length < good.length, 'the example has records with and without aep_initial');
});

test('merge --tolerance-m: slack is refused by default with how far off and the option that accepts it; with it, merged as written', { skip: SKIP }, (t) => {
  const root = tempDir('wflo-rescue-slack-');
  t.after(() => fs.rmSync(root, { recursive: true, force: true }));
  const incident = writeRescueExample(root);
  const slack = tasksWith(incident, 'slack');
  assert.equal(slack.length, 2);
  const check = runWflo(['shards', 'check', incident.folder, '--expect', incident.campaign]);
  assert.match(
    check.stdout,
    /^ {2}farm_1_type_0_seed_4: turbine \d+ is 0\.01 m outside the boundary \(0\.01 m off, beyond the 1e-6 m tolerance: --tolerance-m 0\.01 accepts it\) \(worker_41010\.h5, /m,
  );
  assert.match(
    check.stdout,
    /^ {2}farm_0_type_0_seed_5: turbines \d+ and \d+ are 259\.99950 m apart, minimum 260 m \(0\.0005 m off, beyond the 1e-6 m tolerance: --tolerance-m 0\.0005 accepts it\)/m,
  );

  const tooTight = runWflo(['shards', 'check', incident.folder, '--expect', incident.campaign, '--tolerance-m', '0.001']);
  assert.match(
    tooTight.stdout,
    /farm_1_type_0_seed_4: turbine \d+ is 0\.01 m outside the boundary \(0\.01 m off, beyond --tolerance-m 0\.001: --tolerance-m 0\.01 accepts it\)/,
  );
  assert.doesNotMatch(tooTight.stdout, /farm_0_type_0_seed_5/, '0.0005 m is within 0.001 m');

  const out = path.join(root, 'rescued.h5');
  const merge = runWflo([
    'shards',
    'merge',
    incident.folder,
    '-o',
    out,
    '--expect',
    incident.campaign,
    '--on-invalid',
    'skip',
    '--on-conflict',
    'first',
    '--tolerance-m',
    '0.01',
  ]);
  assert.equal(merge.status, 3, merge.stderr);
  assert.doesNotMatch(merge.stdout, /rejected records/);
  const f = dumpWithH5py(out).datasets;
  const ids = f.task_id!.value as string[];
  for (const id of slack) {
    const i = ids.indexOf(id);
    assert.ok(i >= 0, `${id} merged`);
    const want = incident.tasks[id]!;
    const layout = (f.layout!.value as (number | string)[][][])[i]!;
    assert.deepEqual(
      layout.slice(0, want.x!.length).map((p) => p[0]),
      want.x,
      `${id} x as the worker wrote it`,
    );
    assert.deepEqual(
      layout.slice(0, want.y!.length).map((p) => p[1]),
      want.y,
      `${id} y as the worker wrote it`,
    );
  }
  assert.equal(runWflo(['shards', 'check', incident.folder, '--tolerance-m', '0.01']).status, 2, '--tolerance-m needs --expect');
});

/** h5py: a rows file (wflo's layout) whose `source` column says where each row came from, honestly or not. */
const CLAIMS = String.raw`
import h5py, sys
import numpy as np
with h5py.File(sys.argv[1], 'w') as h:
    h.create_dataset('farm_id', data=[0, 0, 0])
    h.create_dataset('farm_type', data=[0, 0, 0])
    h.create_dataset('seed', data=[0, 1, 2])
    h.create_dataset('aep', data=[1.0, 2.0, 3.0])
    h.create_dataset('layout', data=np.array([[[0., 0.], [500., 0.]]] * 3))
    h.create_dataset('source', data=np.array([b'adopted:old_run/worker_17.h5', b'pywake v2.5', b'adopted:\x1b[2Jx\xc3\xa9']))
`;

test("a row's own `adopted:<file>` source survives a merge; anything else in a source column is not taken, and nothing unprintable is", { skip: SKIP }, (t) => {
  const root = tempDir('wflo-rescue-claims-');
  t.after(() => fs.rmSync(root, { recursive: true, force: true }));
  const made = spawnSync(PYTHON, ['-c', CLAIMS, path.join(root, 'earlier.h5')], { encoding: 'utf8' });
  assert.equal(made.status, 0, made.stderr);
  const merge = runWflo(['shards', 'merge', './earlier.h5', '-o', 'm.h5'], { cwd: root });
  assert.equal(merge.status, 0, merge.stdout + merge.stderr);
  assert.deepEqual(dumpWithH5py(path.join(root, 'm.h5')).datasets.source!.value, ['adopted:old_run/worker_17.h5', 'adopted:earlier.h5', 'adopted:?[2Jx??']);
});
