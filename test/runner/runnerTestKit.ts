/**
 * Helpers for the runner's tests: temp folders, campaign files, running the CLI as a child
 * process, finding a coordinator's worker processes, reading the ledger directly.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { stringify } from 'yaml';
import { after, before } from 'node:test';
import { hasRedisServer, RedisServer } from '../helpers/redisServer.js';
import { killAllWorkers, startWorker, type WorkerHandle } from './bullmqKit.js';

export const CLI = fileURLToPath(new URL('./wfloCli.js', import.meta.url));
export const IEA37_DATA = path.resolve(fileURLToPath(new URL('../../../test/data/iea37/', import.meta.url)));

export function tempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `wflo-${prefix}-`));
}

/** A small noop campaign (2 farms × 2 types × `seeds` seeds) as a plain object, ready to tweak. */
export function noopCampaign(output: string, seeds = 5, optimizer: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: 'test-campaign',
    output,
    farms: [
      { id: 0, case: 'iea37-cs1-16' },
      {
        id: 1,
        boundary: {
          polygon: [
            [0, 0],
            [3000, 0],
            [3000, 2000],
            [0, 2000],
          ],
        },
        wind: 'iea37-cs1',
      },
    ],
    farm_types: [
      { id: 0, turbine: 'iea37-3.35mw', n_turbines: 6 },
      { id: 1, turbine: 'iea37-10mw', n_turbines: 4 },
    ],
    seeds: { start: 0, count: seeds },
    optimizer: { method: 'noop', ...optimizer },
    workers: 2,
    timeout_s: 60,
    attempts: 3,
    backoff: { initial_s: 0.05, factor: 2, max_s: 0.2 },
    export: { every_results: 10, every_s: 1 },
  };
}

export function writeCampaign(file: string, campaign: Record<string, unknown> | string): string {
  fs.writeFileSync(file, typeof campaign === 'string' ? campaign : stringify(campaign));
  return file;
}

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export function startWflo(args: string[], options: { cwd?: string; env?: Record<string, string> } = {}): ChildProcess {
  return spawn(process.execPath, [CLI, ...args], {
    cwd: options.cwd,
    // Contract suite (issue 9): under the BullMQ executor every `run` goes through the queue.
    // A small queue window keeps a killed coordinator's work small, as the local pool's prefetch does.
    env: {
      ...process.env,
      ...(contractQueue && args[0] === 'run' ? { WFLO_QUEUE: contractQueue, WFLO_QUEUE_MAX_QUEUED: '8' } : {}),
      ...options.env,
      WFLO_TEST_CLI: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

export function collect(child: ChildProcess): Promise<CliResult> {
  let stdout = '',
    stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (s: string) => {
    stdout += s;
  });
  child.stderr?.setEncoding('utf8').on('data', (s: string) => {
    stderr += s;
  });
  return new Promise((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })));
}

export function runWflo(args: string[], options: { cwd?: string; env?: Record<string, string> } = {}): Promise<CliResult> {
  return collect(startWflo(args, options));
}

/** Direct children of `pid` (Linux /proc). */
export function childPids(pid: number): number[] {
  const out: number[] = [];
  try {
    for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
      const text = fs.readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').trim();
      if (text) out.push(...text.split(/\s+/).map(Number));
    }
  } catch {
    /* process gone */
  }
  return out;
}

export function commandLine(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return '';
  }
}

/** The worker processes of a coordinator (not its exporter). */
export function workerPids(coordinatorPid: number): number[] {
  return childPids(coordinatorPid).filter((p) => commandLine(p).includes('runner/executors/local/worker.js'));
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Wait until `pred` holds, polling every `stepMs`; false on timeout. */
export async function waitFor(pred: () => boolean, timeoutMs: number, stepMs = 20): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (pred()) return true;
    await new Promise((r) => setTimeout(r, stepMs));
  }
  return pred();
}

/** Read-only look at a ledger: done task ids, failed ones, results per task. */
export function ledgerSnapshot(dir: string): { done: string[]; failed: string[]; resultRows: number; integrity: string } {
  const db = new Database(path.join(dir, 'ledger.sqlite'), { readonly: true, fileMustExist: true });
  try {
    const done = db
      .prepare(`SELECT t.task_id FROM tasks t JOIN results r ON r.task_id = t.task_id AND r.spec_hash = t.spec_hash
      WHERE t.in_campaign = 1 ORDER BY t.task_id`)
      .pluck()
      .all() as string[];
    const failed = db.prepare('SELECT task_id FROM tasks WHERE failed = 1 AND in_campaign = 1 ORDER BY task_id').pluck().all() as string[];
    const resultRows = db.prepare('SELECT COUNT(*) FROM results').pluck().get() as number;
    const integrity = db.pragma('integrity_check', { simple: true }) as string;
    return { done, failed, resultRows, integrity };
  } finally {
    db.close();
  }
}

export function auditEvents(dir: string): Record<string, unknown>[] {
  const file = path.join(dir, 'audit.jsonl');
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .flatMap((l) => {
      try {
        return [JSON.parse(l) as Record<string, unknown>];
      } catch {
        return [];
      }
    });
}

// ---- contract suite (issue 9): the same tests for every executor ----

/** Executors the contract tests (chaos, resume, bad input) run under. */
export const EXECUTORS = ['local', 'bullmq'] as const;
export type ExecutorName = (typeof EXECUTORS)[number];

let contractQueue: string | null = null;
let contractWorkers: WorkerHandle[] = [];

/**
 * The processes that run tasks for a coordinator under the current executor: its forked workers
 * (local), or the job processes of the contract's `wflo worker`s (bullmq).
 */
export function executorWorkerPids(coordinatorPid: number): number[] {
  if (!contractQueue) return workerPids(coordinatorPid);
  return contractWorkers.flatMap((w) => childPids(w.pid)).filter((p) => commandLine(p).includes('executors/bullmq/jobChild.js'));
}

/** Why an executor's contract tests cannot run here, or false. */
export function executorUnavailable(executor: ExecutorName): string | false {
  return executor === 'bullmq' && !hasRedisServer() ? 'redis-server is not installed (apt-get install redis-server)' : false;
}

/**
 * before/after hooks for a `describe(executor)` block: for 'bullmq', a redis-server of its own and
 * 2 `wflo worker` processes (2 job processes each), and every `wflo run` of the block gets
 * WFLO_QUEUE; for 'local', nothing.
 */
export function executorHooks(executor: ExecutorName): void {
  if (executor !== 'bullmq') return;
  let redis: RedisServer | null = null;
  before(async () => {
    redis = await RedisServer.start();
    contractWorkers = [0, 1].map(() => startWorker(['--queue', redis!.url, '--concurrency', '2']));
    contractQueue = redis.url;
  });
  after(async () => {
    contractQueue = null;
    contractWorkers = [];
    killAllWorkers();
    await redis?.stop();
  });
}
