/**
 * The file doors of the gate: rows that come from files anyone could have edited.
 *   - `wflo collect` of shard ledgers edited with SQL (AEP ×10, a layout moved 100 km, AEP NaN,
 *     AEP −5, and a conflicting duplicate in a second shard folder);
 *   - recovery after a lost ledger from a layouts.h5 edited with h5py, from an audit.jsonl edited
 *     by hand, and from an audit.jsonl rewritten by Python's json.dumps (other spacing: recovered,
 *     not recomputed).
 * In every case: no wrong row in the ledger or layouts.h5, one line per rejection (task, source,
 * reason), the task computed (or, for collect, listed as not done), and the final rows equal an
 * honest run's. The honest run and the two shards of the same campaign are computed once, before
 * the tests; each test edits its own copy of their folders.
 */
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { hasH5py } from '../helpers.js';
import { auditEvents, tempDir, writeCampaign } from '../runner/runnerTestKit.js';
import { computedRows } from '../runner/bullmqKit.js';
import { layoutsRows, python, wflo } from './gateKit.js';

const noH5py = hasH5py() ? false : 'python3-h5py is not installed';

function campaign(out: string, seeds = 8): Record<string, unknown> {
  return {
    name: 'file-doors',
    output: out,
    farms: [{ id: 0, case: 'iea37-cs1-16' }],
    farm_types: [{ id: 0, turbine: 'iea37-3.35mw', n_turbines: 5 }],
    seeds: { start: 0, count: seeds },
    optimizer: { method: 'gradient', max_iterations: 10 },
    workers: 2,
    timeout_s: 60,
    attempts: 2,
    backoff: { initial_s: 0.05, factor: 2, max_s: 0.2 },
    export: { every_results: 1000, every_s: 600 },
  };
}

/** The honest run (8 seeds) and the campaign's two shards, computed once for every test of this file. */
let shared: { dir: string; honest: string; rows: Record<string, unknown>[]; shards: string } | null = null;

before(async () => {
  const dir = tempDir('gate-doors');
  const honest = path.join(dir, 'honest');
  const r = await wflo(['run', writeCampaign(path.join(dir, 'honest.yaml'), campaign(honest)), '--quiet']);
  assert.equal(r.code, 0, r.stderr);
  const shards = path.join(dir, 'final');
  const file = writeCampaign(path.join(dir, 'c.yaml'), campaign(shards));
  for (const shard of ['0/2', '1/2']) {
    const s = await wflo(['run', file, '--shard', shard, '--quiet']);
    assert.equal(s.code, 0, s.stderr);
  }
  shared = { dir, honest, rows: computedRows(honest), shards };
});

after(() => {
  if (shared) fs.rmSync(shared.dir, { recursive: true, force: true });
});

/** A copy of the honest run's output folder in `dir` (dir/honest, campaign file dir/honest.yaml), its rows as the run committed them. */
function honestRun(dir: string): { out: string; rows: Record<string, unknown>[] } {
  assert.ok(shared, 'the honest run of before()');
  const out = path.join(dir, 'honest');
  fs.cpSync(shared.honest, out, { recursive: true });
  writeCampaign(path.join(dir, 'honest.yaml'), campaign(out));
  return { out, rows: shared.rows };
}

/** The campaign dir/c.yaml, output dir/final, with copies of the two shard folders `wflo run --shard 0/2` and `1/2` wrote. */
function shardRuns(dir: string): string {
  assert.ok(shared, 'the shard runs of before()');
  for (const i of [0, 1]) fs.cpSync(path.join(shared.shards, `shard-${i}`), path.join(dir, 'final', `shard-${i}`), { recursive: true });
  return writeCampaign(path.join(dir, 'c.yaml'), campaign(path.join(dir, 'final')));
}

/** Edit one result row of a ledger the way `sqlite3 ledger.sqlite "UPDATE …"` would. */
function editLedger(dir: string, sql: string, ...params: unknown[]): void {
  const db = new Database(path.join(dir, 'ledger.sqlite'));
  try {
    assert.equal(db.prepare(sql).run(...params).changes, 1, sql);
  } finally {
    db.close();
  }
}

function moved(blob: Buffer, dx: number): Buffer {
  const xs = new Float64Array(new Uint8Array(blob).buffer.slice(0));
  xs[0] += dx;
  return Buffer.from(xs.buffer);
}

function rejectionLines(stderr: string, prefix: RegExp): string[] {
  return stderr.split('\n').filter((l) => prefix.test(l));
}

test('collect door: edited shard ledgers (AEP x10, moved 100 km, NaN, negative) are rejected one line each; a conflicting duplicate is reported with both AEPs', {
  timeout: 180_000,
}, async () => {
  const dir = tempDir('gate-collect');
  const honest = honestRun(dir);
  const file = shardRuns(dir);
  const shard0 = path.join(dir, 'final', 'shard-0');
  const shard1 = path.join(dir, 'final', 'shard-1');
  assert.ok(fs.existsSync(path.join(shard0, 'ledger.sqlite')) && fs.existsSync(path.join(shard1, 'ledger.sqlite')));
  // Shard 0 has seeds 0, 2, 4, 6; shard 1 has 1, 3, 5, 7.
  editLedger(shard0, "UPDATE results SET aep = aep * 10 WHERE task_id = 'farm_0_type_0_seed_0'");
  const x2 = (
    new Database(path.join(shard0, 'ledger.sqlite'), { readonly: true }).prepare("SELECT x FROM results WHERE task_id = 'farm_0_type_0_seed_2'").get() as {
      x: Buffer;
    }
  ).x;
  editLedger(shard0, "UPDATE results SET x = ? WHERE task_id = 'farm_0_type_0_seed_2'", moved(x2, 100_000));
  editLedger(shard1, "UPDATE results SET aep = NULL WHERE task_id = 'farm_0_type_0_seed_1'");
  editLedger(shard1, "UPDATE results SET aep = -5 WHERE task_id = 'farm_0_type_0_seed_3'");
  // A second copy of shard 1 (edits included) whose seed-7 row is replaced by seed 5's feasible layout and its
  // correct AEP: it passes the gate, but it is not what the first copy says.
  const copy = path.join(dir, 'final', 'shard-1-copy');
  fs.cpSync(shard1, copy, { recursive: true });
  {
    const db = new Database(path.join(copy, 'ledger.sqlite'));
    const five = db.prepare("SELECT aep, x, y FROM results WHERE task_id = 'farm_0_type_0_seed_5'").get() as { aep: number; x: Buffer; y: Buffer };
    db.prepare("UPDATE results SET aep = ?, x = ?, y = ? WHERE task_id = 'farm_0_type_0_seed_7'").run(five.aep, five.x, five.y);
    db.close();
  }

  const r = await wflo(['collect', file, '--from', shard0, shard1, copy]);
  assert.equal(r.code, 3, `${r.stdout}\n${r.stderr}`);
  const lines = rejectionLines(r.stderr, /^wflo: collect: rejected /);
  // Seeds 1 and 3 are edited in shard 1 and in its copy: rejected once per folder.
  assert.equal(lines.length, 6, r.stderr);
  assert.equal(lines.filter((l) => l.includes('shard-1-copy: ')).length, 2);
  assert.match(lines.find((l) => l.includes('seed_0 '))!, /AEP [\d.e]+ MWh differs from recomputed/);
  assert.match(lines.find((l) => l.includes('seed_2 '))!, /outside the boundary/);
  assert.match(lines.find((l) => l.includes('seed_1 '))!, /AEP NaN is not a finite number/);
  assert.match(lines.find((l) => l.includes('seed_3 '))!, /AEP -5 MWh is negative/);
  const conflicts = rejectionLines(r.stderr, /^wflo: collect: conflict: /);
  assert.equal(conflicts.length, 1, r.stderr);
  assert.match(
    conflicts[0],
    /farm_0_type_0_seed_7: already collected with AEP [\d.]+ MWh \(shard:.*shard-1\), .*shard-1-copy has [\d.]+ MWh with another result \(AEP [\d.]+ vs [\d.]+ MWh, layouts up to [\d.e+]+ m apart\); kept the first/,
  );
  const audit = auditEvents(path.join(dir, 'final'));
  assert.equal(audit.filter((e) => e.event === 'collect_rejected').length, 6);
  assert.equal(audit.filter((e) => e.event === 'conflict').length, 1);
  // The four rejected tasks are listed as not done; every row that is in is the honest one.
  const missing = r.stdout
    .split('\n')
    .filter((l) => /\t(pending|failed|stale)$/.test(l))
    .map((l) => l.split('\t')[0])
    .sort();
  assert.deepEqual(missing, ['farm_0_type_0_seed_0', 'farm_0_type_0_seed_1', 'farm_0_type_0_seed_2', 'farm_0_type_0_seed_3']);
  const collected = computedRows(path.join(dir, 'final'));
  const byId = new Map(honest.rows.map((row) => [row.task_id, row]));
  assert.equal(collected.length, 4);
  for (const row of collected) assert.deepEqual(row, byId.get(row.task_id as string));
  const sources = new Database(path.join(dir, 'final', 'ledger.sqlite'), { readonly: true })
    .prepare('SELECT DISTINCT source FROM results')
    .pluck()
    .all() as string[];
  assert.deepEqual(sources.map((s) => s.replace(/:.*shard-(\d)$/, ':shard-$1')).sort(), ['shard:shard-0', 'shard:shard-1']);
  // Running the campaign computes exactly the four; the result is the honest run.
  const rerun = await wflo(['run', file, '--quiet']);
  assert.equal(rerun.code, 0, rerun.stderr);
  assert.match(rerun.stdout, /\(4 this run\)/);
  assert.deepEqual(computedRows(path.join(dir, 'final')), honest.rows);
});

test('recovery door: an edited layouts.h5 and an edited audit.jsonl after a lost ledger: edited rows rejected and computed, the rest adopted back', {
  skip: noH5py,
  timeout: 180_000,
}, async () => {
  const dir = tempDir('gate-recover');
  const honest = honestRun(dir);
  const file = path.join(dir, 'honest.yaml');

  // 1. layouts.h5 edited with h5py (AEP x10 on row 1, a turbine 100 km outside on row 4); ledger and audit log gone.
  python(
    `
import h5py, sys
with h5py.File(sys.argv[1], 'r+') as f:
    a = f['aep'][:]; a[1] *= 10; f['aep'][:] = a
    l = f['layout'][:]; l[4, 0, 0] += 100000.0; f['layout'][:] = l
`,
    [path.join(honest.out, 'layouts.h5')],
  );
  const edited = path.join(dir, 'edited-h5');
  fs.cpSync(honest.out, edited, { recursive: true });
  for (const f of ['ledger.sqlite', 'ledger.sqlite-wal', 'ledger.sqlite-shm', 'audit.jsonl']) fs.rmSync(path.join(edited, f), { force: true });
  const r1 = await wflo(['run', file, '--out', edited, '--log-every', '1000']);
  assert.equal(r1.code, 0, r1.stderr);
  const lines1 = rejectionLines(r1.stderr, /^wflo: not recovered: /);
  assert.equal(lines1.length, 2, r1.stderr);
  assert.match(lines1.find((l) => l.includes('seed_1 '))!, /from recovered:layouts\.h5: AEP [\d.e]+ MWh differs from recomputed/);
  assert.match(lines1.find((l) => l.includes('seed_4 '))!, /from recovered:layouts\.h5: turbine 0 is [\d.]+ m outside the boundary/);
  assert.match(r1.stderr, /adopted back 6 from layouts\.h5 and 0 from audit\.jsonl/);
  assert.match(r1.stdout, /\(2 this run\)/);
  assert.deepEqual(computedRows(edited), honest.rows);
  assert.deepEqual(
    (await layoutsRows(path.join(edited, 'layouts.h5'))).map((r) => r.aep),
    honest.rows.map((r) => r.aep),
  );

  // 2. audit.jsonl edited by hand (AEP x10 on seed 2, x moved on seed 6); ledger and layouts.h5 gone.
  const auditEdit = path.join(dir, 'edited-audit');
  fs.cpSync(honest.out, auditEdit, { recursive: true });
  for (const f of ['ledger.sqlite', 'ledger.sqlite-wal', 'ledger.sqlite-shm', 'layouts.h5']) fs.rmSync(path.join(auditEdit, f), { force: true });
  const auditFile = path.join(auditEdit, 'audit.jsonl');
  const lines = fs
    .readFileSync(auditFile, 'utf8')
    .split('\n')
    .map((line) => {
      if (!line.includes('"outcome":"done"')) return line;
      const e = JSON.parse(line) as { task: string; result: { aep: number; x: number[] } };
      if (e.task === 'farm_0_type_0_seed_2') e.result.aep *= 10;
      if (e.task === 'farm_0_type_0_seed_6') e.result.x[0] += 100_000;
      return JSON.stringify(e);
    });
  fs.writeFileSync(auditFile, lines.join('\n'));
  const r2 = await wflo(['run', file, '--out', auditEdit, '--log-every', '1000']);
  assert.equal(r2.code, 0, r2.stderr);
  const lines2 = rejectionLines(r2.stderr, /^wflo: not recovered: /);
  assert.equal(lines2.length, 2, r2.stderr);
  assert.match(lines2.find((l) => l.includes('seed_2 '))!, /from recovered:audit\.jsonl: AEP/);
  assert.match(lines2.find((l) => l.includes('seed_6 '))!, /from recovered:audit\.jsonl: turbine 0 is/);
  assert.match(r2.stdout, /\(2 this run\)/);
  assert.deepEqual(computedRows(auditEdit), honest.rows);
});

test('recovery door: an audit.jsonl rewritten by Python json.dumps (other spacing) is read as JSON: every result recovered, nothing recomputed', {
  timeout: 120_000,
}, async () => {
  const dir = tempDir('gate-recover-json');
  const honest = honestRun(dir);
  for (const f of ['ledger.sqlite', 'ledger.sqlite-wal', 'ledger.sqlite-shm', 'layouts.h5']) fs.rmSync(path.join(honest.out, f), { force: true });
  const auditFile = path.join(honest.out, 'audit.jsonl');
  python(
    `
import json, sys
src = open(sys.argv[1]).read().splitlines()
with open(sys.argv[1], 'w') as f:
    for line in src:
        if line.strip():
            f.write(json.dumps(json.loads(line)) + '\\n')
`,
    [auditFile],
  );
  assert.match(fs.readFileSync(auditFile, 'utf8'), /"outcome": "done"/, 'Python wrote its own spacing');
  const r = await wflo(['run', path.join(dir, 'honest.yaml'), '--log-every', '1000']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /adopted back 0 from layouts\.h5 and 8 from audit\.jsonl \(not recomputed\)/);
  assert.match(r.stdout, /8\/8 done \(0 this run\)/);
  assert.deepEqual(computedRows(honest.out), honest.rows);
});

test('collect door: what a row says about its run is checked too (iterations 7.5, text, a wrong or negative initial AEP, an initial layout moved): rejected, and the export still works', {
  timeout: 180_000,
}, async () => {
  const dir = tempDir('gate-collect-meta');
  const honest = honestRun(dir);
  const file = shardRuns(dir);
  const shard0 = path.join(dir, 'final', 'shard-0');
  const shard1 = path.join(dir, 'final', 'shard-1');
  // Shard 0 has seeds 0, 2, 4, 6; shard 1 has 1, 3, 5, 7.
  editLedger(shard0, "UPDATE results SET iterations = 7.5 WHERE task_id = 'farm_0_type_0_seed_0'");
  editLedger(shard0, "UPDATE results SET evaluations = 'abc' WHERE task_id = 'farm_0_type_0_seed_2'");
  editLedger(shard0, "UPDATE results SET aep_initial = aep_initial * 10 WHERE task_id = 'farm_0_type_0_seed_4'");
  editLedger(shard1, "UPDATE results SET aep_initial = -5 WHERE task_id = 'farm_0_type_0_seed_1'");
  editLedger(shard1, "UPDATE results SET wall_s = 'abc' WHERE task_id = 'farm_0_type_0_seed_3'");
  const xi = (
    new Database(path.join(shard1, 'ledger.sqlite'), { readonly: true })
      .prepare("SELECT x_initial FROM results WHERE task_id = 'farm_0_type_0_seed_5'")
      .get() as { x_initial: Buffer }
  ).x_initial;
  editLedger(shard1, "UPDATE results SET x_initial = ? WHERE task_id = 'farm_0_type_0_seed_5'", moved(xi, 100_000));
  editLedger(shard1, "UPDATE results SET attempts = 1e12 WHERE task_id = 'farm_0_type_0_seed_7'");

  const r = await wflo(['collect', file, '--from', shard0, shard1]);
  assert.equal(r.code, 3, `${r.stdout}\n${r.stderr}`);
  const lines = rejectionLines(r.stderr, /^wflo: collect: rejected /);
  assert.equal(lines.length, 7, r.stderr);
  const line = (seed: number) => lines.find((l) => l.includes(`seed_${seed} `))!;
  assert.match(line(0), /iterations is 7\.5, not a whole number from -1 \(unknown\) to 2147483647/);
  assert.match(line(2), /evaluations is "abc", not a whole number/);
  assert.match(line(4), /initial AEP [\d.e]+ MWh differs from the initial layout's recomputed [\d.e]+ MWh/);
  assert.match(line(1), /aep_initial is -5, not an energy in MWh/);
  assert.match(line(3), /wall_s is "abc", not a duration in seconds/);
  assert.match(line(5), /initial AEP [\d.e]+ MWh differs from the initial layout's recomputed/);
  assert.match(line(7), /attempts is 1000000000000, not a whole number/);
  // The one row that passed is exported (before, a row with iterations 7.5 stopped every export).
  assert.match(r.stdout, /1 rows in .*layouts\.h5/);
  assert.deepEqual(
    (await layoutsRows(path.join(dir, 'final', 'layouts.h5'))).map((x) => x.task_id),
    ['farm_0_type_0_seed_6'],
  );
  const rerun = await wflo(['run', file, '--quiet']);
  assert.equal(rerun.code, 0, rerun.stderr);
  assert.match(rerun.stdout, /\(7 this run\)/);
  assert.deepEqual(computedRows(path.join(dir, 'final')), honest.rows);
});

test('recovery door: an audit.jsonl line with a half evaluation, a wrong initial AEP, or an AEP, metrics and worker wflo never reported: rejected or stripped', {
  timeout: 180_000,
}, async () => {
  const dir = tempDir('gate-recover-meta');
  const honest = honestRun(dir);
  for (const f of ['ledger.sqlite', 'ledger.sqlite-wal', 'ledger.sqlite-shm', 'layouts.h5']) fs.rmSync(path.join(honest.out, f), { force: true });
  const auditFile = path.join(honest.out, 'audit.jsonl');
  const lines = fs
    .readFileSync(auditFile, 'utf8')
    .split('\n')
    .map((line) => {
      if (!line.includes('"outcome":"done"')) return line;
      const e = JSON.parse(line) as { task: string; result: Record<string, unknown> & { aep_initial: number } };
      if (e.task === 'farm_0_type_0_seed_0') e.result.evaluations = 0.5;
      if (e.task === 'farm_0_type_0_seed_1') e.result.aep_initial *= 1.01;
      if (e.task === 'farm_0_type_0_seed_2') Object.assign(e.result, { aep_reported: 1e9, metrics: { lcoe: -1e300 }, worker: 'evil\nhost' });
      return JSON.stringify(e);
    });
  fs.writeFileSync(auditFile, lines.join('\n'));
  const r = await wflo(['run', path.join(dir, 'honest.yaml'), '--log-every', '1000']);
  assert.equal(r.code, 0, r.stderr);
  const refused = rejectionLines(r.stderr, /^wflo: not recovered: /);
  assert.equal(refused.length, 2, r.stderr);
  assert.match(refused.find((l) => l.includes('seed_0 '))!, /evaluations is 0\.5, not a whole number/);
  assert.match(refused.find((l) => l.includes('seed_1 '))!, /initial AEP [\d.e]+ MWh differs from the initial layout's recomputed [\d.e]+ MWh \(rel 1\.0e-2\)/);
  assert.match(r.stdout, /\(2 this run\)/);
  assert.deepEqual(computedRows(honest.out), honest.rows);
  const db = new Database(path.join(honest.out, 'ledger.sqlite'), { readonly: true });
  try {
    const two = db.prepare("SELECT * FROM results WHERE task_id = 'farm_0_type_0_seed_2'").get() as Record<string, unknown>;
    assert.ok(two.aep_reported === null || Number.isNaN(two.aep_reported), `aep_reported ${String(two.aep_reported)}`);
    assert.ok(!two.worker, `worker ${String(two.worker)}`);
    const names = Object.keys(two).filter((k) => /metric/.test(k));
    for (const k of names) assert.ok(two[k] === null || two[k] === '{}' || two[k] === '', `${k}: ${String(two[k])}`);
  } finally {
    db.close();
  }
});
