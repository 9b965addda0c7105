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
 *   farms / farm_types               definitions (JSON) for the HDF5 /farms and /types groups
 *   runs(run_id, pid, heartbeat_at,  one row per `wflo run`: liveness, rate and running tasks
 *        running_json, …)            for `wflo status`
 *
 * Rows get in only through the gate (gate/rowGate.ts): `commitResults` takes `VerifiedRow`s and
 * refuses anything else, so no door into the ledger can skip verification. This file is the
 * writer; every read (the writer's own too) is a LedgerReader method (ledgerReader.ts) over the
 * views that state the rule of "done" once (ledgerSchema.ts). The database handle is private.
 */
import { farmExtras, farmModelDocument, farmTypeExtras } from '../campaign/definitionExtras.js';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { InputError } from '../util/errors.js';
import { LEDGER_FILE, ledgerFailure, openLedgerDatabase } from './ledgerSchema.js';
import { LedgerReader } from './ledgerReader.js';
import { blobOfFloats, textOfInts, textOfTurbineTypes } from './resultBlob.js';
import type { Campaign } from '../campaign/campaign.js';
import type { Task } from '../campaign/taskGrid.js';
import { createHash } from 'node:crypto';
import type { ResultRow } from './resultRow.js';
import type { RunningTask, SyncReport } from './ledgerTypes.js';
import { isVerified, type VerifiedRow } from './gate/rowGate.js';
import { adoptedIdentity } from '../campaign/specHash.js';

export type { CommittedResult } from './resultRow.js';
export type { FailureInfo, GroupCounts, RunInfo, RunningTask, SyncReport, TaskLedgerState, TaskState } from './ledgerTypes.js';
export { damagedLedger, ledgerFailure, LEDGER_FILE } from './ledgerSchema.js';
export { LedgerReader } from './ledgerReader.js';

/** Hash of the grid (task ids, spec hashes, restriction) the last completed sync wrote. */
const SYNCED_GRID_META = 'synced_grid';

/** Definitions stored for the HDF5 groups: typed arrays become plain arrays. */
function plainJson(value: unknown): string {
  return JSON.stringify(value, (_k, v) => (ArrayBuffer.isView(v) ? Array.from(v as unknown as ArrayLike<number>) : v));
}

export class Ledger extends LedgerReader {
  readonly #db: Database.Database;

  private constructor(db: Database.Database, file: string) {
    super(db, file);
    this.#db = db;
  }

  /** Open (and create, and migrate when it is older) the ledger of output folder `dir` for writing. */
  static override open(dir: string): Ledger {
    const file = path.join(dir, LEDGER_FILE);
    return new Ledger(openLedgerDatabase(file, false), file);
  }

  /**
   * `fn` wrapped in one transaction, as better-sqlite3's `transaction` does: the returned function
   * commits what `fn` wrote when it returns and rolls all of it back when it throws; called inside
   * another transaction it is a savepoint of that one. Errors pass through unchanged.
   */
  transaction<T>(fn: () => T): () => T {
    return this.#db.transaction(fn);
  }

  setMeta(key: string, value: string): void {
    try {
      this.#db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(key, value);
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
    const upsert = this.#db.prepare(`
      INSERT INTO tasks (task_id, farm_id, farm_type, seed, spec_hash, in_campaign, updated_at) VALUES (?, ?, ?, ?, ?, 1, ?)
      ON CONFLICT (task_id) DO UPDATE SET in_campaign = 1,
        attempts = CASE WHEN tasks.spec_hash = excluded.spec_hash THEN tasks.attempts ELSE 0 END,
        attempts_base = CASE WHEN tasks.spec_hash = excluded.spec_hash THEN tasks.attempts_base ELSE 0 END,
        failed = CASE WHEN tasks.spec_hash = excluded.spec_hash THEN tasks.failed ELSE 0 END,
        last_error = CASE WHEN tasks.spec_hash = excluded.spec_hash THEN tasks.last_error ELSE NULL END,
        updated_at = CASE WHEN tasks.spec_hash = excluded.spec_hash THEN tasks.updated_at ELSE excluded.updated_at END,
        spec_hash = excluded.spec_hash`);
    const setMeta = this.#db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value');
    const putFarm = this.#db.prepare(
      'INSERT INTO farms (farm_id, hash, definition) VALUES (?, ?, ?) ON CONFLICT (farm_id) DO UPDATE SET hash = excluded.hash, definition = excluded.definition',
    );
    const putType = this.#db.prepare(
      'INSERT INTO farm_types (type_id, hash, definition) VALUES (?, ?, ?) ON CONFLICT (type_id) DO UPDATE SET hash = excluded.hash, definition = excluded.definition',
    );
    let campaignHash: string;
    let committed = false;
    let adoptedKept = 0;
    try {
      this.#db.exec('BEGIN IMMEDIATE');
      if (!unchanged) {
        if (c.only === null) this.#db.prepare('UPDATE tasks SET in_campaign = 0').run();
        let n = 0;
        for (const t of tasks) {
          upsert.run(t.taskId, t.farmId, t.farmType, t.seed, t.specHash, now);
          if (++n % stepTasks === 0) yield;
        }
        adoptedKept = this.carryAdopted(c);
      }
      for (const f of c.farms) {
        putFarm.run(
          f.id,
          f.hash,
          plainJson({ id: f.id, label: f.label, boundary: f.boundary, wind: f.wind, model: farmModelDocument(f.model), hash: f.hash, ...farmExtras(f) }),
        );
      }
      for (const t of c.farmTypes) {
        putType.run(
          t.id,
          t.hash,
          plainJson({
            id: t.id,
            label: t.label,
            turbine: t.turbine,
            n_turbines: t.nTurbines,
            min_spacing_m: t.minSpacingM,
            hash: t.hash,
            ...farmTypeExtras(t),
          }),
        );
      }
      setMeta.run('campaign_name', c.name);
      setMeta.run('campaign_file', c.file);
      setMeta.run('campaign_source', c.sourceText);
      setMeta.run('optimizer', plainJson(c.optimizer));
      campaignHash = unchanged ? (this.getMeta('campaign_hash') ?? this.computeCampaignHash()) : this.computeCampaignHash();
      setMeta.run('campaign_hash', campaignHash);
      setMeta.run(SYNCED_GRID_META, gridHash);
      this.#db.exec('COMMIT');
      committed = true;
    } catch (err) {
      throw ledgerFailure(err, this.path, 'recording the campaign in');
    } finally {
      // An error, or a caller that stopped early (Ctrl-C): nothing of this sync stays.
      if (!committed && this.#db.inTransaction) this.#db.exec('ROLLBACK');
    }
    const totals = this.totals();
    const retired = this.#db.prepare('SELECT COUNT(*) FROM tasks WHERE in_campaign = 0').pluck().get() as number;
    return { ...totals, retired, adoptedKept, campaignHash };
  }

  /**
   * Adopted rows whose task's spec hash changed while what they stand on did not (only the
   * optimizer changed): carried to the new spec hash, so they stay done. Returns how many.
   */
  private carryAdopted(c: Campaign): number {
    const farms = new Map(c.farms.map((f) => [f.id, f]));
    const types = new Map(c.farmTypes.map((t) => [t.id, t]));
    const rows = this.#db
      .prepare(`SELECT r.task_id, r.adopted_for, t.farm_id, t.farm_type, t.seed, t.spec_hash FROM results r JOIN tasks t ON t.task_id = r.task_id
      WHERE t.in_campaign = 1 AND r.spec_hash <> t.spec_hash AND r.adopted_for IS NOT NULL`)
      .raw()
      .all() as [string, string, number, number, number, string][];
    const carry = this.#db.prepare('UPDATE results SET spec_hash = ? WHERE task_id = ?');
    let n = 0;
    for (const [taskId, identity, farmId, farmType, seed, specHash] of rows) {
      const farm = farms.get(farmId),
        type = types.get(farmType);
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
      return this.#db
        .prepare(`UPDATE results SET adopted_for = NULL, spec_hash = 'recompute-adopted:' || spec_hash
        WHERE adopted_for IS NOT NULL AND task_id IN (SELECT task_id FROM tasks WHERE in_campaign = 1)`)
        .run().changes;
    } catch (err) {
      throw ledgerFailure(err, this.path, 'releasing adopted rows in');
    }
  }

  /** Hash of the sorted (task id, spec hash) list of the campaign's tasks: names what layouts.h5 holds. */
  private computeCampaignHash(): string {
    const rows = this.#db.prepare('SELECT task_id, spec_hash FROM tasks WHERE in_campaign = 1 ORDER BY task_id').raw().iterate() as Iterable<[string, string]>;
    const h = createHash('sha256');
    let first = true;
    for (const [id, spec] of rows) {
      h.update(`${first ? '' : '\n'}${id}:${spec}`);
      first = false;
    }
    return h.digest('hex').slice(0, 32);
  }

  /** Clear the failed mark of failed tasks and give them a fresh attempt budget: `--retry-failed`. */
  resetFailed(): number {
    try {
      return this.#db.prepare('UPDATE tasks SET failed = 0, attempts_base = attempts WHERE failed = 1 AND in_campaign = 1').run().changes;
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
      if (!isVerified(r))
        throw new Error(`ledger: row for ${(r as ResultRow | undefined)?.taskId} did not pass the gate (runner/gate/rowGate.ts); nothing committed`);
    }
    const insert = this.#db.prepare(`
      INSERT INTO results (task_id, spec_hash, farm_id, farm_type, seed, n_turbines, aep, aep_initial, x, y, x_initial, y_initial,
        iterations, evaluations, wall_s, attempts, run_id, committed_at, source, aep_reported, metrics, worker, turbine_types, adopted_for, cable_to, cable_type)
      VALUES (@taskId, @specHash, @farmId, @farmType, @seed, @nTurbines, @aep, @aepInitial, @x, @y, @xInitial, @yInitial,
        @iterations, @evaluations, @wallS, @attempts, @runId, @committedAt, @source, @aepReported, @metrics, @worker, @turbineTypes, @adoptedFor, @cableTo, @cableType)
      ON CONFLICT (task_id) DO UPDATE SET spec_hash = excluded.spec_hash, farm_id = excluded.farm_id, farm_type = excluded.farm_type,
        seed = excluded.seed, n_turbines = excluded.n_turbines, aep = excluded.aep, aep_initial = excluded.aep_initial, x = excluded.x,
        y = excluded.y, x_initial = excluded.x_initial, y_initial = excluded.y_initial, iterations = excluded.iterations,
        evaluations = excluded.evaluations, wall_s = excluded.wall_s, attempts = excluded.attempts, run_id = excluded.run_id,
        committed_at = excluded.committed_at, source = excluded.source, aep_reported = excluded.aep_reported,
        metrics = excluded.metrics, worker = excluded.worker, turbine_types = excluded.turbine_types, adopted_for = excluded.adopted_for,
        cable_to = excluded.cable_to, cable_type = excluded.cable_type
      WHERE results.spec_hash <> excluded.spec_hash`);
    const now = Date.now() / 1000;
    const commit = this.#db.transaction(() => {
      const written: string[] = [];
      for (const r of results) {
        const info = insert.run({
          taskId: r.taskId,
          specHash: r.specHash,
          farmId: r.farmId,
          farmType: r.farmType,
          seed: r.seed,
          nTurbines: r.nTurbines,
          aep: r.aep,
          aepInitial: r.aepInitial,
          x: blobOfFloats(r.x),
          y: blobOfFloats(r.y),
          xInitial: blobOfFloats(r.xInitial),
          yInitial: blobOfFloats(r.yInitial),
          iterations: r.iterations,
          evaluations: r.evaluations,
          wallS: r.wallS,
          attempts: r.attempts,
          runId,
          committedAt: now,
          source: r.source || 'computed',
          aepReported: r.aepReported !== undefined && Number.isFinite(r.aepReported) ? r.aepReported : null,
          metrics: r.metrics && Object.keys(r.metrics).length > 0 ? JSON.stringify(r.metrics) : null,
          worker: r.worker ?? null,
          turbineTypes: r.turbineTypes ? textOfTurbineTypes(r.turbineTypes) : null,
          adoptedFor: r.adoptedFor ?? null,
          cableTo: r.cableTo ? textOfInts(r.cableTo) : null,
          cableType: r.cableType ? textOfInts(r.cableType) : null,
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
      this.#db
        .prepare('UPDATE tasks SET attempts = ?, last_error = ?, failed = ?, updated_at = ? WHERE task_id = ?')
        .run(attempts, error.slice(0, 2000), permanent ? 1 : 0, Date.now() / 1000, taskId);
    } catch (err) {
      throw ledgerFailure(err, this.path, 'recording a failure in');
    }
  }

  /**
   * Take back committed results (a queue worker caught returning results that are not the
   * seed's): the rows are deleted and their tasks become pending again. Returns the ids removed.
   */
  retractResults(taskIds: readonly string[]): string[] {
    const del = this.#db.prepare('DELETE FROM results WHERE task_id = ?');
    try {
      return this.#db.transaction(() => taskIds.filter((id) => del.run(id).changes > 0))();
    } catch (err) {
      throw ledgerFailure(err, this.path, 'retracting results in');
    }
  }

  // ---- runs: liveness and progress of the coordinator, for `wflo status` ----

  beginRun(pid: number, host: string, workers: number): number {
    try {
      const now = Date.now() / 1000;
      const info = this.#db.prepare('INSERT INTO runs (pid, host, started_at, heartbeat_at, workers) VALUES (?, ?, ?, ?, ?)').run(pid, host, now, now, workers);
      // Runs that never recorded an end were killed; say so.
      this.#db.prepare("UPDATE runs SET end_state = 'killed', running_json = '[]' WHERE ended_at IS NULL AND run_id <> ?").run(info.lastInsertRowid);
      return Number(info.lastInsertRowid);
    } catch (err) {
      throw ledgerFailure(err, this.path, 'starting a run in');
    }
  }

  heartbeat(runId: number, ratePerMin: number, running: readonly RunningTask[]): void {
    try {
      this.#db
        .prepare('UPDATE runs SET heartbeat_at = ?, rate_per_min = ?, running_json = ? WHERE run_id = ?')
        .run(Date.now() / 1000, ratePerMin, JSON.stringify(running), runId);
    } catch (err) {
      throw ledgerFailure(err, this.path, 'updating the heartbeat in');
    }
  }

  endRun(runId: number, state: string): void {
    try {
      this.#db.prepare("UPDATE runs SET ended_at = ?, end_state = ?, running_json = '[]' WHERE run_id = ?").run(Date.now() / 1000, state, runId);
    } catch {
      /* best effort: a missing end only makes status say the run was killed */
    }
  }

  /** Move WAL content into the main file (end of a run); harmless when a reader holds it back. */
  checkpoint(): void {
    try {
      this.#db.pragma('wal_checkpoint(TRUNCATE)');
    } catch {
      /* a checkpoint is an optimization */
    }
  }
}
