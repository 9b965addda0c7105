/**
 * `wflo slurm CAMPAIGN --array N`: write the job array script for a campaign (sbatchScript.ts)
 * and submit it. The script is kept beside the shard folders as `slurm-<jobid>.sbatch`, and
 * each submission is appended to `slurm-jobs.jsonl` there, which `wflo slurm status` reads to
 * find the job in squeue/sacct.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { InputError, RuntimeFailure } from '../../util/errors.js';
import type { Campaign } from '../../campaign/campaign.js';
import { sbatchScript, type ArrayJobSpec } from './sbatchScript.js';
import { sbatchSubmit } from './slurmCommands.js';
import { SHARD_FOLDER_PREFIX, SHARD_META } from './shardRun.js';
import { LEDGER_FILE } from '../ledger.js';

export const JOBS_FILE = 'slurm-jobs.jsonl';
export const LOG_FOLDER = 'slurm-logs';

export interface ArrayJobOptions {
  shards: number;
  /** Folder for the shard folders, logs and job records (default: the campaign's output). */
  shardsDir?: string;
  command: readonly string[];
  cpusPerTask?: number;
  partition?: string;
  timeLimit?: string;
  extraArgs?: readonly string[];
}

export interface JobRecord {
  job_id: string;
  shards: number;
  campaign: string;
  campaign_file: string;
  script: string;
  submitted_at: string;
}

export function arrayJobSpec(c: Campaign, o: ArrayJobOptions): ArrayJobSpec {
  const shardsDir = o.shardsDir !== undefined ? path.resolve(o.shardsDir) : c.outputDir;
  if (!shardsDir) throw new InputError(`${c.file}: output: missing (give \`output:\` in the campaign file or --out DIR)`);
  return {
    campaignName: c.name,
    campaignFile: c.file,
    shards: o.shards,
    shardsDir,
    logDir: path.join(shardsDir, LOG_FOLDER),
    command: o.command,
    cpusPerTask: o.cpusPerTask ?? c.workers ?? 1,
    partition: o.partition,
    timeLimit: o.timeLimit,
    extraArgs: o.extraArgs,
  };
}

/**
 * Refuse to submit an N-way array into a folder whose shard folders hold another split: their
 * array tasks would fail one by one (a folder keeps one slice, see shardRun.ts). Resubmitting the
 * same N (to resume) is fine.
 */
function checkNoOtherSplit(c: Campaign, spec: ArrayJobSpec): void {
  let names: string[];
  try {
    names = fs.readdirSync(spec.shardsDir).filter((f) => f.startsWith(SHARD_FOLDER_PREFIX));
  } catch {
    return;
  }
  for (const name of names) {
    const file = path.join(spec.shardsDir, name, LEDGER_FILE);
    if (!fs.existsSync(file)) continue;
    let shard: string | undefined;
    try {
      const db = new Database(file, { readonly: true, fileMustExist: true });
      try {
        shard = db.prepare('SELECT value FROM meta WHERE key = ?').pluck().get(SHARD_META) as string | undefined;
      } finally {
        db.close();
      }
    } catch {
      continue; // not readable: the array task that owns it will say why
    }
    const n = shard ? Number(shard.split('/')[1]) : NaN;
    if (Number.isInteger(n) && n !== spec.shards) {
      throw new InputError(
        `${path.join(spec.shardsDir, name)} holds shard ${shard} of a ${n}-way split of '${c.name}'; ` +
          `submit --array ${n} to resume it, or give --out another folder for a ${spec.shards}-way array`,
      );
    }
  }
}

/** Write the script, submit it, record the job; returns the job id and the script's path. */
export function submitArrayJob(c: Campaign, o: ArrayJobOptions): { jobId: string; scriptFile: string; spec: ArrayJobSpec } {
  const spec = arrayJobSpec(c, o);
  const script = sbatchScript(spec);
  checkNoOtherSplit(c, spec);
  let tmp = '';
  try {
    fs.mkdirSync(spec.logDir, { recursive: true });
    tmp = path.join(spec.shardsDir, `.slurm-submit-${process.pid}.sbatch`);
    fs.writeFileSync(tmp, script, { mode: 0o755 });
  } catch (err) {
    throw new RuntimeFailure(`cannot write the job script in ${spec.shardsDir} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  let jobId: string;
  try {
    jobId = sbatchSubmit(tmp);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw err;
  }
  const scriptFile = path.join(spec.shardsDir, `slurm-${jobId}.sbatch`);
  fs.renameSync(tmp, scriptFile);
  const record: JobRecord = {
    job_id: jobId,
    shards: spec.shards,
    campaign: c.name,
    campaign_file: c.file,
    script: scriptFile,
    submitted_at: new Date().toISOString(),
  };
  fs.appendFileSync(path.join(spec.shardsDir, JOBS_FILE), `${JSON.stringify(record)}\n`);
  return { jobId, scriptFile, spec };
}

/** Submissions recorded in `dir` (oldest first); unreadable lines are skipped. */
export function readJobRecords(dir: string): JobRecord[] {
  let text: string;
  try {
    text = fs.readFileSync(path.join(dir, JOBS_FILE), 'utf8');
  } catch {
    return [];
  }
  const out: JobRecord[] = [];
  for (const line of text.split('\n')) {
    try {
      const r = JSON.parse(line) as JobRecord;
      if (typeof r.job_id === 'string' && Number.isInteger(r.shards)) out.push(r);
    } catch {
      /* a partly written last line */
    }
  }
  return out;
}
