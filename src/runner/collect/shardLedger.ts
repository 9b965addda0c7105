/**
 * A shard folder's ledger, opened read-only for `wflo collect` and `wflo slurm status`: safe
 * while the shard's run is still writing (a WAL reader sees one committed snapshot and never
 * blocks the writer) and never modified. Opening classifies the folder in one line: no ledger, a
 * damaged ledger (not SQLite, corrupt pages, missing tables), another campaign (other name, or
 * other grid hash for a shard of a campaign that changed), or usable.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Campaign } from '../../campaign/campaign.js';
import { LEDGER_FILE, type CommittedResult } from '../ledger.js';
import { addResultRowsView } from '../ledgerSchema.js';
import { floatsOfBlob } from '../resultBlob.js';
import { GRID_HASH_META, SHARD_META } from '../slurm/shardRun.js';

export type ShardProblemKind = 'missing' | 'no_ledger' | 'damaged' | 'other_campaign';

export interface ShardProblem {
  kind: ShardProblemKind;
  dir: string;
  message: string;
}

export interface ShardTaskRow {
  taskId: string;
  specHash: string;
  attempts: number;
  failed: boolean;
  lastError: string;
}

function sqliteReason(err: unknown): string {
  const e = err as { code?: string; message?: string };
  return e.code ? `${e.code}: ${e.message ?? ''}`.trim() : (e.message ?? String(err));
}

export class ShardLedger {
  readonly dir: string;
  readonly #db: Database.Database;
  /** `I/N` when a `--shard` run wrote this ledger, else null. */
  readonly shard: string | null;

  private constructor(dir: string, db: Database.Database, shard: string | null) {
    this.dir = dir;
    this.#db = db;
    this.shard = shard;
  }

  /**
   * Open `dir`'s ledger read-only inside one read transaction (close() ends it) and check it
   * belongs to campaign `c` (grid hash `gridHash`). Never throws: problems come back as values.
   */
  static open(dir: string, c: Campaign, gridHash: string): ShardLedger | ShardProblem {
    if (!fs.existsSync(dir)) return { kind: 'missing', dir, message: 'folder not found' };
    const file = path.join(dir, LEDGER_FILE);
    if (!fs.existsSync(file)) return { kind: 'no_ledger', dir, message: `no ledger (${LEDGER_FILE} not found)` };
    let db: Database.Database;
    try {
      db = new Database(file, { readonly: true, fileMustExist: true });
    } catch (err) {
      return { kind: 'damaged', dir, message: `damaged ledger (${sqliteReason(err)})` };
    }
    const fail = (kind: ShardProblemKind, message: string): ShardProblem => {
      try {
        if (db.inTransaction) db.exec('COMMIT');
      } catch {
        /* closing anyway */
      }
      db.close();
      return { kind, dir, message };
    };
    try {
      db.pragma('busy_timeout = 10000');
      db.exec('BEGIN');
      // Structure check of every page (indexes included) before anything is read from it.
      const check = String(db.pragma('quick_check(1)', { simple: true }));
      if (check !== 'ok') {
        const first =
          check
            .split('\n')
            .map((l) => l.trim())
            .find((l) => l !== '' && !l.startsWith('***')) ?? check.trim();
        return fail('damaged', `damaged ledger (SQLITE_CORRUPT: quick_check: ${first})`);
      }
      const meta = new Map(db.prepare('SELECT key, value FROM meta').raw().all() as [string, string][]);
      db.prepare('SELECT task_id, spec_hash, attempts, failed, last_error FROM tasks LIMIT 1').get();
      db.prepare('SELECT task_id, spec_hash, n_turbines, x, y, x_initial, y_initial, wall_s, attempts FROM results LIMIT 1').get();
      // Read through result_rows: what an older ledger's missing columns mean is decided here, once.
      addResultRowsView(db);
      const name = meta.get('campaign_name');
      if (name === undefined) return fail('damaged', 'damaged ledger (no campaign recorded in it)');
      if (name !== c.name) return fail('other_campaign', `belongs to campaign '${name}', not '${c.name}'`);
      const grid = meta.get(GRID_HASH_META);
      if (grid !== undefined && grid !== gridHash) {
        return fail('other_campaign', `belongs to another version of campaign '${name}' (campaign hash ${grid}, this campaign's is ${gridHash})`);
      }
      return new ShardLedger(dir, db, meta.get(SHARD_META) ?? null);
    } catch (err) {
      return fail('damaged', `damaged ledger (${sqliteReason(err)})`);
    }
  }

  /** The shard's task rows (its slice, and anything earlier runs in this folder added). */
  *tasks(): Generator<ShardTaskRow> {
    const rows = this.#db.prepare("SELECT task_id, spec_hash, attempts, failed, COALESCE(last_error, '') FROM tasks").raw().iterate() as Iterable<
      [string, string, number, number, string]
    >;
    for (const [taskId, specHash, attempts, failed, lastError] of rows) yield { taskId, specHash, attempts, failed: failed === 1, lastError };
  }

  /** (task id, spec hash) of every committed result. */
  *resultHashes(): Generator<[string, string]> {
    yield* this.#db.prepare('SELECT task_id, spec_hash FROM results').raw().iterate() as Iterable<[string, string]>;
  }

  /**
   * Every committed result row as it is (spec hash, layouts, wall time, attempts), in output
   * order; `wanted` (task id, spec hash) picks which rows are decoded at all.
   */
  *results(wanted: (taskId: string, specHash: string) => boolean): Generator<CommittedResult> {
    const rows = this.#db
      .prepare(`SELECT task_id, spec_hash, farm_id, farm_type, seed, n_turbines, aep, aep_initial, x, y, x_initial, y_initial,
      iterations, evaluations, wall_s, attempts, source, turbine_types, cable_to, cable_type FROM result_rows ORDER BY farm_id, farm_type, seed`)
      .raw()
      .iterate() as Iterable<unknown[]>;
    for (const row of rows) {
      const [
        taskId,
        specHash,
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
        source,
        types,
        cableTo,
        cableType,
      ] = row as [
        string,
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
        string | null,
        string | null,
        string | null,
      ];
      if (!wanted(taskId, specHash)) continue;
      yield {
        taskId,
        specHash,
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
        source,
        ...(types !== null ? { turbineTypes: turbineTypesOf(types) } : {}),
        // A network is the gate's to check: it must be the one routed for the layout (one column alone is refused).
        ...(cableTo !== null ? { cableTo: turbineTypesOf(cableTo) } : {}),
        ...(cableType !== null ? { cableType: turbineTypesOf(cableType) } : {}),
      };
    }
  }

  close(): void {
    try {
      if (this.#db.inTransaction) this.#db.exec('COMMIT');
    } catch {
      /* read-only: nothing to keep */
    }
    if (this.#db.open) this.#db.close();
  }
}

/**
 * A shard row's turbine models or cable columns (JSON list of integers, written by the ledger): what is not a list
 * of integers becomes an empty list, which the gate refuses by its length (it is never guessed).
 */
function turbineTypesOf(text: string): Int32Array {
  try {
    const v = JSON.parse(text) as unknown;
    if (Array.isArray(v) && v.every((t) => Number.isInteger(t) && Math.abs(t as number) < 2 ** 31)) return Int32Array.from(v as number[]);
  } catch {
    /* not JSON */
  }
  return new Int32Array(0);
}
