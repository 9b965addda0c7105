/**
 * Helpers for the SLURM and collect tests: the test CLI (wfloSlurmCli.ts) as a child process, a
 * small noop campaign, and a campaign output's result rows read straight from its ledger.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { stringify } from 'yaml';
import { noopCampaign } from '../runner/runnerTestKit.js';

export const SLURM_TEST_CLI = fileURLToPath(new URL('./wfloSlurmCli.js', import.meta.url));

export interface CliResult {
  status: number;
  stdout: string;
  stderr: string;
}

export function wflo(args: string[], env: NodeJS.ProcessEnv = process.env, timeoutMs = 120_000): CliResult {
  const r = spawnSync(process.execPath, [SLURM_TEST_CLI, ...args], { env: { ...env, WFLO_TEST_CLI: '1' }, encoding: 'utf8', timeout: timeoutMs });
  return { status: r.status ?? -1, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
}

export function tempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `wflo-${prefix}-`));
}

/** 2 farms × 2 farm types × `seeds` seeds of the noop optimizer, each task sleeping `sleepMs`. */
export function writeNoopCampaign(file: string, output: string, seeds: number, sleepMs: number, name = 'slurm-test'): string {
  // The runner tests' campaign (same farms and types), one worker per shard, two attempts.
  fs.writeFileSync(
    file,
    stringify({
      ...noopCampaign(output, seeds, { sleep_ms: sleepMs }),
      name,
      workers: 1,
      attempts: 2,
      export: { every_results: 100, every_s: 30 },
    }),
  );
  return file;
}

/** Result rows of an output folder's ledger, by task id, without wall_s / attempts / run / commit time. */
export function ledgerRows(dir: string): Map<string, Record<string, unknown>> {
  const db = new Database(path.join(dir, 'ledger.sqlite'), { readonly: true, fileMustExist: true });
  try {
    const rows = db
      .prepare(`SELECT task_id, spec_hash, farm_id, farm_type, seed, n_turbines, aep, aep_initial, x, y, x_initial, y_initial,
      iterations, evaluations FROM results ORDER BY task_id`)
      .all() as Record<string, unknown>[];
    return new Map(rows.map((r) => [r.task_id as string, r]));
  } finally {
    db.close();
  }
}

/** Task ids with a committed result in an output folder (empty when it has no ledger yet). */
export function doneTaskIds(dir: string): Set<string> {
  const file = path.join(dir, 'ledger.sqlite');
  if (!fs.existsSync(file)) return new Set();
  try {
    const db = new Database(file, { readonly: true, fileMustExist: true });
    try {
      return new Set(db.prepare('SELECT task_id FROM results').pluck().all() as string[]);
    } finally {
      db.close();
    }
  } catch {
    return new Set(); // being created right now
  }
}

/** The task ids a `wflo collect` / `wflo missing` stdout lists (lines `task_id<TAB>state`). */
export function listedTasks(stdout: string): Set<string> {
  return new Set(
    stdout
      .split('\n')
      .map((l) => /^(farm_\d+_type_\d+_seed_\d+)\t/.exec(l)?.[1])
      .filter((x): x is string => !!x),
  );
}
