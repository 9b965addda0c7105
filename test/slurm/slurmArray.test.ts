/**
 * A campaign as a SLURM job array on a real single-node SLURM (Debian's slurm-wlm + munge,
 * started by test/helpers/slurmCluster.ts in a temporary folder): `wflo slurm --array 4` runs to
 * completion and `wflo collect` gives the same rows as a local `wflo run` of the same campaign;
 * with one array task cancelled mid-run (`scancel JOB_2`), collect names exactly that shard's
 * unfinished tasks, and `wflo missing --write` + `wflo slurm` of the rerun file + collect
 * completes them into the rows of the local run; a shard's `wflo run` SIGKILLed on its node
 * leaves none of its busy workers behind. If SLURM cannot start here the test fails with the
 * daemon's own error line.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { startSlurmCluster, type SlurmCluster } from '../helpers/slurmCluster.js';
import { loadCampaign } from '../../src/campaign/loadCampaign.js';
import { expandTasks } from '../../src/campaign/taskGrid.js';
import { sliceTasks } from '../../src/campaign/shardSlice.js';
import { readLayoutsFile } from '../../src/io/hdf5/index.js';
import { doneTaskIds, ledgerRows, listedTasks, tempDir, wflo, writeNoopCampaign } from './slurmKit.js';
import { blockingCampaign, bothBlocked, descendants, killAndWatch, runningTasks, runPid } from '../runner/processTree.js';

const SHARDS = 4;
let cluster: SlurmCluster;
let work: string;
let campaignFile: string;
let localDir: string;

before(async () => {
  work = tempDir('slurm-array');
  campaignFile = writeNoopCampaign(path.join(work, 'campaign.yaml'), 'out', 6, 500);
  cluster = await startSlurmCluster();
  // The reference: the same campaign run locally.
  localDir = path.join(work, 'local');
  const local = wflo(['run', campaignFile, '--out', localDir, '--workers', '2', '--quiet']);
  assert.equal(local.status, 0, local.stderr);
});

after(async () => {
  await cluster?.stop();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** What SLURM and the array tasks said, for assertion messages. */
function diagnose(shardsDir: string): string {
  const q = cluster.run('squeue', ['-h', '-r', '-o', '%i %T %r']);
  const logDir = path.join(shardsDir, 'slurm-logs');
  const logs = fs.existsSync(logDir)
    ? fs.readdirSync(logDir).map((f) => `${f}: ${fs.readFileSync(path.join(logDir, f), 'utf8').trim().split('\n').slice(-3).join(' | ')}`)
    : ['no slurm-logs folder'];
  const node = cluster.run('sinfo', ['-h', '-N', '-o', '%N %T %E']);
  return `\nsinfo: ${node.stdout.trim()}\nsqueue: ${q.stdout.trim() || q.stderr.trim() || '(empty)'}\n${logs.join('\n')}`;
}

async function waitForJob(jobId: string, shardsDir: string, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const q = cluster.run('squeue', ['-h', '-j', jobId, '-o', '%i %T']);
    if (q.status === 0 && q.stdout.trim() === '') return;
    if (Date.now() > deadline) assert.fail(`job ${jobId} still queued after ${timeoutMs / 1000} s: ${q.stdout.trim()}${diagnose(shardsDir)}`);
    await sleep(300);
  }
}

function submit(shardsDir: string): string {
  const r = wflo(['slurm', campaignFile, '--array', String(SHARDS), '--cpus-per-task', '1', '--time', '00:05:00', '--out', shardsDir], cluster.env);
  assert.equal(r.status, 0, r.stderr);
  const jobId = r.stdout.trim();
  assert.match(jobId, /^\d+$/);
  assert.ok(fs.existsSync(path.join(shardsDir, `slurm-${jobId}.sbatch`)));
  return jobId;
}

/** Rows equal to the local run's, apart from wall time and attempts (not compared). */
async function assertSameAsLocal(dir: string): Promise<void> {
  const expected = ledgerRows(localDir),
    actual = ledgerRows(dir);
  assert.equal(expected.size, 24);
  assert.deepEqual([...actual.keys()], [...expected.keys()]);
  for (const [id, row] of expected) assert.deepEqual(actual.get(id), row, id);
  const a = await readLayoutsFile(path.join(dir, 'layouts.h5'));
  const b = await readLayoutsFile(path.join(localDir, 'layouts.h5'));
  assert.equal(a.records.length, 24);
  // Collected rows say which shard folder they came from; the local run's say `computed`.
  const strip = ({ wallS: _w, attempts: _a, source: _s, ...rest }: (typeof a.records)[number]) => rest;
  assert.deepEqual(a.records.map(strip), b.records.map(strip));
  for (const r of a.records) assert.match(r.source ?? '', /^shard:.*shard-\d+$/, r.taskId);
  assert.equal(a.info.campaignHash, b.info.campaignHash);
}

test('wflo slurm --array 4 runs to completion; collect gives the rows of a local run', async () => {
  const shardsDir = path.join(work, 'array run'); // a space: sbatch must get the quoted --output path
  const jobId = submit(shardsDir);
  // Right after submission: each shard runs >= 3 s and only 2 fit at once, so squeue still has some.
  const early = wflo(['slurm', 'status', campaignFile, '--out', shardsDir, '--json'], cluster.env);
  assert.equal(early.status, 0, early.stderr);
  const earlyStates = (JSON.parse(early.stdout) as { shards: { slurmState: string | null }[] }).shards.map((s) => s.slurmState);
  assert.equal(earlyStates.length, SHARDS);
  assert.ok(
    earlyStates.some((s) => s === 'PENDING' || s === 'RUNNING'),
    `squeue states: ${earlyStates.join(', ')}`,
  );
  await waitForJob(jobId, shardsDir);
  const status = wflo(['slurm', 'status', campaignFile, '--out', shardsDir], cluster.env);
  assert.equal(status.status, 0, status.stderr);
  assert.match(status.stdout, /24\/24 done/);
  assert.match(status.stdout, /no accounting on this cluster/, 'this cluster keeps no accounting: status must say so, not fail');

  const final = path.join(work, 'final');
  const c = wflo(['collect', campaignFile, '--from', path.join(shardsDir, 'shard-*'), '--out', final]);
  assert.equal(c.status, 0, c.stderr + c.stdout);
  assert.match(c.stdout, /4 of 4 shard folders read/);
  await assertSameAsLocal(final);

  // Collecting again imports nothing new and changes nothing.
  const again = wflo(['collect', campaignFile, '--from', path.join(shardsDir, 'shard-*'), '--out', final]);
  assert.equal(again.status, 0, again.stderr);
  assert.match(again.stdout, /0 rows imported, 24 already there/);
  await assertSameAsLocal(final);
});

test('scancel of one array task: collect names its unfinished tasks, the rerun completes them', async () => {
  const shardsDir = path.join(work, 'cancel');
  const jobId = submit(shardsDir);
  const shard2 = path.join(shardsDir, 'shard-2');
  const deadline = Date.now() + 90_000;
  while (doneTaskIds(shard2).size === 0) {
    assert.ok(Date.now() < deadline, `array task 2 never committed a result${diagnose(shardsDir)}`);
    await sleep(100);
  }
  const cancel = cluster.run('scancel', [`${jobId}_2`]);
  assert.equal(cancel.status, 0, cancel.stderr);
  await waitForJob(jobId, shardsDir);

  const campaign = loadCampaign(campaignFile);
  const slice2 = sliceTasks(expandTasks(campaign), { index: 2, count: SHARDS }).map((t) => t.taskId);
  const doneIn2 = doneTaskIds(shard2);
  const unfinished = new Set(slice2.filter((id) => !doneIn2.has(id)));
  assert.ok(unfinished.size > 0, 'array task 2 finished before it was cancelled');

  const final = path.join(work, 'final-cancel');
  const c = wflo(['collect', campaignFile, '--from', path.join(shardsDir, 'shard-*'), '--out', final]);
  assert.equal(c.status, 3, c.stderr + c.stdout);
  assert.deepEqual(listedTasks(c.stdout), unfinished);

  const rerun = path.join(work, 'rerun.yaml');
  const m = wflo(['missing', final, '--write', rerun]);
  assert.ok(m.status === 0 || m.status === 3, m.stderr); // 3: "some tasks are not done"
  assert.ok(fs.existsSync(rerun), m.stderr);
  assert.deepEqual(listedTasks(m.stdout), unfinished);
  // The rerun as a smaller array: its shards carry the whole campaign's grid hash, so the
  // original campaign collects them.
  const rerunShards = path.join(work, 'rerun-shards');
  const sub = wflo(['slurm', rerun, '--array', '2', '--cpus-per-task', '1', '--out', rerunShards], cluster.env);
  assert.equal(sub.status, 0, sub.stderr);
  await waitForJob(sub.stdout.trim(), rerunShards);
  const r = wflo(['collect', campaignFile, '--from', path.join(rerunShards, 'shard-*'), '--out', final]);
  assert.equal(r.status, 0, r.stderr + r.stdout);
  assert.match(r.stdout, new RegExp(`${unfinished.size} rows imported`));
  await assertSameAsLocal(final);
});

test("a shard's wflo run SIGKILLed on its node: its workers, busy in their tasks, end with it", async (t) => {
  const dir = path.join(work, 'orphans');
  fs.mkdirSync(dir);
  const file = blockingCampaign(dir, path.join(dir, 'out'));
  const shardsDir = path.join(dir, 'shards');
  const r = wflo(['slurm', file, '--array', '1', '--cpus-per-task', '2', '--time', '00:05:00', '--out', shardsDir], cluster.env);
  assert.equal(r.status, 0, r.stderr);
  const jobId = r.stdout.trim();
  const shard = path.join(shardsDir, 'shard-0');
  const deadline = Date.now() + 90_000;
  while (!bothBlocked(shard)) {
    assert.ok(Date.now() < deadline, `the shard's blocking tasks never ran (running: ${runningTasks(shard).join(', ')})${diagnose(shardsDir)}`);
    await sleep(200);
  }
  await sleep(1000); // the workers are inside their tasks
  const coordinator = runPid(shard);
  const procs = descendants(coordinator);
  assert.equal(procs.filter((p) => p.cmd.includes('executors/local/worker.js')).length, 2, procs.map((p) => p.cmd).join('; '));
  const ms = await killAndWatch(coordinator, procs, 'shard workers');
  t.diagnostic(`${procs.length} processes of the shard gone ${ms} ms after its wflo run's SIGKILL`);
  await waitForJob(jobId, shardsDir);
});
