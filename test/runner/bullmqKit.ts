/**
 * Helpers for the BullMQ executor's tests: start `wflo worker` processes (each in its own process
 * group, so a test can SIGKILL a worker together with its job processes, and after-hooks can kill
 * whatever is left), and read a ledger's computed rows for comparison with a local run.
 *
 * Also a worker entry: run with WFLO_TEST_WORKER=1 it is `wflo worker` wired like src/cli/main.ts,
 * so these tests do not depend on every other command being buildable. Harmless otherwise
 * (node --test may execute this file).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { Command } from 'commander';
import { runCli } from '../../src/cli/errors.js';
import { registerWorker } from '../../src/cli/worker.js';

if (process.env.WFLO_TEST_WORKER === '1') {
  const program = new Command().name('wflo');
  registerWorker(program);
  await runCli(program, process.argv);
}

const SELF = fileURLToPath(import.meta.url);

export interface WorkerHandle {
  child: ChildProcess;
  pid: number;
  /** stderr so far. */
  log(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const started = new Set<ChildProcess>();

/** Start `wflo worker`; lockMs short so a dead worker's job is re-run quickly. */
export function startWorker(args: string[], env: Record<string, string> = {}, lockMs = 1500): WorkerHandle {
  const child = spawn(process.execPath, [SELF, 'worker', ...args], {
    env: { ...process.env, WFLO_TEST_WORKER: '1', WFLO_QUEUE_LOCK_MS: String(lockMs), ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
  });
  started.add(child);
  let err = '';
  child.stderr!.setEncoding('utf8').on('data', (s: string) => {
    err += s;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (code, signal) => {
      started.delete(child);
      resolve({ code, signal });
    }),
  );
  return { child, pid: child.pid!, log: () => err, exited };
}

/** SIGKILL a worker and its job processes (its process group). */
export async function killWorker(w: WorkerHandle): Promise<void> {
  try {
    process.kill(-w.pid, 'SIGKILL');
  } catch {
    /* gone */
  }
  await w.exited;
}

/** Kill every worker a test started (after-hooks). */
export function killAllWorkers(): void {
  for (const c of started) {
    try {
      process.kill(-c.pid!, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
}

/** What each done task computed (not how the run went: no wall_s, attempts, run ids), by task id. */
export function computedRows(dir: string): Record<string, unknown>[] {
  const db = new Database(path.join(dir, 'ledger.sqlite'), { readonly: true, fileMustExist: true });
  try {
    const rows = db
      .prepare(`SELECT task_id, spec_hash, farm_id, farm_type, seed, n_turbines, aep, aep_initial,
      hex(x) AS x, hex(y) AS y, hex(x_initial) AS xi, hex(y_initial) AS yi, iterations, evaluations FROM results ORDER BY task_id`)
      .all();
    return rows as Record<string, unknown>[];
  } finally {
    db.close();
  }
}

/** Wait until `pred()` holds (async predicate), polling; false on timeout. */
export async function waitUntil(pred: () => boolean | Promise<boolean>, timeoutMs: number, stepMs = 100): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await pred()) return true;
    await new Promise((r) => setTimeout(r, stepMs));
  }
  return pred();
}
