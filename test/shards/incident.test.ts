/**
 * The incident of docs/incident.md, reproduced: 3000 tasks (10 farms x 5 types x 60 seeds)
 * spread over 40 worker files written by h5py in both shapes; one worker file is 0 bytes,
 * three hold only the `init` placeholder, two are truncated, and one has two NaN AEPs.
 * `wflo shards check` names each bad file, `merge --on-invalid quarantine` writes a valid file
 * with every surviving record (and exits 3: it left invalid files), `missing --expect` verifies
 * every record against the campaign and lists exactly the lost tasks and writes a campaign file,
 * and `wflo run` of that file (noop optimizer) completes them; merging both outputs then gives
 * all 3000. Records are feasible layouts with their AEP under the campaign's model
 * (helpers/adoptionIncident.ts's computedRecord), so they pass that verification.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import { createRng } from '../../src/util/rng.js';
import { readLayoutsFile } from '../../src/io/hdf5/index.js';
import type { LayoutRecord } from '../../src/io/layoutRecord.js';
import { loadCampaign } from '../../src/campaign/loadCampaign.js';
import { expandTasks } from '../../src/campaign/taskGrid.js';
import { computedRecord } from './helpers/adoptionIncident.js';
import { toPy, truncateFile, writeWithH5py, type PyFile } from './helpers/corpus.js';
import { H5PY_SKIP_MESSAGE, dumpWithH5py, h5pyPython } from './helpers/python.js';
import { wflo } from './helpers/runCli.js';

const WORKERS = 40;
const EMPTY = [7];
const INIT_ONLY = [11, 12, 13];
const TRUNCATED = [20, 21];
const NAN_WORKER = 30;

test('the incident: 3000 tasks, broken worker files, recovered and completed', async (t) => {
  if (!h5pyPython()) return t.skip(H5PY_SKIP_MESSAGE);
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'wflo-incident-'));
  t.after(() => fs.rmSync(root, { recursive: true, force: true }));
  const shardDir = path.join(root, 'layouts.h5_temp');
  fs.mkdirSync(shardDir);

  const campaignFile = path.join(root, 'campaign.yaml');
  fs.writeFileSync(
    campaignFile,
    stringify({
      name: 'incident',
      output: 'rerun-out',
      farms: Array.from({ length: 10 }, (_, id) => ({ id, case: 'iea37-cs1-16' })),
      farm_types: Array.from({ length: 5 }, (_, id) => ({ id, turbine: 'iea37-3.35mw', n_turbines: 16 })),
      seeds: { start: 0, count: 60 },
      optimizer: { method: 'noop' },
      workers: 2,
      timeout_s: 60,
      export: { every_results: 1000, every_s: 60 },
    }),
  );
  // 3000 tasks, shuffled deterministically, 75 per worker.
  const campaign = loadCampaign(campaignFile);
  const tasks: LayoutRecord[] = expandTasks(campaign).map((task) => computedRecord(campaign, task));
  const rng = createRng(2024);
  for (let i = tasks.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [tasks[i], tasks[j]] = [tasks[j], tasks[i]];
  }
  const perWorker = tasks.length / WORKERS;
  const workerTasks = Array.from({ length: WORKERS }, (_, w) => tasks.slice(w * perWorker, (w + 1) * perWorker));
  const fileOf = (w: number) => path.join(shardDir, `worker_${31000 + w * 7}.h5`);
  const nanTasks = workerTasks[NAN_WORKER].slice(0, 2).map((r) => r.taskId);
  const files: PyFile[] = workerTasks.map((recs, w) =>
    INIT_ONLY.includes(w)
      ? { path: fileOf(w) }
      : { path: fileOf(w), shape: w % 2 === 0 ? 'groups' : 'rows', records: recs.map((r) => toPy(r, nanTasks.includes(r.taskId) ? null : r.aep)) },
  );
  writeWithH5py(files);
  fs.writeFileSync(fileOf(EMPTY[0]), '');
  truncateFile(fileOf(TRUNCATED[0]), Math.floor(fs.statSync(fileOf(TRUNCATED[0])).size / 2));
  truncateFile(fileOf(TRUNCATED[1]), fs.statSync(fileOf(TRUNCATED[1])).size - 100);

  const lostWorkers = [...EMPTY, ...INIT_ONLY, ...TRUNCATED];
  const lost = new Set([...lostWorkers.flatMap((w) => workerTasks[w].map((r) => r.taskId)), ...nanTasks]);
  const surviving = tasks.filter((r) => !lost.has(r.taskId));
  assert.equal(lost.size, 6 * 75 + 2);

  // check: exit 3, each bad file named with its class.
  const check = await wflo(['shards', 'check', shardDir, '--pattern', 'worker_*.h5']);
  assert.equal(check.code, 3, check.stderr);
  for (const w of EMPTY) assert.match(check.stdout, new RegExp(`${path.basename(fileOf(w))}: empty - file is 0 bytes`));
  for (const w of INIT_ONLY) assert.match(check.stdout, new RegExp(`${path.basename(fileOf(w))}: placeholder_only - no records; root holds only init`));
  for (const w of TRUNCATED) assert.match(check.stdout, new RegExp(`${path.basename(fileOf(w))}: truncated - file is \\d+ bytes but its superblock`));
  assert.match(check.stdout, new RegExp(`${path.basename(fileOf(NAN_WORKER))}: valid \\(73 records\\) - .*2 records unusable \\(.*aep is NaN`));
  assert.match(check.stdout, /40 files: empty 1, truncated 2, placeholder_only 3, valid 34/);
  assert.match(check.stdout, new RegExp(`records: ${surviving.length} usable \\(${surviving.length} distinct tasks\\), 2 unusable`));

  // merge with quarantine: a valid file with every surviving record, values intact.
  const merged = path.join(root, 'layouts.h5');
  const merge = await wflo(['shards', 'merge', shardDir, '-o', merged, '--on-invalid', 'quarantine']);
  assert.equal(merge.code, 3, merge.stderr);
  assert.match(merge.stdout, /problems found \(exit 3\)/);
  assert.match(merge.stdout, new RegExp(`output:  ${merged.replace(/[.]/g, '\\.')}: ${surviving.length} rows, .*verified`));
  const { records } = await readLayoutsFile(merged);
  assert.equal(records.length, surviving.length);
  const byId = new Map(surviving.map((r) => [r.taskId, r]));
  for (const r of records) {
    const expected = byId.get(r.taskId)!;
    assert.ok(expected, `${r.taskId} is a surviving task`);
    assert.equal(r.aep, expected.aep);
    assert.deepEqual(r.x, expected.x);
    assert.deepEqual(r.y, expected.y);
  }
  assert.deepEqual(fs.readdirSync(path.join(shardDir, 'quarantine')).sort(), [...EMPTY, ...TRUNCATED].map((w) => path.basename(fileOf(w))).sort());
  assert.equal((dumpWithH5py(merged).datasets.aep.shape as number[])[0], surviving.length);

  // missing: every record verified against the campaign; exactly the lost tasks, and a campaign file for them.
  const missingFile = path.join(root, 'subdir', 'missing.yaml');
  fs.mkdirSync(path.dirname(missingFile));
  const missing = await wflo(['shards', 'missing', '--expect', campaignFile, '--from', merged, '--write', missingFile]);
  assert.equal(missing.code, 3, missing.stderr);
  assert.deepEqual(missing.stdout.trim().split('\n').sort(), [...lost].sort());
  assert.match(missing.stderr, new RegExp(`${lost.size} of 3000 tasks missing`));
  const byRanges = await wflo(['shards', 'missing', '--farms', '0-9', '--types', '0-4', '--seeds', '0-59', '--from', shardDir, '--json']);
  assert.deepEqual((JSON.parse(byRanges.stdout) as { missing: string[] }).missing.sort(), [...lost].sort(), 'the directory of shards gives the same answer');

  // wflo run of the written campaign completes exactly those tasks.
  const run = await wflo(['run', missingFile, '--quiet']);
  assert.equal(run.code, 0, run.stderr);
  const rerunLayouts = path.join(root, 'rerun-out', 'layouts.h5');
  const rerun = await readLayoutsFile(rerunLayouts);
  assert.deepEqual(rerun.records.map((r) => r.taskId).sort(), [...lost].sort());

  // Both outputs merged: nothing missing any more.
  const finalDir = path.join(root, 'final');
  fs.mkdirSync(finalDir);
  fs.copyFileSync(merged, path.join(finalDir, 'recovered.h5'));
  fs.copyFileSync(rerunLayouts, path.join(finalDir, 'rerun.h5'));
  const all = path.join(root, 'all.h5');
  assert.equal((await wflo(['shards', 'merge', finalDir, '-o', all])).code, 0);
  // By ranges, not --expect: the noop stand-in optimizer of the rerun does not keep the minimum
  // spacing, so its layouts would not pass verification against the campaign.
  const done = await wflo(['shards', 'missing', '--farms', '0-9', '--types', '0-4', '--seeds', '0-59', '--from', all]);
  assert.equal(done.code, 0, done.stderr);
  assert.equal(done.stdout, '');
  assert.equal((await readLayoutsFile(all)).records.length, 3000);
});
