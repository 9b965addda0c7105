/**
 * Shard doctor policies of issue 8 on files written by h5py: no file that a command did not write
 * itself is replaced without --force (merge output and audit files, `missing --write`); with
 * --expect, a wrong copy of a task is rejected rather than conflicting with the good copy.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import { readLayoutsFile } from '../../src/io/hdf5/index.js';
import { loadCampaign } from '../../src/campaign/loadCampaign.js';
import { expandTasks } from '../../src/campaign/taskGrid.js';
import { makeRecord } from './helpers/records.js';
import { toPy, writeWithH5py } from './helpers/corpus.js';
import { DEFAULT_ADOPTION_CAMPAIGN, computedRecord } from './helpers/adoptionIncident.js';
import { H5PY_SKIP_MESSAGE, h5pyPython } from './helpers/python.js';
import { wflo } from './helpers/runCli.js';

const rec = (farmId: number, seed: number, nTurbines = 5) => makeRecord({ farmId, farmType: 0, seed, nTurbines, withInitial: false });

function tempDir(t: { after: (fn: () => void) => void }): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wflo-policy-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

test('no file the command did not write is replaced without --force', async (t) => {
  if (!h5pyPython()) return t.skip(H5PY_SKIP_MESSAGE);
  const dir = tempDir(t);
  const shards = path.join(dir, 'shards');
  fs.mkdirSync(shards);
  writeWithH5py([{ path: path.join(shards, 'w.h5'), shape: 'groups', records: [toPy(rec(5, 0))] }]);
  const out = path.join(dir, 'merged.h5');
  fs.writeFileSync(`${out}.audit.jsonl`, 'my notes\n');
  const refused = await wflo(['shards', 'merge', shards, '-o', out]);
  assert.equal(refused.code, 2, refused.stderr + refused.stdout);
  assert.match(refused.stderr, /merged\.h5\.audit\.jsonl exists and is not a merge audit \(use --force to replace it\)/);
  assert.equal(fs.readFileSync(`${out}.audit.jsonl`, 'utf8'), 'my notes\n');
  assert.equal(fs.existsSync(out), false);
  const forcedMerge = await wflo(['shards', 'merge', shards, '-o', out, '--force']);
  assert.equal(forcedMerge.code, 0, forcedMerge.stderr);
  // A merge's own audit (from a merge that was aborted, say) is not in the way.
  fs.rmSync(out);
  const ownAudit = await wflo(['shards', 'merge', shards, '-o', out]);
  assert.equal(ownAudit.code, 0, ownAudit.stderr);
  // An existing output needs --force, whoever wrote it.
  const again = await wflo(['shards', 'merge', shards, '-o', out]);
  assert.equal(again.code, 2, again.stderr + again.stdout);
  assert.match(again.stderr, /merged\.h5 already exists \(use --force to replace it\)/);

  // missing --write replaces only a file it wrote itself.
  const campaign = path.join(dir, 'campaign.yaml');
  fs.writeFileSync(
    campaign,
    'name: c\nfarms: [{id: 0, case: iea37-cs1-16}]\nfarm_types: [{id: 0, turbine: iea37-3.35mw, n_turbines: 4}]\nseeds: {start: 0, count: 2}\noptimizer: {method: noop}\n',
  );
  const rerun = path.join(dir, 'rerun.yaml');
  fs.writeFileSync(rerun, 'my own campaign\n');
  const foreign = await wflo(['shards', 'missing', '--expect', campaign, '--from', out, '--write', rerun]);
  assert.equal(foreign.code, 2, foreign.stderr + foreign.stdout);
  assert.match(foreign.stderr, /--write .*rerun\.yaml: the file exists and was not written by `wflo shards missing` \(use --force to replace it\)/);
  assert.equal(fs.readFileSync(rerun, 'utf8'), 'my own campaign\n');
  const forced = await wflo(['shards', 'missing', '--expect', campaign, '--from', out, '--write', rerun, '--force']);
  assert.equal(forced.code, 3, forced.stderr);
  assert.match(forced.stderr, /2 of 2 tasks missing .*1 records rejected by the checks against the campaign/);
  assert.equal((await wflo(['shards', 'missing', '--expect', campaign, '--from', out, '--write', rerun])).code, 3, 'its own file is replaced');
});

test('with --expect, a wrong copy of a task is rejected instead of conflicting with the good one', async (t) => {
  if (!h5pyPython()) return t.skip(H5PY_SKIP_MESSAGE);
  const dir = tempDir(t);
  const campaignFile = path.join(dir, 'campaign.yaml');
  fs.writeFileSync(campaignFile, stringify(DEFAULT_ADOPTION_CAMPAIGN));
  const campaign = loadCampaign(campaignFile);
  const task = expandTasks(campaign)[0]!;
  const good = computedRecord(campaign, task);
  const shards = path.join(dir, 'shards');
  fs.mkdirSync(shards);
  writeWithH5py([
    { path: path.join(shards, 'a.h5'), shape: 'groups', records: [{ ...toPy(good), aep: good.aep * 2 }] },
    { path: path.join(shards, 'b.h5'), shape: 'groups', records: [toPy(good)] },
  ]);
  const conflict = await wflo(['shards', 'merge', shards, '-o', path.join(dir, 'plain.h5')]);
  assert.equal(conflict.code, 3, conflict.stderr + conflict.stdout);
  assert.match(conflict.stderr, /1 task with conflicting duplicates/);
  const out = path.join(dir, 'verified.h5');
  const merge = await wflo(['shards', 'merge', shards, '-o', out, '--expect', campaignFile, '--on-invalid', 'skip']);
  assert.equal(merge.code, 3, merge.stderr);
  assert.match(merge.stdout, new RegExp(`^  ${task.taskId}: AEP \\S+ MWh differs from recomputed \\S+ MWh \\(rel 1\\.0e0\\) \\(a\\.h5, `, 'm'));
  const { records } = await readLayoutsFile(out);
  assert.equal(records.length, 1);
  assert.equal(records[0]!.aep, good.aep);
});
