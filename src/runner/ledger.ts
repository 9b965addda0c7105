/**
 * The ledger: an SQLite database (WAL, synchronous=FULL) in the output folder, and the only
 * record of "done". A task is done if and only if `results` holds a row for it whose spec hash
 * equals the task's current spec hash. Results are committed in batches (one transaction, one
 * fsync for many results) and only then acknowledged; committing the same task with the same
 * spec hash again changes nothing.
 *
 * Tables:
 *   meta(key, value)                 campaign name, hash, source text, ledger version
 *   tasks(task_id, …, spec_hash,     the campaign's tasks; in_campaign = 0 for tasks a later
 *         in_campaign, attempts,     full campaign dropped; attempts (failed ones, numbered on
 *         attempts_base, failed,     across runs), failed and last_error refer to the current
 *         last_error)                spec hash; attempts - attempts_base is what counts against
 *                                    the attempt limit (--retry-failed moves the base up)
 *   results(task_id, spec_hash, …,   one row per finished task (layouts as float64 blobs); source
 *           source, aep_reported,    says where it came from: computed, adopted:<file>, recovered:<file>,
 *           metrics, worker,         shard:<folder>; aep_reported and metrics (JSON) what a user's program
 *           adopted_for)             or an adopted file reported; worker the queue worker that computed it;
 *                                    adopted_for what an adopted row stands on (farm, farm type, seed:
 *                                    campaign/specHash.ts adoptedIdentity), NULL for other rows
 *
 * Adopted rows and the spec hash: a sync carries an adopted row to its task's new spec hash when
 * only the optimizer changed (its adopted_for still matches: the optimizer did not produce it), so
 * editing the program or its settings recomputes wflo's rows, not the ones adopted; a change of
 * the farm or farm type makes it stale like any row. `releaseAdopted` (--recompute-adopted)
 * marks them stale on purpose.
 *
 * Rows get in only through the gate (gate/rowGate.ts): `commitResults` takes `VerifiedRow`s and
 * refuses anything else, so no door into the ledger can skip verification.
 *   farms / farm_types               definitions (JSON) for the HDF5 /farms and /types groups
 *   runs(run_id, pid, heartbeat_at,  one row per `wflo run`: liveness, rate and running tasks
 *        running_json, …)            for `wflo status`
 */
import { farmExtras, farmTypeExtras } from '../campaign/definitionExtras.js';
import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { InputError } from '../util/errors.js';
import { ledgerFailure, openLedgerDatabase } from './ledgerSchema.js';
import type { Campaign } from '../campaign/campaign.js';
import type { Task } from '../campaign/taskGrid.js';
import { createHash } from 'node:crypto';
import type { ResultRow } from './resultRow.js';
import { isVerified, type VerifiedRow } from './gate/rowGate.js';
import { adoptedIdentity } from '../campaign/specHash.js';

export type { CommittedResult } from './resultRow.js';
export { damagedLedger, ledgerFailure } from './ledgerSchema.js';

export const LEDGER_FILE = 'ledger.sqlite';
/** Hash of the grid (task ids, spec hashes, restriction) the last completed sync wrote. */
const SYNCED_GRID_META = 'synced_grid';

export interface TaskLedgerState {
  specHash: string;
  /** Spec hash of the committed result, null when there is none. */
  resultHash: string | null;
  /** Failed attempts so far at this spec (attempt numbers continue from here). */
  attempts: number;
  /** Of those, the ones that count against the attempt limit. */
  attemptsCounted: number;
  failed: boolean;
}

export interface SyncReport {
  total: number;
  done: number;
  stale: number;
  failed: number;
  pending: number;
  /** Tasks in the ledger that this (full) campaign no longer has. */
  retired: number;
  /** Adopted rows carried to their task's new spec hash (only the optimizer changed). */
  adoptedKept: number;
  campaignHash: string;
}

export interface GroupCounts {
  farmId: number;
  farmType: number;
  total: number;
  done: number;
  failed: number;
  stale: number;
  pending: number;
}

export interface FailureInfo {
  taskId: string;
  attempts: number;
  error: string;
}

export interface RunInfo {
  runId: number;
  pid: number;
  host: string;
  startedAt: number;
  heartbeatAt: number;
  endedAt: number | null;
  endState: string | null;
  workers: number;
  ratePerMin: number;
  running: RunningTask[];
}

export interface RunningTask {
  taskId: string;
  workerPid: number;
  attempt: number;
  startedAt: number;
}


const toBlob = (a: Float64Array): Buffer => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
function fromBlob(b: Buffer): Float64Array {
  const copy = new Float64Array(b.byteLength / 8);
  new Uint8Array(copy.buffer).set(b);
  return copy;
}

/** Definitions stored for the HDF5 groups: typed arrays become plain arrays. */
function plainJson(value: unknown): string {
  return JSON.stringify(value, (_k, v) => (ArrayBuffer.isView(v) ? Array.from(v as unknown as ArrayLike<number>) : v));
}

export class Ledger {
  readonly db: Database.Database;
  readonly path: string;
  readonly readonly: boolean;

  private constructor(db: Database.Database, file: string, readonly: boolean) {
    this.db = db;
    this.path = file;
    this.readonly = readonly;
  }

  /** Open (and create, unless read-only) the ledger of output folder `dir`. */
  static open(dir: string, options: { readonly?: boolean } = {}): Ledger {
    const file = path.join(dir, LEDGER_FILE);
    const readonly = options.readonly ?? false;
    if (readonly && !fs.existsSync(file)) {
      throw new InputError(`${dir}: no campaign ledger here (${LEDGER_FILE} not found); is this a wflo run output folder?`);
    }
    const db = openLedgerDatabase(file, readonly);
    return new Ledger(db, file, readonly);
  }

  close(): void {
    if (this.db.open) this.db.close();
  }

  getMeta(key: string): string | null {
    const v = this.db.prepare('SELECT value FROM meta WHERE key = ?').pluck().get(key) as string | undefined;
    return v ?? null;
  }

  setMeta(key: string, value: string): void {
    try {
      this.db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(key, value);
    } catch (err) {
      throw ledgerFailure(err, this.path, 'writing to');
    }
  }

  /**
   * Make the ledger's task list match the campaign: new tasks added, changed specs marked (their
   * attempts reset, old results kept until replaced). A full campaign (no `only`) also retires
   * tasks it no longer has; a restricted one leaves the rest of the grid alone.
   */
  syncCampaign(c: Campaign, tasks: Iterable<Task>): SyncReport {
    const steps = this.syncSteps(c, tasks);
    for (let r = steps.next(); ; r = steps.next()) if (r.done) return r.value;
  }

  /**
   * The same as syncCampaign, in steps of a few thousand tasks inside one transaction, so a
   * caller can yield to the event loop between steps (a 10^6-task campaign answers Ctrl-C) and
   * stop early with `return()` (the transaction is rolled back: nothing changes). A ledger last
   * synced with exactly this grid (same task ids, spec hashes and restriction) is not rewritten.
   */
  *syncSteps(c: Campaign, tasks: Iterable<Task>, stepTasks = 20_000): Generator<void, SyncReport, void> {
    const existing = this.getMeta('campaign_name');
    if (existing !== null && existing !== c.name) {
      throw new InputError(`${path.dirname(this.path)} holds campaign '${existing}', not '${c.name}'; use another output folder (--out)`);
    }
    // The grid as it will be written: when the last sync wrote the same one, the task rows stand.
    const grid = createHash('sha256');
    grid.update(c.only === null ? 'full' : 'only');
    let counted = 0;
    for (const t of tasks) {
      grid.update(`\n${t.taskId}:${t.specHash}`);
      if (++counted % stepTasks === 0) yield;
    }
    const gridHash = grid.digest('hex');
    const unchanged = this.getMeta(SYNCED_GRID_META) === gridHash;
    const now = Date.now() / 1000;
    const upsert = this.db.prepare(`
      INSERT INTO tasks (task_id, farm_id, farm_type, seed, spec_hash, in_campaign, updated_at) VALUES (?, ?, ?, ?, ?, 1, ?)
      ON CONFLICT (task_id) DO UPDATE SET in_campaign = 1,
        attempts = CASE WHEN tasks.spec_hash = excluded.spec_hash THEN tasks.attempts ELSE 0 END,
        attempts_base = CASE WHEN tasks.spec_hash = excluded.spec_hash THEN tasks.attempts_base ELSE 0 END,
        failed = CASE WHEN tasks.spec_hash = excluded.spec_hash THEN tasks.failed ELSE 0 END,
        last_error = CASE WHEN tasks.spec_hash = excluded.spec_hash THEN tasks.last_error ELSE NULL END,
        updated_at = CASE WHEN tasks.spec_hash = excluded.spec_hash THEN tasks.updated_at ELSE excluded.updated_at END,
        spec_hash = excluded.spec_hash`);
    const setMeta = this.db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value');
    const putFarm = this.db.prepare('INSERT INTO farms (farm_id, hash, definition) VALUES (?, ?, ?) ON CONFLICT (farm_id) DO UPDATE SET hash = excluded.hash, definition = excluded.definition');
    const putType = this.db.prepare('INSERT INTO farm_types (type_id, hash, definition) VALUES (?, ?, ?) ON CONFLICT (type_id) DO UPDATE SET hash = excluded.hash, definition = excluded.definition');
    let campaignHash: string;
    let committed = false;
    let adoptedKept = 0;
    try {
      this.db.exec('BEGIN IMMEDIATE');
      if (!unchanged) {
        if (c.only === null) this.db.prepare('UPDATE tasks SET in_campaign = 0').run();
        let n = 0;
        for (const t of tasks) {
          upsert.run(t.taskId, t.farmId, t.farmType, t.seed, t.specHash, now);
          if (++n % stepTasks === 0) yield;
        }
        adoptedKept = this.carryAdopted(c);
      }
      for (const f of c.farms) {
        putFarm.run(f.id, f.hash, plainJson({ id: f.id, label: f.label, boundary: f.boundary, wind: f.wind, model: f.model, hash: f.hash, ...farmExtras(f) }));
      }
      for (const t of c.farmTypes) {
        putType.run(t.id, t.hash, plainJson({ id: t.id, label: t.label, turbine: t.turbine, n_turbines: t.nTurbines, min_spacing_m: t.minSpacingM, hash: t.hash, ...farmTypeExtras(t) }));
      }
      setMeta.run('campaign_name', c.name);
      setMeta.run('campaign_file', c.file);
      setMeta.run('campaign_source', c.sourceText);
      setMeta.run('optimizer', plainJson(c.optimizer));
      campaignHash = unchanged ? (this.getMeta('campaign_hash') ?? this.computeCampaignHash()) : this.computeCampaignHash();
      setMeta.run('campaign_hash', campaignHash);
      setMeta.run(SYNCED_GRID_META, gridHash);
      this.db.exec('COMMIT');
      committed = true;
    } catch (err) {
      throw ledgerFailure(err, this.path, 'recording the campaign in');
    } finally {
      // An error, or a caller that stopped early (Ctrl-C): nothing of this sync stays.
      if (!committed && this.db.inTransaction) this.db.exec('ROLLBACK');
    }
    const totals = this.totals();
    const retired = this.db.prepare('SELECT COUNT(*) FROM tasks WHERE in_campaign = 0').pluck().get() as number;
    return { ...totals, retired, adoptedKept, campaignHash };
  }

  /**
   * Adopted rows whose task's spec hash changed while what they stand on did not (only the
   * optimizer changed): carried to the new spec hash, so they stay done. Returns how many.
   */
  private carryAdopted(c: Campaign): number {
    const farms = new Map(c.farms.map((f) => [f.id, f]));
    const types = new Map(c.farmTypes.map((t) => [t.id, t]));
    const rows = this.db.prepare(`SELECT r.task_id, r.adopted_for, t.farm_id, t.farm_type, t.seed, t.spec_hash FROM results r JOIN tasks t ON t.task_id = r.task_id
      WHERE t.in_campaign = 1 AND r.spec_hash <> t.spec_hash AND r.adopted_for IS NOT NULL`).raw().all() as [string, string, number, number, number, string][];
    const carry = this.db.prepare('UPDATE results SET spec_hash = ? WHERE task_id = ?');
    let n = 0;
    for (const [taskId, identity, farmId, farmType, seed, specHash] of rows) {
      const farm = farms.get(farmId), type = types.get(farmType);
      if (farm && type && adoptedIdentity(farm, type, seed) === identity) {
        carry.run(specHash, taskId);
        n++;
      }
    }
    return n;
  }

  /**
   * `--recompute-adopted`: every adopted row of the campaign becomes stale (kept until a computed
   * row replaces it, not exported meanwhile), so the run computes its task. Returns how many.
   */
  releaseAdopted(): number {
    try {
      return this.db.prepare(`UPDATE results SET adopted_for = NULL, spec_hash = 'recompute-adopted:' || spec_hash
        WHERE adopted_for IS NOT NULL AND task_id IN (SELECT task_id FROM tasks WHERE in_campaign = 1)`).run().changes;
    } catch (err) {
      throw ledgerFailure(err, this.path, 'releasing adopted rows in');
    }
  }

  /** Hash of the sorted (task id, spec hash) list of the campaign's tasks: names what layouts.h5 holds. */
  private computeCampaignHash(): string {
    const rows = this.db.prepare('SELECT task_id, spec_hash FROM tasks WHERE in_campaign = 1 ORDER BY task_id').raw().iterate() as Iterable<[string, string]>;
    const h = createHash('sha256');
    let first = true;
    for (const [id, spec] of rows) {
      h.update(`${first ? '' : '\n'}${id}:${spec}`);
      first = false;
    }
    return h.digest('hex').slice(0, 32);
  }

  /** Per-task ledger state of the campaign's tasks (for the scheduler). */
  taskStates(): Map<string, TaskLedgerState> {
    const out = new Map<string, TaskLedgerState>();
    const rows = this.db.prepare(`
      SELECT t.task_id, t.spec_hash, r.spec_hash, t.attempts, t.attempts_base, t.failed
      FROM tasks t LEFT JOIN results r ON r.task_id = t.task_id WHERE t.in_campaign = 1`).raw().iterate() as Iterable<[string, string, string | null, number, number, number]>;
    for (const [id, specHash, resultHash, attempts, base, failed] of rows) {
      out.set(id, { specHash, resultHash, attempts, attemptsCounted: attempts - base, failed: failed === 1 });
    }
    return out;
  }

  /**
   * What a run needs, without an object per task: the campaign's tasks done at their current
   * spec hash, and the attempt counts of those with failed attempts or a failed mark.
   */
  workStates(): { done: Set<string>; attempts: Map<string, { failed: number; counted: number; permanent: boolean }> } {
    const done = new Set(this.db.prepare(`SELECT t.task_id FROM tasks t JOIN results r ON r.task_id = t.task_id AND r.spec_hash = t.spec_hash
      WHERE t.in_campaign = 1`).pluck().all() as string[]);
    const attempts = new Map<string, { failed: number; counted: number; permanent: boolean }>();
    const rows = this.db.prepare('SELECT task_id, attempts, attempts_base, failed FROM tasks WHERE in_campaign = 1 AND (attempts > 0 OR failed = 1)')
      .raw().iterate() as Iterable<[string, number, number, number]>;
    for (const [id, n, base, failed] of rows) attempts.set(id, { failed: n, counted: n - base, permanent: failed === 1 });
    return { done, attempts };
  }

  /** Clear the failed mark of failed tasks and give them a fresh attempt budget: `--retry-failed`. */
  resetFailed(): number {
    try {
      return this.db.prepare('UPDATE tasks SET failed = 0, attempts_base = attempts WHERE failed = 1 AND in_campaign = 1').run().changes;
    } catch (err) {
      throw ledgerFailure(err, this.path, 'resetting failed tasks in');
    }
  }

  /**
   * Commit finished tasks in one transaction. Only rows the gate passed get in (anything else is
   * a bug, refused before anything is written). Returns the task ids actually written: a task
   * already committed with the same spec hash is skipped (a duplicate delivery is a no-op).
   */
  commitResults(results: readonly VerifiedRow[], runId: number): string[] {
    for (const r of results) {
      if (!isVerified(r)) throw new Error(`ledger: row for ${(r as ResultRow | undefined)?.taskId} did not pass the gate (runner/gate/rowGate.ts); nothing committed`);
    }
    const insert = this.db.prepare(`
      INSERT INTO results (task_id, spec_hash, farm_id, farm_type, seed, n_turbines, aep, aep_initial, x, y, x_initial, y_initial,
        iterations, evaluations, wall_s, attempts, run_id, committed_at, source, aep_reported, metrics, worker, turbine_types, adopted_for)
      VALUES (@taskId, @specHash, @farmId, @farmType, @seed, @nTurbines, @aep, @aepInitial, @x, @y, @xInitial, @yInitial,
        @iterations, @evaluations, @wallS, @attempts, @runId, @committedAt, @source, @aepReported, @metrics, @worker, @turbineTypes, @adoptedFor)
      ON CONFLICT (task_id) DO UPDATE SET spec_hash = excluded.spec_hash, farm_id = excluded.farm_id, farm_type = excluded.farm_type,
        seed = excluded.seed, n_turbines = excluded.n_turbines, aep = excluded.aep, aep_initial = excluded.aep_initial, x = excluded.x,
        y = excluded.y, x_initial = excluded.x_initial, y_initial = excluded.y_initial, iterations = excluded.iterations,
        evaluations = excluded.evaluations, wall_s = excluded.wall_s, attempts = excluded.attempts, run_id = excluded.run_id,
        committed_at = excluded.committed_at, source = excluded.source, aep_reported = excluded.aep_reported,
        metrics = excluded.metrics, worker = excluded.worker, turbine_types = excluded.turbine_types, adopted_for = excluded.adopted_for
      WHERE results.spec_hash <> excluded.spec_hash`);
    const now = Date.now() / 1000;
    const commit = this.db.transaction(() => {
      const written: string[] = [];
      for (const r of results) {
        const info = insert.run({
          taskId: r.taskId, specHash: r.specHash, farmId: r.farmId, farmType: r.farmType, seed: r.seed, nTurbines: r.nTurbines,
          aep: r.aep, aepInitial: r.aepInitial, x: toBlob(r.x), y: toBlob(r.y), xInitial: toBlob(r.xInitial), yInitial: toBlob(r.yInitial),
          iterations: r.iterations, evaluations: r.evaluations, wallS: r.wallS, attempts: r.attempts, runId, committedAt: now,
          source: r.source || 'computed',
          aepReported: r.aepReported !== undefined && Number.isFinite(r.aepReported) ? r.aepReported : null,
          metrics: r.metrics && Object.keys(r.metrics).length > 0 ? JSON.stringify(r.metrics) : null,
          worker: r.worker ?? null,
          turbineTypes: r.turbineTypes ? JSON.stringify(Array.from(r.turbineTypes)) : null,
          adoptedFor: r.adoptedFor ?? null,
        });
        if (info.changes > 0) written.push(r.taskId);
      }
      return written;
    });
    try {
      return commit();
    } catch (err) {
      throw ledgerFailure(err, this.path, 'committing results to');
    }
  }

  /** Record a failed attempt; `permanent` marks the task failed (no attempts left). */
  recordFailure(taskId: string, attempts: number, error: string, permanent: boolean): void {
    try {
      this.db.prepare('UPDATE tasks SET attempts = ?, last_error = ?, failed = ?, updated_at = ? WHERE task_id = ?')
        .run(attempts, error.slice(0, 2000), permanent ? 1 : 0, Date.now() / 1000, taskId);
    } catch (err) {
      throw ledgerFailure(err, this.path, 'recording a failure in');
    }
  }

  /** Counts of the campaign's tasks (running is the coordinator's business, see runs). */
  totals(): Omit<GroupCounts, 'farmId' | 'farmType'> {
    const g = this.groupCounts();
    const sum = { total: 0, done: 0, failed: 0, stale: 0, pending: 0 };
    for (const c of g) {
      sum.total += c.total; sum.done += c.done; sum.failed += c.failed; sum.stale += c.stale; sum.pending += c.pending;
    }
    return sum;
  }

  groupCounts(): GroupCounts[] {
    const rows = this.db.prepare(`
      SELECT t.farm_id, t.farm_type, COUNT(*),
        SUM(CASE WHEN r.spec_hash = t.spec_hash THEN 1 ELSE 0 END),
        SUM(CASE WHEN (r.spec_hash IS NULL OR r.spec_hash <> t.spec_hash) AND t.failed = 1 THEN 1 ELSE 0 END),
        SUM(CASE WHEN r.spec_hash IS NOT NULL AND r.spec_hash <> t.spec_hash AND t.failed = 0 THEN 1 ELSE 0 END)
      FROM tasks t LEFT JOIN results r ON r.task_id = t.task_id WHERE t.in_campaign = 1
      GROUP BY t.farm_id, t.farm_type ORDER BY t.farm_id, t.farm_type`).raw().all() as [number, number, number, number, number, number][];
    return rows.map(([farmId, farmType, total, done, failed, stale]) => ({
      farmId, farmType, total, done, failed, stale, pending: total - done - failed - stale,
    }));
  }

  /** Failed tasks with their last error (most recent first). */
  failures(limit = 1000): FailureInfo[] {
    const rows = this.db.prepare(`
      SELECT t.task_id, t.attempts, COALESCE(t.last_error, '') FROM tasks t LEFT JOIN results r ON r.task_id = t.task_id
      WHERE t.in_campaign = 1 AND t.failed = 1 AND (r.spec_hash IS NULL OR r.spec_hash <> t.spec_hash)
      ORDER BY t.updated_at DESC LIMIT ?`).raw().all(limit) as [string, number, string][];
    return rows.map(([taskId, attempts, error]) => ({ taskId, attempts, error }));
  }

  /** The campaign's tasks that are not done, in grid order, with their state. */
  notDone(): { taskId: string; state: 'pending' | 'stale' | 'failed' }[] {
    const rows = this.db.prepare(`
      SELECT t.task_id, t.failed, r.spec_hash IS NOT NULL FROM tasks t LEFT JOIN results r ON r.task_id = t.task_id
      WHERE t.in_campaign = 1 AND (r.spec_hash IS NULL OR r.spec_hash <> t.spec_hash)
      ORDER BY t.farm_id, t.farm_type, t.seed`).raw().all() as [string, number, number][];
    return rows.map(([taskId, failed, hasOld]) => ({ taskId, state: failed ? 'failed' : hasOld ? 'stale' : 'pending' }));
  }

  /** State of the given tasks of the campaign: done, failed, stale or pending. */
  statesOf(taskIds: readonly string[]): Map<string, 'done' | 'failed' | 'stale' | 'pending'> {
    const q = this.db.prepare(`SELECT t.failed, r.spec_hash, t.spec_hash FROM tasks t LEFT JOIN results r ON r.task_id = t.task_id
      WHERE t.task_id = ? AND t.in_campaign = 1`).raw();
    const out = new Map<string, 'done' | 'failed' | 'stale' | 'pending'>();
    for (const id of taskIds) {
      const row = q.get(id) as [number, string | null, string] | undefined;
      if (!row) continue;
      const [failed, resultHash, specHash] = row;
      out.set(id, resultHash === specHash ? 'done' : failed ? 'failed' : resultHash !== null ? 'stale' : 'pending');
    }
    return out;
  }

  /** Done results in output order, as an iterator (one read transaction; bounded memory). */
  *doneRecords(): Generator<ResultRow> {
    const has = this.resultColumns();
    const rows = this.db.prepare(`
      SELECT r.task_id, r.farm_id, r.farm_type, r.seed, r.n_turbines, r.aep, r.aep_initial, r.x, r.y, r.x_initial, r.y_initial,
        r.iterations, r.evaluations, r.wall_s, r.attempts, r.spec_hash, ${has.has('source') ? 'r.source' : "'computed'"},
        ${has.has('aep_reported') ? 'r.aep_reported, r.metrics, r.worker' : 'NULL, NULL, NULL'}, ${has.has('turbine_types') ? 'r.turbine_types' : 'NULL'}
      FROM results r JOIN tasks t ON t.task_id = r.task_id
      WHERE t.in_campaign = 1 AND r.spec_hash = t.spec_hash ORDER BY r.farm_id, r.farm_type, r.seed`).raw().iterate() as Iterable<unknown[]>;
    for (const row of rows) {
      const [taskId, farmId, farmType, seed, nTurbines, aep, aepInitial, x, y, xi, yi, iterations, evaluations, wallS, attempts, specHash, source,
        aepReported, metrics, worker, turbineTypes] = row as [
        string, number, number, number, number, number | null, number | null, Buffer, Buffer, Buffer, Buffer, number, number, number | null, number, string, string,
        number | null, string | null, string | null, string | null];
      yield {
        taskId, farmId, farmType, seed, nTurbines,
        aep: aep ?? NaN, aepInitial: aepInitial ?? NaN,
        x: fromBlob(x), y: fromBlob(y), xInitial: fromBlob(xi), yInitial: fromBlob(yi),
        iterations, evaluations, wallS: wallS ?? NaN, attempts, specHash, source,
        ...(aepReported !== null ? { aepReported } : {}),
        ...(metrics !== null ? { metrics: JSON.parse(metrics) as Record<string, number> } : {}),
        ...(worker !== null ? { worker } : {}),
        ...(turbineTypes !== null ? { turbineTypes: Int32Array.from(JSON.parse(turbineTypes) as number[]) } : {}),
      };
    }
  }

  /** Columns of results (read-only opens of ledgers older than some of them). */
  private resultColumns(): Set<string> {
    return new Set(this.db.prepare("SELECT name FROM pragma_table_info('results')").pluck().all() as string[]);
  }

  /** Names of the metrics any done result carries, sorted (the HDF5 /metrics columns). */
  metricNames(): string[] {
    if (!this.resultColumns().has('metrics')) return [];
    const names = new Set<string>();
    const rows = this.db.prepare(`SELECT DISTINCT r.metrics FROM results r JOIN tasks t ON t.task_id = r.task_id
      WHERE t.in_campaign = 1 AND r.spec_hash = t.spec_hash AND r.metrics IS NOT NULL`).pluck().iterate() as Iterable<string>;
    for (const m of rows) for (const k of Object.keys(JSON.parse(m) as object)) names.add(k);
    return [...names].sort();
  }

  /**
   * Take back committed results (a queue worker caught returning results that are not the
   * seed's): the rows are deleted and their tasks become pending again. Returns the ids removed.
   */
  retractResults(taskIds: readonly string[]): string[] {
    const del = this.db.prepare('DELETE FROM results WHERE task_id = ?');
    try {
      return this.db.transaction(() => taskIds.filter((id) => del.run(id).changes > 0))();
    } catch (err) {
      throw ledgerFailure(err, this.path, 'retracting results in');
    }
  }

  /** The committed result of a task (any spec), for conflict reports: null when there is none. */
  resultOf(taskId: string): { aep: number; aepReported: number | null; x: Float64Array; y: Float64Array; source: string; specHash: string } | null {
    const row = this.db.prepare('SELECT aep, aep_reported, x, y, source, spec_hash FROM results WHERE task_id = ?').raw().get(taskId) as
      [number | null, number | null, Buffer, Buffer, string, string] | undefined;
    if (!row) return null;
    return { aep: row[0] ?? NaN, aepReported: row[1], x: fromBlob(row[2]), y: fromBlob(row[3]), source: row[4], specHash: row[5] };
  }

  /** Task ids of the results committed by `worker` (as the queue worker named itself) in run `runId`. */
  resultsOfWorker(worker: string, runId: number): string[] {
    return this.db.prepare('SELECT task_id FROM results WHERE worker = ? AND run_id = ?').pluck().all(worker, runId) as string[];
  }

  /** The largest n_turbines among done results (the HDF5 layout width). */
  maxTurbinesDone(): number {
    return (this.db.prepare(`SELECT COALESCE(MAX(r.n_turbines), 0) FROM results r JOIN tasks t ON t.task_id = r.task_id
      WHERE t.in_campaign = 1 AND r.spec_hash = t.spec_hash`).pluck().get() as number) ?? 0;
  }

  definitions(): { farms: Record<string, unknown>[]; types: Record<string, unknown>[] } {
    const used = (table: string, key: string, column: string): Record<string, unknown>[] =>
      (this.db.prepare(`SELECT definition FROM ${table} WHERE ${key} IN (SELECT DISTINCT ${column} FROM tasks WHERE in_campaign = 1) ORDER BY ${key}`)
        .pluck().all() as string[]).map((j) => JSON.parse(j) as Record<string, unknown>);
    return { farms: used('farms', 'farm_id', 'farm_id'), types: used('farm_types', 'type_id', 'farm_type') };
  }

  // ---- runs: liveness and progress of the coordinator, for `wflo status` ----

  beginRun(pid: number, host: string, workers: number): number {
    try {
      const now = Date.now() / 1000;
      const info = this.db.prepare('INSERT INTO runs (pid, host, started_at, heartbeat_at, workers) VALUES (?, ?, ?, ?, ?)').run(pid, host, now, now, workers);
      // Runs that never recorded an end were killed; say so.
      this.db.prepare("UPDATE runs SET end_state = 'killed', running_json = '[]' WHERE ended_at IS NULL AND run_id <> ?").run(info.lastInsertRowid);
      return Number(info.lastInsertRowid);
    } catch (err) {
      throw ledgerFailure(err, this.path, 'starting a run in');
    }
  }

  heartbeat(runId: number, ratePerMin: number, running: readonly RunningTask[]): void {
    try {
      this.db.prepare('UPDATE runs SET heartbeat_at = ?, rate_per_min = ?, running_json = ? WHERE run_id = ?')
        .run(Date.now() / 1000, ratePerMin, JSON.stringify(running), runId);
    } catch (err) {
      throw ledgerFailure(err, this.path, 'updating the heartbeat in');
    }
  }

  endRun(runId: number, state: string): void {
    try {
      this.db.prepare("UPDATE runs SET ended_at = ?, end_state = ?, running_json = '[]' WHERE run_id = ?").run(Date.now() / 1000, state, runId);
    } catch {
      /* best effort: a missing end only makes status say the run was killed */
    }
  }

  lastRun(): RunInfo | null {
    const r = this.db.prepare('SELECT run_id, pid, host, started_at, heartbeat_at, ended_at, end_state, workers, rate_per_min, running_json FROM runs ORDER BY run_id DESC LIMIT 1')
      .raw().get() as [number, number, string, number, number, number | null, string | null, number, number, string] | undefined;
    if (!r) return null;
    return {
      runId: r[0], pid: r[1], host: r[2], startedAt: r[3], heartbeatAt: r[4], endedAt: r[5], endState: r[6], workers: r[7],
      ratePerMin: r[8], running: JSON.parse(r[9]) as RunningTask[],
    };
  }

  /** Move WAL content into the main file (end of a run); harmless when a reader holds it back. */
  checkpoint(): void {
    try {
      this.db.pragma('wal_checkpoint(TRUNCATE)');
    } catch {
      /* a checkpoint is an optimization */
    }
  }
}
