/**
 * Reading a campaign's ledger: every question status, missing, the exporter, the report, the
 * dashboard, plots and the runner ask of it, answered from the read views (ledgerSchema.ts), so
 * "done" means the same everywhere. `LedgerReader.open` gives a read-only connection (safe beside a
 * running `wflo run`: WAL readers never block the writer) and nothing to write with; the writer
 * (ledger.ts) is a LedgerReader too. The database handle is private to each.
 */
import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { InputError } from '../util/errors.js';
import { integrityProblem, LEDGER_FILE, ledgerFiles, openLedgerDatabase } from './ledgerSchema.js';
import { refuseSymlinks } from '../io/noSymlink.js';
import { floatsOfBlob, intsOfText, turbineTypesOfText } from './resultBlob.js';
import type { ResultRow } from './resultRow.js';
import type {
  CellAep,
  DoneAepSummary,
  DoneLayout,
  FailureInfo,
  GroupCounts,
  RunInfo,
  RunningTask,
  StoredDefinition,
  TaskLedgerState,
  TaskState,
} from './ledgerTypes.js';

export { LEDGER_FILE } from './ledgerSchema.js';
export type * from './ledgerTypes.js';

/** A done task at one end of a metric's range (LedgerReader.metricExtremes). */
export interface MetricExtreme {
  taskId: string;
  value: number;
  aep: number;
  source: string;
}

/** The lowest and highest value of a metric in one (farm, farm type). */
export interface MetricExtremes {
  farmId: number;
  farmType: number;
  low: MetricExtreme;
  high: MetricExtreme;
}

export class LedgerReader {
  readonly #db: Database.Database;
  /** The ledger file. */
  readonly path: string;

  protected constructor(db: Database.Database, file: string) {
    this.#db = db;
    this.path = file;
  }

  /** Open the ledger of output folder `dir` read-only; a folder without one is an InputError. */
  static open(dir: string): LedgerReader {
    const file = path.join(dir, LEDGER_FILE);
    refuseSymlinks(ledgerFiles(file)); // a dangling link is a link, not a missing ledger
    if (!fs.existsSync(file)) {
      throw new InputError(`${dir}: no campaign ledger here (${LEDGER_FILE} not found); is this a wflo run output folder?`);
    }
    return new LedgerReader(openLedgerDatabase(file, true), file);
  }

  close(): void {
    if (this.#db.open) this.#db.close();
  }

  /**
   * Run `read` inside one read transaction: every answer it gets comes from the same committed
   * state, whatever a running campaign commits meanwhile. `read` may be async (the transaction
   * ends when its promise settles).
   */
  snapshot<T>(read: () => T): T {
    this.#db.exec('BEGIN');
    let result: T;
    try {
      result = read();
    } catch (err) {
      this.#endSnapshot();
      throw err;
    }
    if (result instanceof Promise) return result.finally(() => this.#endSnapshot()) as T;
    this.#endSnapshot();
    return result;
  }

  #endSnapshot(): void {
    if (this.#db.open && this.#db.inTransaction) this.#db.exec('COMMIT');
  }

  /** The first problem SQLite's quick check finds in the ledger (a damaged page anywhere), or null. */
  integrityProblem(): string | null {
    return integrityProblem(this.#db);
  }

  /** A number that changes whenever another connection commits to the ledger (the dashboard's change signal). */
  dataVersion(): number {
    return this.#db.pragma('data_version', { simple: true }) as number;
  }

  getMeta(key: string): string | null {
    const v = this.#db.prepare('SELECT value FROM meta WHERE key = ?').pluck().get(key) as string | undefined;
    return v ?? null;
  }

  // ---- the campaign's tasks ----

  /** Per-task ledger state of the campaign's tasks. */
  taskStates(): Map<string, TaskLedgerState> {
    const out = new Map<string, TaskLedgerState>();
    const rows = this.#db.prepare('SELECT task_id, spec_hash, result_hash, done, attempts, attempts_base, failed FROM task_states').raw().iterate() as Iterable<
      [string, string, string | null, number, number, number, number]
    >;
    for (const [id, specHash, resultHash, done, attempts, base, failed] of rows) {
      out.set(id, { specHash, resultHash, done: done === 1, attempts, attemptsCounted: attempts - base, failed: failed === 1 });
    }
    return out;
  }

  /** The campaign's done tasks. */
  doneTaskIds(): Set<string> {
    return new Set(this.#db.prepare('SELECT task_id FROM done_results').pluck().all() as string[]);
  }

  /**
   * What a run needs, without an object per task: the campaign's done tasks, and the attempt
   * counts of those with failed attempts or a failed mark.
   */
  workStates(): { done: Set<string>; attempts: Map<string, { failed: number; counted: number; permanent: boolean }> } {
    const done = this.doneTaskIds();
    const attempts = new Map<string, { failed: number; counted: number; permanent: boolean }>();
    const rows = this.#db
      .prepare('SELECT task_id, attempts, attempts_base, failed FROM tasks WHERE in_campaign = 1 AND (attempts > 0 OR failed = 1)')
      .raw()
      .iterate() as Iterable<[string, number, number, number]>;
    for (const [id, n, base, failed] of rows) attempts.set(id, { failed: n, counted: n - base, permanent: failed === 1 });
    return { done, attempts };
  }

  /** Counts of the campaign's tasks (running is the coordinator's business, see runs). */
  totals(): Omit<GroupCounts, 'farmId' | 'farmType'> {
    const sum = { total: 0, done: 0, failed: 0, stale: 0, pending: 0 };
    for (const c of this.groupCounts()) {
      sum.total += c.total;
      sum.done += c.done;
      sum.failed += c.failed;
      sum.stale += c.stale;
      sum.pending += c.pending;
    }
    return sum;
  }

  /** Counts per farm × farm type; a failed or stale task is one that is not done. */
  groupCounts(): GroupCounts[] {
    const rows = this.#db
      .prepare(`
      SELECT farm_id, farm_type, COUNT(*), SUM(done), SUM(NOT done AND failed = 1), SUM(NOT done AND result_hash IS NOT NULL AND failed = 0)
      FROM task_states GROUP BY farm_id, farm_type ORDER BY farm_id, farm_type`)
      .raw()
      .all() as [number, number, number, number, number, number][];
    return rows.map(([farmId, farmType, total, done, failed, stale]) => ({
      farmId,
      farmType,
      total,
      done,
      failed,
      stale,
      pending: total - done - failed - stale,
    }));
  }

  /** Failed tasks with their last error (most recent first). */
  failures(limit = 1000): FailureInfo[] {
    const rows = this.#db
      .prepare(`SELECT task_id, attempts, COALESCE(last_error, '') FROM task_states WHERE failed = 1 AND NOT done
      ORDER BY updated_at DESC LIMIT ?`)
      .raw()
      .all(limit) as [string, number, string][];
    return rows.map(([taskId, attempts, error]) => ({ taskId, attempts, error }));
  }

  /** The campaign's tasks that are not done, in grid order, with their state. */
  notDone(): { taskId: string; state: Exclude<TaskState, 'done'> }[] {
    const rows = this.#db
      .prepare(`SELECT task_id, failed, result_hash IS NOT NULL FROM task_states WHERE NOT done
      ORDER BY farm_id, farm_type, seed`)
      .raw()
      .all() as [string, number, number][];
    return rows.map(([taskId, failed, hasOld]) => ({ taskId, state: failed ? 'failed' : hasOld ? 'stale' : 'pending' }));
  }

  /** State of the given tasks of the campaign (tasks it does not have are left out). */
  statesOf(taskIds: readonly string[]): Map<string, TaskState> {
    const q = this.#db.prepare('SELECT done, failed, result_hash IS NOT NULL FROM task_states WHERE task_id = ?').raw();
    const out = new Map<string, TaskState>();
    for (const id of taskIds) {
      const row = q.get(id) as [number, number, number] | undefined;
      if (!row) continue;
      const [done, failed, hasOld] = row;
      out.set(id, done ? 'done' : failed ? 'failed' : hasOld ? 'stale' : 'pending');
    }
    return out;
  }

  // ---- done results ----

  /** Done results in output order, as an iterator (bounded memory; inside a snapshot for one consistent export). */
  *doneRecords(): Generator<ResultRow> {
    const rows = this.#db
      .prepare(`
      SELECT task_id, farm_id, farm_type, seed, n_turbines, aep, aep_initial, x, y, x_initial, y_initial,
        iterations, evaluations, wall_s, attempts, spec_hash, source, aep_reported, metrics, worker, turbine_types, cable_to, cable_type
      FROM done_results ORDER BY farm_id, farm_type, seed`)
      .raw()
      .iterate() as Iterable<unknown[]>;
    for (const row of rows) {
      const [
        taskId,
        farmId,
        farmType,
        seed,
        nTurbines,
        aep,
        aepInitial,
        x,
        y,
        xi,
        yi,
        iterations,
        evaluations,
        wallS,
        attempts,
        specHash,
        source,
        aepReported,
        metrics,
        worker,
        turbineTypes,
        cableTo,
        cableType,
      ] = row as [
        string,
        number,
        number,
        number,
        number,
        number | null,
        number | null,
        Buffer,
        Buffer,
        Buffer,
        Buffer,
        number,
        number,
        number | null,
        number,
        string,
        string,
        number | null,
        string | null,
        string | null,
        string | null,
        string | null,
        string | null,
      ];
      yield {
        taskId,
        farmId,
        farmType,
        seed,
        nTurbines,
        aep: aep ?? NaN,
        aepInitial: aepInitial ?? NaN,
        x: floatsOfBlob(x),
        y: floatsOfBlob(y),
        xInitial: floatsOfBlob(xi),
        yInitial: floatsOfBlob(yi),
        iterations,
        evaluations,
        wallS: wallS ?? NaN,
        attempts,
        specHash,
        source,
        ...(aepReported !== null ? { aepReported } : {}),
        ...(metrics !== null ? { metrics: JSON.parse(metrics) as Record<string, number> } : {}),
        ...(worker !== null ? { worker } : {}),
        ...(turbineTypes !== null ? { turbineTypes: turbineTypesOfText(turbineTypes) } : {}),
        ...(cableTo !== null && cableType !== null ? { cableTo: intsOfText(cableTo), cableType: intsOfText(cableType) } : {}),
      };
    }
  }

  /** The first `limit` done task ids in output order (examples in messages; the sole result of a folder). */
  firstDoneTaskIds(limit: number): string[] {
    return this.#db.prepare('SELECT task_id FROM done_results ORDER BY farm_id, farm_type, seed LIMIT ?').pluck().all(limit) as string[];
  }

  /** The done task ids of one farm × type cell with their AEPs, by seed, at most `limit` (the report's per-layout figures). */
  doneAepsOfCell(farmId: number, farmType: number, limit: number): { taskId: string; aep: number }[] {
    return (
      this.#db
        .prepare('SELECT task_id, aep FROM done_results WHERE farm_id = ? AND farm_type = ? AND aep IS NOT NULL ORDER BY seed LIMIT ?')
        .raw()
        .all(farmId, farmType, limit) as [string, number][]
    ).map(([taskId, aep]) => ({ taskId, aep }));
  }

  /** A done task's layout with its stored farm and farm type definitions, its network and metrics; null when the task is not done. */
  doneLayout(taskId: string): DoneLayout | null {
    const r = this.#db
      .prepare(`SELECT d.task_id, d.farm_id, d.farm_type, d.seed, d.aep, d.x, d.y, d.turbine_types, f.definition, ft.definition, d.cable_to, d.cable_type, d.metrics
      FROM done_results d LEFT JOIN farms f ON f.farm_id = d.farm_id LEFT JOIN farm_types ft ON ft.type_id = d.farm_type
      WHERE d.task_id = ?`)
      .raw()
      .get(taskId) as
      | [
          string,
          number,
          number,
          number,
          number | null,
          Buffer,
          Buffer,
          string | null,
          string | null,
          string | null,
          string | null,
          string | null,
          string | null,
        ]
      | undefined;
    if (!r) return null;
    let metrics: Record<string, number> | undefined;
    try {
      metrics = r[12] !== null ? (JSON.parse(r[12]) as Record<string, number>) : undefined;
    } catch {
      metrics = undefined;
    }
    return {
      taskId: r[0],
      farmId: r[1],
      farmType: r[2],
      seed: r[3],
      aep: r[4] ?? NaN,
      x: floatsOfBlob(r[5]),
      y: floatsOfBlob(r[6]),
      ...(r[7] ? { turbineTypes: turbineTypesOfText(r[7]) } : {}),
      farm: r[8] ? (JSON.parse(r[8]) as unknown) : undefined,
      type: r[9] ? (JSON.parse(r[9]) as unknown) : undefined,
      ...(r[10] !== null ? { cableTo: intsOfText(r[10]) } : {}),
      ...(r[10] !== null && r[11] !== null ? { cableType: intsOfText(r[11]) } : {}),
      ...(metrics ? { metrics } : {}),
    };
  }

  /**
   * Per (farm, farm type): the done task with the smallest and the largest value of metric `name`
   * (ties: the first task id), with its AEP and source: the report's best and worst by a cost
   * objective (LCOE lowest, NPV highest).
   */
  metricExtremes(name: string): MetricExtremes[] {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) return [];
    // SQLite takes the bare columns of a MIN()/MAX() aggregate from the row that holds the extreme.
    const q = (agg: 'MIN' | 'MAX') =>
      this.#db
        .prepare(`SELECT farm_id, farm_type, task_id, ${agg}(v), aep, source FROM (
      SELECT farm_id, farm_type, task_id, json_extract(metrics, ?) AS v, aep, source FROM done_results WHERE metrics IS NOT NULL AND json_valid(metrics) AND aep IS NOT NULL
    ) WHERE typeof(v) IN ('real', 'integer') GROUP BY farm_id, farm_type ORDER BY farm_id, farm_type`)
        .raw()
        .all(`$.${name}`) as [number, number, string, number, number, string][];
    const pick = (r: [number, number, string, number, number, string]) => ({ taskId: r[2], value: r[3], aep: r[4], source: r[5] });
    const highs = q('MAX');
    return q('MIN').map((r, k) => ({ farmId: r[0], farmType: r[1], low: pick(r), high: pick(highs[k]) }));
  }

  /** Names of the metrics any done result carries, sorted (the HDF5 /metrics columns). */
  metricNames(): string[] {
    const names = new Set<string>();
    const rows = this.#db.prepare('SELECT DISTINCT metrics FROM done_results WHERE metrics IS NOT NULL').pluck().iterate() as Iterable<string>;
    for (const m of rows) for (const k of Object.keys(JSON.parse(m) as object)) names.add(k);
    return [...names].sort();
  }

  /**
   * Per (farm, farm type): mean, smallest and largest of each named metric over the done results
   * that carry it (the gate's economics: lcoe_per_mwh, npv, cable_length_m, …), for the report.
   */
  metricStats(names: readonly string[]): { farmId: number; farmType: number; name: string; n: number; mean: number; min: number; max: number }[] {
    const out: { farmId: number; farmType: number; name: string; n: number; mean: number; min: number; max: number }[] = [];
    const q = this.#db
      .prepare(`SELECT farm_id, farm_type, count(v), avg(v), min(v), max(v) FROM (
      SELECT farm_id, farm_type, json_extract(metrics, ?) AS v FROM done_results WHERE metrics IS NOT NULL AND json_valid(metrics)
    ) WHERE typeof(v) IN ('real', 'integer') GROUP BY farm_id, farm_type ORDER BY farm_id, farm_type`)
      .raw();
    for (const name of names) {
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) continue;
      for (const r of q.all(`$.${name}`) as [number, number, number, number, number, number][]) {
        out.push({ farmId: r[0], farmType: r[1], name, n: r[2], mean: r[3], min: r[4], max: r[5] });
      }
    }
    return out;
  }

  /** The largest n_turbines among done results (the HDF5 layout width). */
  maxTurbinesDone(): number {
    return (this.#db.prepare('SELECT COALESCE(MAX(n_turbines), 0) FROM done_results').pluck().get() as number) ?? 0;
  }

  /**
   * AEP statistics of the done results per farm × type (done results without an AEP left out),
   * from one scan of the results into a small indexed temporary table: count, mean, quartiles by
   * the lower nearest rank, best and worst task; every AEP when no cell has more than
   * `pointsUpTo`; and a histogram of `binsFor(largest cell)` bins per cell.
   */
  doneAepSummary(pointsUpTo: number, binsFor: (maxN: number) => number, notedUpTo = 200): DoneAepSummary {
    const db = this.#db;
    // The results' rows hold the layout blobs, so scans are what costs: one, into wflo_done.
    db.exec(`DROP TABLE IF EXISTS temp.wflo_done;
      CREATE TEMP TABLE wflo_done AS SELECT farm_id AS f, farm_type AS ty, task_id AS id, aep, source AS src, aep_reported AS rep
        FROM done_results WHERE aep IS NOT NULL;
      CREATE INDEX temp.wflo_done_cell ON wflo_done (f, ty, aep);`);
    try {
      const ADOPTED = "src LIKE 'adopted:%'",
        RECOVERED = "src LIKE 'recovered:%'";
      const cells: CellAep[] = [];
      const atRank = db.prepare('SELECT id, aep, src FROM wflo_done WHERE f = ? AND ty = ? ORDER BY aep LIMIT 1 OFFSET ?').raw();
      const perCell = db
        .prepare(`SELECT f, ty, COUNT(*), AVG(aep), SUM(${ADOPTED}), SUM(${RECOVERED}) FROM wflo_done GROUP BY f, ty`)
        .raw()
        .all() as number[][];
      for (const [farmId, farmType, n, mean, adopted, recovered] of perCell) {
        // Read off the (f, ty, aep) index.
        const rank = (p: number) => atRank.get(farmId, farmType, Math.floor((n - 1) * p)) as [string, number, string];
        const lowest = rank(0),
          highest = rank(1);
        cells.push({
          farmId,
          farmType,
          n,
          mean,
          min: lowest[1],
          q1: rank(0.25)[1],
          median: rank(0.5)[1],
          q3: rank(0.75)[1],
          max: highest[1],
          worst: { taskId: lowest[0], aep: lowest[1], source: lowest[2] },
          best: { taskId: highest[0], aep: highest[1], source: highest[2] },
          adopted,
          recovered,
        });
      }
      const maxN = cells.reduce((m, c) => Math.max(m, c.n), 0);
      const points =
        maxN > pointsUpTo
          ? []
          : (db.prepare('SELECT f, ty, id, aep, src FROM wflo_done ORDER BY f, ty, aep').raw().all() as [number, number, string, number, string][]).map(
              ([farmId, farmType, taskId, aep, source]) => ({ farmId, farmType, taskId, aep, source }),
            );
      const bins = binsFor(maxN);
      const histogram = (
        db
          .prepare(`WITH s AS (SELECT f, ty, MIN(aep) AS lo, MAX(aep) AS hi FROM wflo_done GROUP BY f, ty)
        SELECT d.f, d.ty, COALESCE(MIN(CAST((d.aep - s.lo) / NULLIF(s.hi - s.lo, 0) * ${bins} AS INTEGER), ${bins - 1}), 0) AS bin, COUNT(*)
        FROM wflo_done d JOIN s ON s.f = d.f AND s.ty = d.ty GROUP BY d.f, d.ty, bin`)
          .raw()
          .all() as number[][]
      ).map(([farmId, farmType, bin, count]) => ({ farmId, farmType, bin, count }));
      const NOTED = `${ADOPTED} OR ${RECOVERED} OR rep IS NOT NULL`;
      const noted = {
        total: db.prepare(`SELECT COUNT(*) FROM wflo_done WHERE ${NOTED}`).pluck().get() as number,
        rows: (
          db
            .prepare(`SELECT id, src, aep, rep FROM wflo_done WHERE ${NOTED} ORDER BY ABS(aep - COALESCE(rep, aep)) DESC, f, ty, id LIMIT ?`)
            .raw()
            .all(notedUpTo) as [string, string, number, number | null][]
        ).map(([taskId, source, aep, aepReported]) => ({ taskId, source, aep, aepReported })),
      };
      return { cells, points, bins, histogram, noted };
    } finally {
      db.exec('DROP TABLE IF EXISTS temp.wflo_done');
    }
  }

  // ---- any result, whatever its spec ----

  /** The committed result of a task (any spec), for conflict reports: null when there is none. */
  resultOf(taskId: string): { aep: number; aepReported: number | null; x: Float64Array; y: Float64Array; source: string; specHash: string } | null {
    const row = this.#db.prepare('SELECT aep, aep_reported, x, y, source, spec_hash FROM result_rows WHERE task_id = ?').raw().get(taskId) as
      | [number | null, number | null, Buffer, Buffer, string, string]
      | undefined;
    if (!row) return null;
    return { aep: row[0] ?? NaN, aepReported: row[1], x: floatsOfBlob(row[2]), y: floatsOfBlob(row[3]), source: row[4], specHash: row[5] };
  }

  /** Task ids of the results committed by `worker` (as the queue worker named itself) in run `runId`. */
  resultsOfWorker(worker: string, runId: number): string[] {
    return this.#db.prepare('SELECT task_id FROM result_rows WHERE worker = ? AND run_id = ?').pluck().all(worker, runId) as string[];
  }

  // ---- definitions and runs ----

  /** Definitions of the farms and farm types the campaign's tasks use, by id (the HDF5 /farms and /types groups). */
  definitions(): { farms: Record<string, unknown>[]; types: Record<string, unknown>[] } {
    const used = (table: string, key: string, column: string): Record<string, unknown>[] =>
      (
        this.#db
          .prepare(`SELECT definition FROM ${table} WHERE ${key} IN (SELECT DISTINCT ${column} FROM tasks WHERE in_campaign = 1) ORDER BY ${key}`)
          .pluck()
          .all() as string[]
      ).map((j) => JSON.parse(j) as Record<string, unknown>);
    return { farms: used('farms', 'farm_id', 'farm_id'), types: used('farm_types', 'type_id', 'farm_type') };
  }

  /** Every stored farm and farm type definition with its hash, by id. */
  storedDefinitions(): { farms: Map<number, StoredDefinition>; types: Map<number, StoredDefinition> } {
    const all = (sql: string) =>
      new Map((this.#db.prepare(sql).raw().all() as [number, string, string][]).map(([id, d, hash]) => [id, { definition: JSON.parse(d) as unknown, hash }]));
    return { farms: all('SELECT farm_id, definition, hash FROM farms'), types: all('SELECT type_id, definition, hash FROM farm_types') };
  }

  /** The latest `wflo run` (or collect) of this ledger, null before the first. */
  lastRun(): RunInfo | null {
    const r = this.#db
      .prepare(
        'SELECT run_id, pid, host, started_at, heartbeat_at, ended_at, end_state, workers, rate_per_min, running_json FROM runs ORDER BY run_id DESC LIMIT 1',
      )
      .raw()
      .get() as [number, number, string, number, number, number | null, string | null, number, number, string] | undefined;
    if (!r) return null;
    return {
      runId: r[0],
      pid: r[1],
      host: r[2],
      startedAt: r[3],
      heartbeatAt: r[4],
      endedAt: r[5],
      endState: r[6],
      workers: r[7],
      ratePerMin: r[8],
      running: JSON.parse(r[9]) as RunningTask[],
    };
  }
}
