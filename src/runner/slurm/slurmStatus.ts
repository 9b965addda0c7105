/**
 * `wflo slurm status CAMPAIGN`: where a campaign submitted as a job array stands. Progress comes
 * from the shard ledgers (read-only, safe while the shards run): per shard, its slice's done,
 * failed and remaining tasks. SLURM's view comes from `squeue` (array tasks pending or running)
 * and, where the cluster keeps accounting, `sacct` (how finished array tasks ended: COMPLETED,
 * CANCELLED, FAILED, TIMEOUT, …). Without accounting that is said once and the finished shards
 * are judged by their ledgers alone.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Campaign } from '../../campaign/campaign.js';
import { expandTasks } from '../../campaign/taskGrid.js';
import { sliceTasks } from '../../campaign/shardSlice.js';
import { ShardLedger } from '../collect/shardLedger.js';
import { readJobRecords, type JobRecord } from './arrayJob.js';
import { campaignGridHash, SHARD_FOLDER_PREFIX, shardFolderName } from './shardRun.js';
import { accountedArrayTasks, queuedArrayTasks, type ArrayTaskState } from './slurmCommands.js';

export interface ShardStatus {
  index: number;
  dir: string;
  tasks: number;
  done: number;
  failed: number;
  /** SLURM's state of this array task (squeue, else sacct), or null when neither knows it. */
  slurmState: string | null;
  slurmDetail: string;
  /** A folder problem (no ledger yet, damaged, another campaign), or null. */
  problem: string | null;
}

export interface SlurmStatus {
  campaign: string;
  shardsDir: string;
  job: JobRecord | null;
  total: number;
  done: number;
  failed: number;
  shards: ShardStatus[];
  /** One line each: no job recorded, squeue failing, accounting not available. */
  notes: string[];
  complete: boolean;
}

/** N as the shard folders' ledgers record it (`--shard I/N`), when no submission is recorded. */
function shardCountFromFolders(shardsDir: string, c: Campaign, gridHash: string): number {
  let n = 1;
  let names: string[] = [];
  try {
    names = fs.readdirSync(shardsDir).filter((f) => f.startsWith(SHARD_FOLDER_PREFIX));
  } catch {
    return n;
  }
  for (const name of names) {
    const opened = ShardLedger.open(path.join(shardsDir, name), c, gridHash);
    if (!(opened instanceof ShardLedger)) continue;
    const m = /^\d+\/(\d+)$/.exec(opened.shard ?? '');
    if (m) n = Math.max(n, Number(m[1]));
    opened.close();
  }
  return n;
}

export function readSlurmStatus(c: Campaign, shardsDir: string): SlurmStatus {
  const notes: string[] = [];
  const jobs = readJobRecords(shardsDir);
  const job = jobs.length > 0 ? jobs[jobs.length - 1] : null;
  if (!job) notes.push(`no submission recorded in ${shardsDir} (slurm-jobs.jsonl); showing shard ledgers only`);
  const tasks = expandTasks(c);
  const gridHash = campaignGridHash(c);
  const n = job?.shards ?? shardCountFromFolders(shardsDir, c, gridHash);

  const slurmStates = new Map<number, ArrayTaskState>();
  if (job) {
    const acct = accountedArrayTasks(job.job_id);
    if (acct.available) for (const t of acct.tasks) slurmStates.set(t.arrayTaskId, t);
    else notes.push(`sacct: no accounting on this cluster (${acct.reason}); finished array tasks are judged by their ledgers`);
    const queued = queuedArrayTasks(job.job_id);
    if (queued.error) notes.push(queued.error);
    for (const t of queued.tasks) slurmStates.set(t.arrayTaskId, t); // the queue is the fresher view
  }

  const shards: ShardStatus[] = [];
  const doneIds = new Set<string>();
  const failedIds = new Set<string>();
  for (let index = 0; index < n; index++) {
    const dir = path.join(shardsDir, shardFolderName(index));
    const slice = sliceTasks(tasks, { index, count: n });
    const s = slurmStates.get(index);
    const status: ShardStatus = {
      index,
      dir,
      tasks: slice.length,
      done: 0,
      failed: 0,
      slurmState: s?.state ?? null,
      slurmDetail: s?.detail ?? '',
      problem: null,
    };
    shards.push(status);
    const opened = ShardLedger.open(dir, c, gridHash);
    if (!(opened instanceof ShardLedger)) {
      status.problem = opened.kind === 'missing' || opened.kind === 'no_ledger' ? 'not started' : opened.message;
      continue;
    }
    try {
      const spec = new Map(slice.map((t) => [t.taskId, t.specHash]));
      for (const [id, hash] of opened.resultHashes()) {
        if (spec.get(id) === hash && !doneIds.has(id)) {
          doneIds.add(id);
          status.done++;
        }
      }
      for (const t of opened.tasks())
        if (t.failed && spec.get(t.taskId) === t.specHash && !doneIds.has(t.taskId)) {
          failedIds.add(t.taskId);
          status.failed++;
        }
    } finally {
      opened.close();
    }
  }
  return {
    campaign: c.name,
    shardsDir,
    job,
    total: tasks.length,
    done: doneIds.size,
    failed: failedIds.size,
    shards,
    notes,
    complete: doneIds.size === tasks.length,
  };
}

export function formatSlurmStatus(s: SlurmStatus): string {
  const lines: string[] = [];
  lines.push(`campaign ${s.campaign}: ${s.job ? `job ${s.job.job_id}, ${s.job.shards} array tasks, submitted ${s.job.submitted_at}` : 'no job recorded'}`);
  lines.push(`${s.done}/${s.total} done in the shard ledgers, ${s.failed} failed${s.complete ? ' (complete: run `wflo collect`)' : ''}`);
  for (const n of s.notes) lines.push(`note: ${n}`);
  lines.push('');
  const header = ['shard', 'slurm', 'tasks', 'done', 'failed', 'left', 'note'];
  const rows = s.shards.map((sh) => [
    String(sh.index),
    sh.slurmState ?? '-',
    String(sh.tasks),
    String(sh.done),
    String(sh.failed),
    String(sh.tasks - sh.done - sh.failed),
    [sh.slurmDetail, sh.problem ?? ''].filter((x) => x).join('; '),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const fmt = (r: string[]): string =>
    r
      .map((v, i) => (i === r.length - 1 ? v : v.padStart(widths[i])))
      .join('  ')
      .trimEnd();
  lines.push(fmt(header));
  for (const r of rows) lines.push(fmt(r));
  return lines.join('\n');
}
