/**
 * The README's rescue story end to end, on an incident folder written by h5py (empty,
 * placeholder, truncated and valid worker files, a duplicated task, a record with the wrong
 * turbine count, one outside the boundary, one with a wrong AEP, one with NaN, a worker killed
 * mid-write): check → merge → `wflo run campaign.yaml --adopt rescued.h5` → one layouts.h5 with
 * exactly one row per task, `complete=1`; the good records adopted as they were, every other task
 * computed, and h5py reads it. Every adopted row names the worker file it came from, through the
 * merge or adopted directly. Adopting the folder directly gives the same rows.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { readLayoutsFile } from '../../src/io/hdf5/index.js';
import { hasH5py, PYTHON, runWflo, tempDir } from '../helpers.js';
import { writeAdoptionIncident } from '../shards/helpers/adoptionIncident.js';
import { auditEvents } from './runnerTestKit.js';

test('rescue: check → merge → run --adopt gives one verified row per task', async (t) => {
  if (!hasH5py()) return t.skip('python3-h5py not installed (the incident folder is written by h5py)');
  const root = tempDir('wflo-rescue-');
  t.after(() => fs.rmSync(root, { recursive: true, force: true }));
  const shards = path.join(root, 'layouts.h5_temp');
  const campaignFile = path.join(root, 'campaign.yaml');
  const incident = writeAdoptionIncident(shards, campaignFile);
  const total = incident.tasks.length;

  const check = runWflo(['shards', 'check', shards, '--expect', campaignFile]);
  assert.equal(check.status, 3, check.stderr);
  const rescued = path.join(root, 'rescued.h5');
  const merge = runWflo(['shards', 'merge', shards, '-o', rescued, '--on-invalid', 'quarantine', '--expect', campaignFile]);
  assert.equal(merge.status, 3, `merge leaves problems behind, so it exits 3: ${merge.stderr}`);
  assert.ok(fs.existsSync(rescued));

  const run = runWflo(['run', campaignFile, '--quiet', '--adopt', rescued], { timeoutMs: 300_000 });
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stderr, new RegExp(`wflo: adopted ${incident.good.size} results`));

  const out = path.join(root, 'out');
  const final = await readLayoutsFile(path.join(out, 'layouts.h5'));
  assert.equal(final.info.complete, true);
  assert.deepEqual(
    final.records.map((r) => r.taskId),
    incident.tasks,
    'exactly one row per task, in grid order',
  );
  for (const r of final.records) {
    const good = incident.good.get(r.taskId);
    if (good) {
      // The worker file the record came from, named through the merge (rescued.h5's /source) into the ledger.
      assert.equal(r.source, `adopted:${path.join(shards, incident.goodFile.get(r.taskId)!)}`, r.taskId);
      assert.deepEqual([Array.from(r.x), Array.from(r.y), r.aep], [Array.from(good.x), Array.from(good.y), good.aep], `${r.taskId} adopted as it was`);
    } else {
      assert.equal(r.source, 'computed', r.taskId);
    }
  }
  const computed = new Set(
    auditEvents(out)
      .filter((e) => e.event === 'attempt' && e.outcome === 'done')
      .map((e) => String(e.task)),
  );
  assert.equal(computed.size, total - incident.good.size);
  for (const r of incident.rejected) assert.ok(computed.has(r.taskId), `${r.taskId} (rejected: ${r.reason}) was recomputed`);
  for (const id of incident.good.keys()) assert.ok(!computed.has(id), `${id} was adopted, not recomputed`);

  const py = spawnSync(
    PYTHON,
    [
      '-c',
      `
import h5py, sys
with h5py.File(sys.argv[1], 'r') as f:
    ids = f['task_id'].asstr()[:]
    print(len(ids), len(set(ids)), int(f.attrs['complete']), int(f.attrs['n_expected']), sum(s.startswith(b'adopted:') for s in f['source'][:]))
`,
      path.join(out, 'layouts.h5'),
    ],
    { encoding: 'utf8' },
  );
  assert.equal(py.status, 0, py.stderr);
  assert.equal(py.stdout.trim(), `${total} ${total} 1 ${total} ${incident.good.size}`);

  // The same folder adopted directly (merged on the fly) gives the same rows.
  const direct = path.join(root, 'direct.yaml');
  fs.writeFileSync(direct, fs.readFileSync(campaignFile, 'utf8').replace(/^output: .*$/m, 'output: direct-out'));
  const second = runWflo(['run', direct, '--quiet', '--adopt', shards], { timeoutMs: 300_000 });
  assert.equal(second.status, 0, second.stderr);
  const again = await readLayoutsFile(path.join(root, 'direct-out', 'layouts.h5'));
  const strip = (rs: typeof final.records): unknown => rs.map((r) => [r.taskId, r.aep, Array.from(r.x), Array.from(r.y), r.source]);
  assert.deepEqual(strip(again.records), strip(final.records));
});
