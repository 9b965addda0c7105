/**
 * `wflo collect` without SLURM, over shard folders written by `wflo run --shard I/N`: a missing
 * shard folder, a damaged ledger, a ledger that is not SQLite, a folder without a ledger and
 * shards of other campaigns are each reported in one line and contribute nothing; rows of a
 * changed campaign are not imported as done; collecting while a shard still runs is safe, and
 * collecting again afterwards completes the output with the shards' rows as they are.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { parseCampaign } from '../../src/campaign/loadCampaign.js';
import { expandTasks } from '../../src/campaign/taskGrid.js';
import { sliceTasks } from '../../src/campaign/shardSlice.js';
import { RecordVerifier } from '../../src/campaign/verifyRecord.js';
import { doneTaskIds, ledgerRows, listedTasks, SLURM_TEST_CLI, tempDir, wflo, writeNoopCampaign } from './slurmKit.js';

const shardIds = (file: string, index: number, count: number): string[] =>
  sliceTasks(expandTasks(parseCampaign(fs.readFileSync(file, 'utf8'), file)), { index, count }).map((t) => t.taskId);

test('collect reports a missing, a damaged, a foreign shard in one line each and imports nothing wrong', () => {
  const dir = tempDir('collect-bad');
  try {
    const file = writeNoopCampaign(path.join(dir, 'c.yaml'), 'out', 3, 0);
    const shards = path.join(dir, 'out');
    for (const i of [0, 2]) assert.equal(wflo(['run', file, '--shard', `${i}/4`, '--quiet']).status, 0);
    // shard-1: never ran (missing). shard-2: pages overwritten. shard-3: the same campaign name
    // with other optimizer settings (another campaign hash).
    const ledger2 = path.join(shards, 'shard-2', 'ledger.sqlite');
    const bytes = fs.readFileSync(ledger2);
    assert.ok(bytes.length > 8192);
    fs.writeFileSync(ledger2, Buffer.concat([bytes.subarray(0, 4096), Buffer.alloc(bytes.length - 4096, 0x5a)]));
    for (const f of ['ledger.sqlite-wal', 'ledger.sqlite-shm']) fs.rmSync(path.join(shards, 'shard-2', f), { force: true });
    const other = writeNoopCampaign(path.join(dir, 'other.yaml'), 'elsewhere', 3, 1);
    assert.equal(wflo(['run', other, '--shard', '3/4', '--out', path.join(shards, 'shard-3'), '--quiet']).status, 0);
    // More folders the pattern catches: not SQLite at all, no ledger, another campaign's name,
    // and a plain (not --shard) run of the changed campaign, whose rows are all stale.
    fs.mkdirSync(path.join(shards, 'shard-notdb'));
    fs.writeFileSync(path.join(shards, 'shard-notdb', 'ledger.sqlite'), 'this is not a database, it is text '.repeat(200));
    fs.mkdirSync(path.join(shards, 'shard-empty'));
    const renamed = writeNoopCampaign(path.join(dir, 'renamed.yaml'), 'x', 3, 0, 'another-name');
    assert.equal(wflo(['run', renamed, '--shard', '1/4', '--out', path.join(shards, 'shard-renamed'), '--quiet']).status, 0);
    assert.equal(wflo(['run', other, '--out', path.join(shards, 'shard-plain'), '--quiet']).status, 0);

    const final = path.join(dir, 'final');
    const r = wflo(['collect', file, '--from', path.join(shards, 'shard-*'), '--out', final]);
    assert.equal(r.status, 3, r.stderr);
    const lines = r.stderr.trim().split('\n');
    const about = (needle: string): string[] => lines.filter((l) => l.includes(needle));
    assert.equal(about('shard-2:').length, 1);
    assert.match(about('shard-2:')[0], /damaged ledger \(.*SQLITE_CORRUPT.*\); nothing imported/);
    assert.equal(about('shard-3:').length, 1);
    assert.match(about('shard-3:')[0], /another version of campaign 'slurm-test' \(campaign hash \w+, this campaign's is \w+\); nothing imported/);
    assert.match(about('shard-notdb:')[0], /damaged ledger \(.*SQLITE_NOTADB.*\); nothing imported/);
    assert.match(about('shard-empty:')[0], /no ledger \(ledger.sqlite not found\); nothing imported/);
    assert.match(about('shard-renamed:')[0], /belongs to campaign 'another-name', not 'slurm-test'; nothing imported/);
    assert.equal(about('of 4: no readable folder').length, 1, r.stderr);
    assert.match(about('of 4: no readable folder')[0], /shards 1, 2, 3 of 4: no readable folder/);
    assert.equal(lines.length, 7, r.stderr); // five folder lines + the shard line + the summary
    assert.match(r.stdout, /12 stale not imported/);

    // Only shard 0's rows, exactly as committed there; every other task is listed as missing.
    const imported = ledgerRows(final);
    assert.deepEqual([...imported.keys()], shardIds(file, 0, 4).sort());
    const shard0 = ledgerRows(path.join(shards, 'shard-0'));
    for (const [id, row] of imported) assert.deepEqual(row, shard0.get(id));
    const all = expandTasks(parseCampaign(fs.readFileSync(file, 'utf8'), file)).map((t) => t.taskId);
    assert.deepEqual(listedTasks(r.stdout), new Set(all.filter((id) => !imported.has(id))));
    const m = wflo(['missing', final]);
    assert.deepEqual(listedTasks(m.stdout), listedTasks(r.stdout));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('collect while a shard still runs is safe; collecting again completes the output', async () => {
  const dir = tempDir('collect-live');
  try {
    // Tasks long enough (8 × 1.2 s on one worker) that the collect below starts while shard 1 still runs, even on a loaded machine.
    const file = writeNoopCampaign(path.join(dir, 'c.yaml'), 'out', 4, 1200);
    assert.equal(wflo(['run', file, '--shard', '0/2', '--workers', '2', '--quiet']).status, 0);
    const child = spawn(process.execPath, [SLURM_TEST_CLI, 'run', file, '--shard', '1/2', '--workers', '1', '--quiet'], {
      env: { ...process.env, WFLO_TEST_CLI: '1' },
      stdio: 'ignore',
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const shard1 = path.join(dir, 'out', 'shard-1');
    while (doneTaskIds(shard1).size < 2) await new Promise((r) => setTimeout(r, 50));

    const during = wflo(['collect', file]);
    assert.equal(during.status, 3, during.stderr);
    const partial = ledgerRows(path.join(dir, 'out'));
    assert.ok(partial.size >= 8 + 2 && partial.size < 16, `${partial.size} rows collected mid-run`);
    assert.equal(await exited, 0, 'the shard run must not notice the collect');

    const afterwards = wflo(['collect', file]);
    assert.equal(afterwards.status, 0, afterwards.stderr + afterwards.stdout);
    assert.match(afterwards.stdout, new RegExp(`${16 - partial.size} rows imported, ${partial.size} already there`));
    const rows = ledgerRows(path.join(dir, 'out'));
    assert.equal(rows.size, 16);
    const shardRows = new Map([...ledgerRows(path.join(dir, 'out', 'shard-0')), ...ledgerRows(shard1)]);
    for (const [id, row] of shardRows) assert.deepEqual(rows.get(id), row, id);
    assert.equal(wflo(['status', path.join(dir, 'out')]).stdout.includes('16/16 done'), true);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('collect --adopt-stale verifies rows of a changed campaign and imports only those that pass', () => {
  const dir = tempDir('collect-adopt');
  try {
    const file = writeNoopCampaign(path.join(dir, 'c.yaml'), 'out', 4, 0);
    // The same grid with other optimizer settings: every row it computes is stale for c.yaml.
    const changed = writeNoopCampaign(path.join(dir, 'changed.yaml'), 'plain', 4, 1);
    assert.equal(wflo(['run', changed, '--quiet']).status, 0);
    const plain = path.join(dir, 'plain');
    const campaign = parseCampaign(fs.readFileSync(file, 'utf8'), file);
    const tasks = new Map(expandTasks(campaign).map((t) => [t.taskId, t]));

    const without = wflo(['collect', file, '--from', plain, '--out', path.join(dir, 'final-plain')]);
    assert.equal(without.status, 3, without.stderr);
    assert.match(without.stdout, /0 rows imported, 0 already there, 16 stale not imported/);
    assert.equal(ledgerRows(path.join(dir, 'final-plain')).size, 0);

    const final = path.join(dir, 'final');
    const r = wflo(['collect', file, '--from', plain, '--out', final, '--adopt-stale']);
    const m = /16 stale \((\d+) verified and adopted\)/.exec(r.stdout);
    assert.ok(m, r.stdout + r.stderr);
    const adopted = Number(m[1]);
    const rejected = Number(/(\d+) rejected by verification/.exec(r.stdout)?.[1] ?? 0);
    assert.equal(adopted + rejected, 16);
    assert.equal(r.stderr.split('\n').filter((l) => /collect: rejected farm_\S+ from /.test(l)).length, rejected);
    // Judged independently: the adopted rows pass the trust issue's verifier, the others fail it.
    const verifier = new RecordVerifier(campaign, { aepTolerance: 1e-6 });
    const source = ledgerRows(plain);
    const imported = ledgerRows(final);
    assert.equal(imported.size, adopted);
    for (const [id, row] of source) {
      const f64 = (b: unknown): Float64Array => new Float64Array(new Uint8Array(b as Buffer).buffer);
      const verdict = verifier.verify(tasks.get(id)!, { x: f64(row.x), y: f64(row.y), aep: row.aep as number });
      assert.equal(imported.has(id), verdict.ok, id);
      if (verdict.ok) {
        assert.equal(imported.get(id)!.spec_hash, tasks.get(id)!.specHash);
        assert.deepEqual(imported.get(id)!.x, row.x);
      }
    }
    assert.equal(r.status, rejected > 0 ? 3 : 0, r.stderr);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('collect records the tasks a shard gave up on as failed, unless another shard has them done', () => {
  const dir = tempDir('collect-failed');
  try {
    // Seed 1 always fails (1 attempt): shard 0 of 2 records its seed-1 tasks as failed.
    const failing = path.join(dir, 'c.yaml');
    writeNoopCampaign(failing, 'out', 3, 0);
    const text = fs
      .readFileSync(failing, 'utf8')
      .replace(/method: noop/, 'method: noop\n  fail_seeds: [1]')
      .replace(/attempts: 2/, 'attempts: 1');
    fs.writeFileSync(failing, text);
    const r0 = wflo(['run', failing, '--shard', '0/2', '--quiet']);
    assert.equal(r0.status, 1, r0.stderr);
    const r1 = wflo(['run', failing, '--shard', '1/2', '--quiet']);
    assert.equal(r1.status, 1, r1.stderr);
    const c = wflo(['collect', failing]);
    assert.equal(c.status, 3, c.stderr);
    const failedIds = expandTasks(parseCampaign(text, failing))
      .filter((t) => t.seed === 1)
      .map((t) => t.taskId);
    const listed = c.stdout
      .split('\n')
      .filter((l) => l.endsWith('\tfailed'))
      .map((l) => l.split('\t')[0]);
    assert.deepEqual(new Set(listed), new Set(failedIds));
    assert.equal(listedTasks(c.stdout).size, failedIds.length);
    assert.match(c.stdout, /8\/12 done, 4 failed, 0 missing/);
    const m = wflo(['missing', path.join(dir, 'out')]);
    // `wflo missing` gives a failed task's attempts and last error in a third column.
    const missingFailed = m.stdout.split('\n').filter((l) => l.split('\t')[1] === 'failed');
    assert.deepEqual(new Set(missingFailed.map((l) => l.split('\t')[0])), new Set(failedIds));
    for (const l of missingFailed) assert.match(l, /\tfailed\tafter 1 attempt: /);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
