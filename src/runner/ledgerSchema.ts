/**
 * The ledger's database: its schema, the rule of "done" (the read views below), how it is opened
 * (WAL, synchronous=FULL, an integrity check before anything is read, migrations of older ledgers,
 * once, when it is opened) and the one-line messages for SQLite failures. The queries are in
 * ledgerReader.ts and ledger.ts; the tables are described in ledger.ts.
 */
import Database from 'better-sqlite3';
import { InputError, RuntimeFailure } from '../util/errors.js';
import { damagedLedger, noteLedgerOpened } from './ledgerDamage.js';
import { refuseSymlinks } from '../io/noSymlink.js';

export const LEDGER_FILE = 'ledger.sqlite';
const LEDGER_VERSION = '1';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS tasks (
  task_id TEXT PRIMARY KEY, farm_id INTEGER NOT NULL, farm_type INTEGER NOT NULL, seed INTEGER NOT NULL,
  spec_hash TEXT NOT NULL, in_campaign INTEGER NOT NULL DEFAULT 1,
  attempts INTEGER NOT NULL DEFAULT 0, attempts_base INTEGER NOT NULL DEFAULT 0, failed INTEGER NOT NULL DEFAULT 0,
  last_error TEXT, updated_at REAL);
CREATE TABLE IF NOT EXISTS results (
  task_id TEXT PRIMARY KEY, spec_hash TEXT NOT NULL,
  farm_id INTEGER NOT NULL, farm_type INTEGER NOT NULL, seed INTEGER NOT NULL, n_turbines INTEGER NOT NULL,
  aep REAL, aep_initial REAL, x BLOB NOT NULL, y BLOB NOT NULL, x_initial BLOB NOT NULL, y_initial BLOB NOT NULL,
  iterations INTEGER NOT NULL, evaluations INTEGER NOT NULL, wall_s REAL, attempts INTEGER NOT NULL,
  run_id INTEGER, committed_at REAL NOT NULL, source TEXT NOT NULL DEFAULT 'computed',
  aep_reported REAL, metrics TEXT, worker TEXT, turbine_types TEXT, adopted_for TEXT,
  cable_to TEXT, cable_type TEXT);
CREATE INDEX IF NOT EXISTS results_order ON results (farm_id, farm_type, seed);
-- Covers "is this task done at its current spec" (status, report, dashboard) without reading the layout blobs.
CREATE INDEX IF NOT EXISTS results_spec ON results (task_id, spec_hash, aep);
CREATE TABLE IF NOT EXISTS farms (farm_id INTEGER PRIMARY KEY, hash TEXT NOT NULL, definition TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS farm_types (type_id INTEGER PRIMARY KEY, hash TEXT NOT NULL, definition TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS runs (
  run_id INTEGER PRIMARY KEY AUTOINCREMENT, pid INTEGER NOT NULL, host TEXT NOT NULL, started_at REAL NOT NULL,
  heartbeat_at REAL NOT NULL, ended_at REAL, end_state TEXT, workers INTEGER NOT NULL,
  rate_per_min REAL NOT NULL DEFAULT 0, running_json TEXT NOT NULL DEFAULT '[]');
`;

/** The columns of `results` the first ledgers had. */
const FIRST_RESULT_COLUMNS = [
  'task_id',
  'spec_hash',
  'farm_id',
  'farm_type',
  'seed',
  'n_turbines',
  'aep',
  'aep_initial',
  'x',
  'y',
  'x_initial',
  'y_initial',
  'iterations',
  'evaluations',
  'wall_s',
  'attempts',
  'run_id',
  'committed_at',
];

/** Columns `results` gained later, in that order: how a migration adds each, and what a row without it means. */
const ADDED_RESULT_COLUMNS: readonly (readonly [name: string, declaration: string, absent: string])[] = [
  // Ledgers written before rows carried their source.
  ['source', "TEXT NOT NULL DEFAULT 'computed'", "'computed'"],
  // … and before they carried what other producers reported and which worker computed them.
  ['aep_reported', 'REAL', 'NULL'],
  ['metrics', 'TEXT', 'NULL'],
  ['worker', 'TEXT', 'NULL'],
  // … and before rows of farms with several turbine models carried each turbine's model.
  ['turbine_types', 'TEXT', 'NULL'],
  // … and before adopted rows carried what they stand on (campaign/specHash.ts adoptedIdentity).
  ['adopted_for', 'TEXT', 'NULL'],
  // … and before rows of farms with economics carried the collection network the gate routed.
  ['cable_to', 'TEXT', 'NULL'],
  ['cable_type', 'TEXT', 'NULL'],
];

/**
 * The ledger's central rule, written here and nowhere else: a task is done if and only if it is
 * in the campaign and `results` holds a row for it carrying the task's current spec hash (t: the
 * task's row of `tasks`, r: its row of `results`). Every reader asks the views it defines.
 */
const DONE = 't.in_campaign = 1 AND r.spec_hash = t.spec_hash';

/**
 * The views every read goes through, made on each connection when it is opened (temporary: they
 * live with the connection, never in the file, so a read-only open of any ledger has them):
 *   result_rows   every results row with every current column (a read-only open of an older
 *                 ledger, which cannot be migrated, reads what a missing column means);
 *   done_results  the result rows of done tasks;
 *   task_states   one row per task of the campaign: its tasks columns, its result's spec hash
 *                 (result_hash, NULL when there is none) and done (0 or 1).
 */
export function addReadViews(db: Database.Database): void {
  addResultRowsView(db);
  db.exec(`
    CREATE TEMP VIEW done_results AS SELECT r.* FROM result_rows r JOIN main.tasks t ON t.task_id = r.task_id WHERE ${DONE};
    CREATE TEMP VIEW task_states AS
      SELECT t.task_id, t.farm_id, t.farm_type, t.seed, t.spec_hash, t.attempts, t.attempts_base, t.failed, t.last_error, t.updated_at,
        r.spec_hash AS result_hash, (${DONE}) IS 1 AS done
      FROM main.tasks t LEFT JOIN main.results r ON r.task_id = t.task_id WHERE t.in_campaign = 1;`);
}

/** The view `result_rows` alone (a shard's ledger, read as it is: collect/shardLedger.ts). */
export function addResultRowsView(db: Database.Database): void {
  const present = resultColumns(db);
  const columns = [...FIRST_RESULT_COLUMNS, ...ADDED_RESULT_COLUMNS.map(([name, , absent]) => (present.has(name) ? name : `${absent} AS ${name}`))];
  db.exec(`CREATE TEMP VIEW result_rows AS SELECT ${columns.join(', ')} FROM main.results`);
}

function resultColumns(db: Database.Database): Set<string> {
  return new Set(db.prepare("SELECT name FROM pragma_table_info('results')").pluck().all() as string[]);
}

/** Add the columns an older ledger's results lack (a writable open, once). */
function migrate(db: Database.Database): void {
  const columns = resultColumns(db);
  for (const [column, declaration] of ADDED_RESULT_COLUMNS) {
    if (!columns.has(column)) db.exec(`ALTER TABLE results ADD COLUMN ${column} ${declaration}`);
  }
}

/** One line for an SQLite failure: disk full, read-only, locked or corrupt. */
export function ledgerFailure(err: unknown, ledgerPath: string, action: string): RuntimeFailure {
  const e = err as { code?: string; message?: string };
  const code = e?.code ?? '';
  if (code === 'SQLITE_FULL' || /ENOSPC|database or disk is full/i.test(e?.message ?? '')) {
    return new RuntimeFailure(`disk full (ENOSPC) while ${action} ${ledgerPath}; the ledger keeps every result committed before this`);
  }
  if (code.startsWith('SQLITE_READONLY') || code.startsWith('SQLITE_CANTOPEN') || code === 'SQLITE_PERM' || code === 'EACCES' || code === 'EROFS') {
    return new RuntimeFailure(`cannot write ${ledgerPath} while ${action} (${code}: ${e?.message ?? ''})`);
  }
  if (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB') return damagedLedger(ledgerPath, e?.message ?? code);
  if (code.startsWith('SQLITE_BUSY')) return new RuntimeFailure(`${ledgerPath} is locked by another process while ${action}`);
  if (code.startsWith('SQLITE_IOERR')) return new RuntimeFailure(`I/O error while ${action} ${ledgerPath} (${code}: ${e?.message ?? ''})`);
  return new RuntimeFailure(`ledger error while ${action} ${ledgerPath}: ${e?.message ?? String(err)}`);
}

export { damagedLedger } from './ledgerDamage.js';

/** The first problem PRAGMA quick_check finds in `db` (a damaged page anywhere), or null. */
export function integrityProblem(db: Database.Database): string | null {
  const check = db.prepare('PRAGMA quick_check').pluck().all() as string[];
  if (check.length === 1 && check[0] === 'ok') return null;
  const first = check.flatMap((l) => l.split('\n')).find((l) => l.trim() && !/^\*\*\* in database/.test(l)) ?? check[0] ?? 'no answer';
  return `integrity check: ${first.trim()}${check.length > 1 ? ` and ${check.length - 1} more` : ''}`;
}

/** SQLite's files of a database `file` (WAL mode: -wal, -shm; rollback: -journal). */
export function ledgerFiles(file: string): string[] {
  return [file, `${file}-wal`, `${file}-shm`, `${file}-journal`];
}

/** Open (and create and migrate, unless read-only) the ledger database at `file`, with its read views; one-line errors. */
export function openLedgerDatabase(file: string, readonly: boolean): Database.Database {
  // SQLite follows a link (and makes its WAL beside the target): none is opened (io/noSymlink.ts).
  refuseSymlinks(ledgerFiles(file));
  noteLedgerOpened(file);
  let db: Database.Database;
  try {
    db = new Database(file, { readonly, fileMustExist: readonly });
    db.pragma('busy_timeout = 10000');
    if (!readonly) {
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = FULL');
      db.exec(SCHEMA);
      migrate(db);
      // A damaged page anywhere (a torn write, a zeroed block) is found now, not halfway through a run.
      const problem = integrityProblem(db);
      if (problem) {
        db.close();
        throw damagedLedger(file, problem);
      }
      const version = db.prepare('SELECT value FROM meta WHERE key = ?').pluck().get('ledger_version') as string | undefined;
      if (version === undefined) db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)').run('ledger_version', LEDGER_VERSION);
      else if (version !== LEDGER_VERSION) throw new InputError(`${file}: ledger version ${version}, this wflo reads version ${LEDGER_VERSION}`);
    } else {
      db.prepare('SELECT 1 FROM tasks LIMIT 1').get();
    }
    addReadViews(db);
  } catch (err) {
    if (err instanceof InputError || err instanceof RuntimeFailure) throw err;
    const code = (err as { code?: string }).code ?? '';
    if (code === 'SQLITE_NOTADB' || code.startsWith('SQLITE_CORRUPT')) throw damagedLedger(file, (err as Error).message);
    if (/no such table/.test((err as Error).message)) throw new InputError(`${file}: not a wflo ledger (no tasks table)`);
    throw ledgerFailure(err, file, 'opening');
  }
  return db;
}
