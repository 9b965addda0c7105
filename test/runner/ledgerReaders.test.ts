/**
 * The ledger's readers: "done" means one thing in every one of them (status, missing, the
 * export read back by h5py, the dashboard payload, plots, the runner's own states), and a ledger
 * written by the first wflo version (results without source, reported AEP, metrics, worker and
 * turbine models) reads the same as a current one: untouched by read-only readers, migrated once
 * by the first writable open; `wflo collect` reads it as a shard ledger like a current one.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import Database from 'better-sqlite3';
import { stringify } from 'yaml';
import { parseCampaign } from '../../src/campaign/loadCampaign.js';
import { expandTasks } from '../../src/campaign/taskGrid.js';
import { Ledger, LedgerReader } from '../../src/runner/ledger.js';
import { readStatus } from '../../src/runner/campaignStatus.js';
import { listMissing } from '../../src/runner/missingTasks.js';
import { exportLedger } from '../../src/runner/exporter.js';
import { collectShards } from '../../src/runner/collect/collectShards.js';
import type { Campaign } from '../../src/campaign/campaign.js';
import { DashboardPayload } from '../../src/views/dashboardPayload.js';
import { readLedgerResults } from '../../src/views/storedResult.js';
import { InputError } from '../../src/util/errors.js';
import { hasH5py, PYTHON } from '../helpers.js';
import { noopCampaign, tempDir } from './runnerTestKit.js';
import { resultFor } from './ledgerRows.js';

/** The tables as the first wflo version (commit 985d112) created them. */
const FIRST_VERSION_SCHEMA = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE tasks (
  task_id TEXT PRIMARY KEY, farm_id INTEGER NOT NULL, farm_type INTEGER NOT NULL, seed INTEGER NOT NULL,
  spec_hash TEXT NOT NULL, in_campaign INTEGER NOT NULL DEFAULT 1,
  attempts INTEGER NOT NULL DEFAULT 0, attempts_base INTEGER NOT NULL DEFAULT 0, failed INTEGER NOT NULL DEFAULT 0,
  last_error TEXT, updated_at REAL);
CREATE TABLE results (
  task_id TEXT PRIMARY KEY, spec_hash TEXT NOT NULL,
  farm_id INTEGER NOT NULL, farm_type INTEGER NOT NULL, seed INTEGER NOT NULL, n_turbines INTEGER NOT NULL,
  aep REAL, aep_initial REAL, x BLOB NOT NULL, y BLOB NOT NULL, x_initial BLOB NOT NULL, y_initial BLOB NOT NULL,
  iterations INTEGER NOT NULL, evaluations INTEGER NOT NULL, wall_s REAL, attempts INTEGER NOT NULL,
  run_id INTEGER, committed_at REAL NOT NULL);
CREATE INDEX results_order ON results (farm_id, farm_type, seed);
CREATE TABLE farms (farm_id INTEGER PRIMARY KEY, hash TEXT NOT NULL, definition TEXT NOT NULL);
CREATE TABLE farm_types (type_id INTEGER PRIMARY KEY, hash TEXT NOT NULL, definition TEXT NOT NULL);
CREATE TABLE runs (
  run_id INTEGER PRIMARY KEY AUTOINCREMENT, pid INTEGER NOT NULL, host TEXT NOT NULL, started_at REAL NOT NULL,
  heartbeat_at REAL NOT NULL, ended_at REAL, end_state TEXT, workers INTEGER NOT NULL,
  rate_per_min REAL NOT NULL DEFAULT 0, running_json TEXT NOT NULL DEFAULT '[]');
`;
const FIRST_RESULT_COLUMNS =
  'task_id, spec_hash, farm_id, farm_type, seed, n_turbines, aep, aep_initial, x, y, x_initial, y_initial, iterations, evaluations, wall_s, attempts, run_id, committed_at';
const ADDED_COLUMNS = ['source', 'aep_reported', 'metrics', 'worker', 'turbine_types', 'adopted_for', 'cable_to', 'cable_type'];

/**
 * A campaign output whose ledger holds every kind of task: 3 seeds × 2 farms × 2 types committed,
 * then the campaign changed (farm 1 moved its boundary: its results are stale) and shrank to seeds
 * 0 and 1 (seed 2 retired, its farm-0 results still carrying their task's spec hash), and one stale
 * task failed for good. Done: farm 0, seeds 0 and 1.
 */
function mixedLedger(dir: string): { campaign: Campaign; done: string[]; stale: string[]; failed: string; retired: string } {
  const file = path.join(dir, 'c.yaml');
  const c1 = parseCampaign(stringify(noopCampaign(dir, 3)), file);
  const t1 = expandTasks(c1);
  const second = noopCampaign(dir, 2);
  (second.farms as Record<string, unknown>[])[1].boundary = {
    polygon: [
      [0, 0],
      [3500, 0],
      [3500, 2000],
      [0, 2000],
    ],
  };
  const c2 = parseCampaign(stringify(second), file);
  const t2 = expandTasks(c2);
  const ledger = Ledger.open(dir);
  try {
    ledger.syncCampaign(c1, t1);
    ledger.commitResults(
      t1.map((t, i) => resultFor(c1, t, i)),
      1,
    );
    ledger.syncCampaign(c2, t2);
    const staleTasks = t2.filter((t) => t.farmId === 1).map((t) => t.taskId);
    ledger.recordFailure(staleTasks[0], 3, 'boom', true);
    ledger.checkpoint();
    return {
      campaign: c2,
      done: t2
        .filter((t) => t.farmId === 0)
        .map((t) => t.taskId)
        .sort(),
      stale: staleTasks.slice(1).sort(),
      failed: staleTasks[0],
      retired: t1.find((t) => t.farmId === 0 && t.seed === 2)!.taskId,
    };
  } finally {
    ledger.close();
  }
}

/** The ledger of `from` copied into `to` as the first version would hold it (its tables, rollback journal). */
function firstVersionCopy(from: string, to: string): string {
  fs.mkdirSync(to, { recursive: true });
  const file = path.join(to, 'ledger.sqlite');
  const db = new Database(file);
  try {
    db.exec(FIRST_VERSION_SCHEMA);
    db.exec(`ATTACH DATABASE '${path.join(from, 'ledger.sqlite')}' AS cur`);
    db.exec(`INSERT INTO meta SELECT * FROM cur.meta; INSERT INTO tasks SELECT * FROM cur.tasks;
      INSERT INTO results SELECT ${FIRST_RESULT_COLUMNS} FROM cur.results;
      INSERT INTO farms SELECT * FROM cur.farms; INSERT INTO farm_types SELECT * FROM cur.farm_types;`);
    db.exec('DETACH DATABASE cur');
  } finally {
    db.close();
  }
  return file;
}

/** Task ids (sorted), row count and layouts (NaN padding as null) of a layouts.h5, as h5py reads them. */
function h5Rows(file: string): { taskIds: string[]; rows: number; layouts: (number | null)[][][] } {
  const py = spawnSync(
    PYTHON,
    [
      '-c',
      `
import h5py, json, sys
f = h5py.File(sys.argv[1], 'r')
ids = [s.decode() for s in f['task_id'][:]]
print(json.dumps({'taskIds': ids, 'rows': len(ids), 'layouts': [[[None if v != v else float(v) for v in p] for p in row] for row in f['layout'][:]]}))
`,
      file,
    ],
    { encoding: 'utf8' },
  );
  assert.equal(py.status, 0, py.stderr);
  const out = JSON.parse(py.stdout) as { taskIds: string[]; rows: number; layouts: (number | null)[][][] };
  return { ...out, taskIds: [...out.taskIds].sort() };
}

test('done means one thing in every reader: stale, failed and retired tasks are not done in status, missing, export, dashboard or plots', async (t) => {
  const dir = tempDir('ledger-readers');
  const { done, stale, failed, retired } = mixedLedger(dir);

  const status = readStatus(dir);
  assert.deepEqual(
    { total: status.total, done: status.done, stale: status.stale, failed: status.failed, pending: status.pending },
    { total: 8, done: 4, stale: 3, failed: 1, pending: 0 },
  );
  assert.deepEqual(
    status.failures.map((f) => f.taskId),
    [failed],
  );

  const missing = listMissing(dir);
  assert.deepEqual(missing.missing.map((m) => m.taskId).sort(), [...stale, failed].sort());
  assert.deepEqual(
    missing.missing
      .filter((m) => m.state === 'stale')
      .map((m) => m.taskId)
      .sort(),
    stale,
  );

  const reader = LedgerReader.open(dir);
  try {
    assert.deepEqual([...reader.doneTaskIds()].sort(), done);
    assert.deepEqual([...reader.doneRecords()].map((r) => r.taskId).sort(), done);
    const states = reader.taskStates();
    assert.deepEqual(
      [...states]
        .filter(([, s]) => s.done)
        .map(([id]) => id)
        .sort(),
      done,
    );
    assert.equal(states.has(retired), false, 'a retired task is not a task of the campaign');
    assert.deepEqual(Object.fromEntries(reader.statesOf([done[0], stale[0], failed, retired])), { [done[0]]: 'done', [stale[0]]: 'stale', [failed]: 'failed' });
  } finally {
    reader.close();
  }

  // Plots: a done task's layout; a stale or retired one is not there.
  const [shown] = readLedgerResults(dir, [done[0]]);
  assert.equal(shown.taskId, done[0]);
  for (const id of [stale[0], retired]) {
    assert.throws(
      () => readLedgerResults(dir, [id]),
      (e: unknown) => e instanceof InputError && e.message.includes(`no done task '${id}'`),
    );
  }

  // The dashboard payload (what /api/data serves).
  const dashboard = new DashboardPayload(dir);
  try {
    const { view } = JSON.parse((await dashboard.full()).body.toString()) as {
      view: {
        status: { done: number; stale: number };
        cells: { farmId: number; done: number; stale: number; aep: { n: number } | null }[];
        points: { taskId: string }[];
        histogram: { count: number }[];
        layouts: { taskId: string }[];
      };
    };
    assert.equal(view.status.done, 4);
    assert.equal(view.status.stale, 3);
    for (const cell of view.cells) {
      assert.equal(cell.done, cell.farmId === 0 ? 2 : 0);
      assert.equal(cell.aep?.n ?? 0, cell.farmId === 0 ? 2 : 0);
    }
    assert.deepEqual(view.points.map((p) => p.taskId).sort(), done);
    assert.equal(
      view.histogram.reduce((s, b) => s + b.count, 0),
      4,
    );
    for (const l of view.layouts) assert.ok(done.includes(l.taskId), l.taskId);
  } finally {
    dashboard.close();
  }

  const exported = await exportLedger(dir);
  assert.equal(exported.rows, 4);
  if (!hasH5py()) return t.skip('python3-h5py not installed');
  const rows = h5Rows(path.join(dir, 'layouts.h5'));
  assert.equal(rows.rows, 4);
  assert.deepEqual(rows.taskIds, done);
});

test('a ledger of the first version: read-only readers read it as it is and leave it untouched; the first writable open migrates it, once', async (t) => {
  const dir = tempDir('ledger-versions');
  const current = path.join(dir, 'current'),
    older = path.join(dir, 'older');
  fs.mkdirSync(current);
  mixedLedger(current);
  const olderFile = firstVersionCopy(current, older);
  const bytesBefore = fs.readFileSync(olderFile);

  const counts = (s: ReturnType<typeof readStatus>) => ({
    total: s.total,
    done: s.done,
    stale: s.stale,
    failed: s.failed,
    groups: s.groups,
    failures: s.failures,
  });
  assert.deepEqual(counts(readStatus(older)), counts(readStatus(current)));
  assert.deepEqual(listMissing(older).missing, listMissing(current).missing);
  const records = (dirOf: string) => {
    const reader = LedgerReader.open(dirOf);
    try {
      return [...reader.doneRecords()];
    } finally {
      reader.close();
    }
  };
  const currentRecords = records(current);
  assert.equal(currentRecords.length, 4);
  assert.deepEqual(records(older), currentRecords, 'source read as computed; no reported AEP, metrics, worker or turbine models');
  assert.deepEqual(readLedgerResults(older, [currentRecords[0].taskId])[0].x, readLedgerResults(current, [currentRecords[0].taskId])[0].x);
  const dashboard = (dirOf: string) => {
    const d = new DashboardPayload(dirOf);
    return d
      .full()
      .then((p) => JSON.parse(p.body.toString()) as { view: Record<string, unknown> })
      .finally(() => d.close());
  };
  const [oldView, curView] = [(await dashboard(older)).view, (await dashboard(current)).view];
  for (const k of ['cells', 'histogram', 'points', 'failures', 'layouts']) assert.deepEqual(oldView[k], curView[k], k);
  await exportLedger(older, path.join(dir, 'older.h5'));
  await exportLedger(current, path.join(dir, 'current.h5'));
  assert.deepEqual(fs.readFileSync(olderFile), bytesBefore, 'read-only readers changed nothing');
  assert.equal(fs.existsSync(`${olderFile}-wal`), false);

  // The first writable open adds the columns; the next one finds nothing to do.
  const columns = () => {
    const raw = new Database(olderFile, { readonly: true });
    try {
      return {
        names: raw.prepare("SELECT name FROM pragma_table_info('results')").pluck().all() as string[],
        schemaVersion: raw.pragma('schema_version', { simple: true }) as number,
      };
    } finally {
      raw.close();
    }
  };
  assert.deepEqual(
    columns().names.filter((n) => ADDED_COLUMNS.includes(n)),
    [],
  );
  Ledger.open(older).close();
  const migrated = columns();
  assert.deepEqual(
    migrated.names.filter((n) => ADDED_COLUMNS.includes(n)),
    ADDED_COLUMNS,
  );
  const ledger = Ledger.open(older);
  try {
    assert.deepEqual([...ledger.doneRecords()], currentRecords);
  } finally {
    ledger.close();
  }
  assert.equal(columns().schemaVersion, migrated.schemaVersion, 'a second open migrates nothing');

  if (!hasH5py()) return t.skip('python3-h5py not installed');
  const [a, b] = [h5Rows(path.join(dir, 'older.h5')), h5Rows(path.join(dir, 'current.h5'))];
  assert.equal(a.rows, 4);
  assert.deepEqual(a, b);
});

test('wflo collect reads a first-version shard ledger as it reads a current one', async () => {
  const dir = tempDir('ledger-collect-versions');
  const current = path.join(dir, 'current'),
    older = path.join(dir, 'older');
  fs.mkdirSync(current);
  const { campaign, done, failed } = mixedLedger(current);
  const olderFile = firstVersionCopy(current, older);
  const bytesBefore = fs.readFileSync(olderFile);
  const collect = async (from: string, out: string) => {
    const r = await collectShards(campaign, { from: [from], outDir: path.join(dir, out), noExport: true });
    const [folder] = r.folders;
    const reader = LedgerReader.open(path.join(dir, out));
    try {
      return {
        problem: folder.problem,
        counts: [folder.rows, folder.imported, folder.stale, folder.foreign, folder.failed, folder.rejected],
        done: r.done,
        failed: r.failed,
        records: [...reader.doneRecords()].map((rec) => ({ ...rec, source: rec.source?.replace(from, 'FROM') })),
      };
    } finally {
      reader.close();
    }
  };
  const fromOlder = await collect(older, 'collected-older');
  // 12 rows: 4 done, 4 stale (farm 1, one of them failed there), 4 of seed 2, which the campaign no longer has.
  assert.equal(fromOlder.problem, null);
  assert.deepEqual(fromOlder.counts, [12, 4, 4, 4, 1, 0]);
  assert.deepEqual(fromOlder.records.map((r) => r.taskId).sort(), done);
  assert.ok(fromOlder.records.every((r) => r.source === 'shard:FROM'));
  assert.equal(fromOlder.failed, 1, failed);
  assert.deepEqual(fromOlder, await collect(current, 'collected-current'));
  assert.deepEqual(fs.readFileSync(olderFile), bytesBefore, 'a shard ledger is never modified');
});
