/**
 * The output is never lost: a deleted ledger, a WAL file lost after a SIGKILL, a zeroed ledger
 * page. In each case no result that layouts.h5 or the audit log holds is computed again, and the
 * final layouts.h5 equals an uninterrupted run's. Also: an export never replaces a file holding
 * results the ledger lacks, and a lock whose pid now belongs to another boot or process is stale.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readLayoutsFile } from '../../src/io/hdf5/index.js';
import type { LayoutRecord } from '../../src/io/layoutRecord.js';
import { parseCampaign } from '../../src/campaign/loadCampaign.js';
import { expandTasks } from '../../src/campaign/taskGrid.js';
import { Ledger } from '../../src/runner/ledger.js';
import { exportLedger } from '../../src/runner/exporter.js';
import { auditEvents, collect, ledgerSnapshot, noopCampaign, runWflo, startWflo, tempDir, waitFor, writeCampaign } from './runnerTestKit.js';

const TOTAL = 2 * 2 * 8;

function content(r: LayoutRecord): unknown {
  return {
    taskId: r.taskId,
    nTurbines: r.nTurbines,
    aep: r.aep,
    aepInitial: r.aepInitial,
    x: Array.from(r.x),
    y: Array.from(r.y),
    xInitial: Array.from(r.xInitial),
    yInitial: Array.from(r.yInitial),
    iterations: r.iterations,
    evaluations: r.evaluations,
    specHash: r.specHash,
  };
}

/**
 * The rows of an uninterrupted run of the campaign with these optimizer settings, in its own
 * folder: run once per settings for the tests of this file that compare with it.
 */
const references = new Map<string, Promise<LayoutRecord[]>>();
function referenceRows(optimizer: Record<string, unknown> = {}): Promise<LayoutRecord[]> {
  const key = JSON.stringify(optimizer);
  if (!references.has(key)) {
    references.set(
      key,
      (async () => {
        const dir = tempDir('reference');
        const refFile = writeCampaign(path.join(dir, 'reference.yaml'), noopCampaign(path.join(dir, 'reference'), 8, optimizer));
        const ref = await runWflo(['run', refFile, '--quiet']);
        assert.equal(ref.code, 0, ref.stderr);
        const reference = (await readLayoutsFile(path.join(dir, 'reference', 'layouts.h5'))).records;
        assert.equal(reference.length, TOTAL);
        return reference;
      })(),
    );
  }
  return references.get(key)!;
}

/** A campaign file for the folder under test (the reference's campaign, another output). */
function prepare(prefix: string, optimizer: Record<string, unknown> = {}): { dir: string; out: string; file: string } {
  const dir = tempDir(prefix);
  const out = path.join(dir, 'out');
  const file = writeCampaign(path.join(dir, 'campaign.yaml'), noopCampaign(out, 8, optimizer));
  return { dir, out, file };
}

function doneCounts(out: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const e of auditEvents(out)) {
    if (e.event === 'attempt' && e.outcome === 'done') counts.set(String(e.task), (counts.get(String(e.task)) ?? 0) + 1);
  }
  return counts;
}

async function assertFinalEqualsReference(out: string, reference: LayoutRecord[]): Promise<void> {
  const final = await readLayoutsFile(path.join(out, 'layouts.h5'));
  assert.equal(final.info.complete, true);
  assert.deepEqual(final.records.map(content), reference.map(content));
  const snap = ledgerSnapshot(out);
  assert.equal(snap.integrity, 'ok');
  assert.equal(snap.done.length, TOTAL);
}

test('a deleted ledger: the rerun adopts layouts.h5 back, computes nothing, and the file stays the same', async () => {
  const reference = await referenceRows();
  const { out, file } = prepare('lost-ledger');
  assert.equal((await runWflo(['run', file, '--quiet'])).code, 0);
  for (const suffix of ['', '-wal', '-shm']) fs.rmSync(path.join(out, `ledger.sqlite${suffix}`), { force: true });

  const r = await runWflo(['run', file, '--quiet']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /the ledger lacked 32 finished tasks: adopted back \d+ from layouts\.h5 and \d+ from audit\.jsonl \(not recomputed\)/);
  for (const [task, n] of doneCounts(out)) assert.equal(n, 1, `${task} was computed ${n} times`);
  await assertFinalEqualsReference(out, reference);
  const final = await readLayoutsFile(path.join(out, 'layouts.h5'));
  assert.ok(
    final.records.every((rec) => rec.source?.startsWith('recovered:')),
    'rows say where they came from',
  );
});

test('an export never replaces a layouts.h5 that holds results the ledger lacks', async () => {
  const { out, file } = prepare('export-guard');
  assert.equal((await runWflo(['run', file, '--quiet'])).code, 0);
  const before = fs.readFileSync(path.join(out, 'layouts.h5'));
  for (const suffix of ['', '-wal', '-shm']) fs.rmSync(path.join(out, `ledger.sqlite${suffix}`), { force: true });
  // A fresh ledger that knows the campaign but none of its results (no recovery step).
  const c = parseCampaign(fs.readFileSync(file, 'utf8'), file);
  const ledger = Ledger.open(out);
  ledger.syncCampaign(c, expandTasks(c));
  ledger.close();
  await assert.rejects(exportLedger(out), /layouts\.h5 holds 32 finished tasks the ledger lacks \(e\.g\. farm_\d+_type_\d+_seed_\d+\); not replaced/);
  const cli = await runWflo(['export', out]);
  assert.notEqual(cli.code, 0);
  assert.equal(cli.stderr.trim().split('\n').length, 1, cli.stderr);
  assert.ok(fs.readFileSync(path.join(out, 'layouts.h5')).equals(before), 'layouts.h5 untouched');
  const forced = await runWflo(['export', out, '--force']);
  assert.equal(forced.code, 0, `--force replaces it, as the message says: ${forced.stderr}`);
});

test('the WAL lost after a SIGKILL: results the audit log or layouts.h5 hold are not recomputed', async () => {
  const reference = await referenceRows({ sleep_ms: 150 });
  const { out, file } = prepare('lost-wal', { sleep_ms: 150 });
  const child = startWflo(['run', file, '--quiet']);
  const exited = collect(child);
  assert.ok(await waitFor(() => doneCounts(out).size >= 10, 30_000), 'some tasks finished');
  child.kill('SIGKILL');
  await exited;
  await new Promise((r) => setTimeout(r, 300)); // orphaned workers notice the disconnect and exit
  const heldBefore = new Set(doneCounts(out).keys());
  assert.ok(heldBefore.size >= 10 && heldBefore.size < TOTAL, `${heldBefore.size} tasks done before the kill`);
  assert.ok(fs.existsSync(path.join(out, 'ledger.sqlite-wal')), 'the run was killed with a live WAL');
  for (const suffix of ['-wal', '-shm']) fs.rmSync(path.join(out, `ledger.sqlite${suffix}`), { force: true });

  const r = await runWflo(['run', file, '--quiet']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /the ledger lacked \d+ finished tasks?: adopted back/);
  const counts = doneCounts(out);
  for (const task of heldBefore) assert.equal(counts.get(task), 1, `${task} was computed again although audit.jsonl held it`);
  await assertFinalEqualsReference(out, reference);
});

test('a zeroed ledger page: one line naming the file and the way out; `wflo ledger rebuild` recovers every result', async () => {
  const reference = await referenceRows();
  const { out, file } = prepare('zeroed-page');
  assert.equal((await runWflo(['run', file, '--quiet'])).code, 0);
  const ledgerPath = path.join(out, 'ledger.sqlite');
  const fd = fs.openSync(ledgerPath, 'r+');
  const pageSize = 4096;
  fs.writeSync(fd, Buffer.alloc(pageSize), 0, pageSize, 2 * pageSize);
  fs.closeSync(fd);
  const damaged = fs.readFileSync(ledgerPath);

  const refused = await runWflo(['run', file, '--quiet']);
  assert.equal(refused.code, 1);
  const lines = refused.stderr.trim().split('\n');
  assert.equal(lines.length, 1, refused.stderr);
  assert.match(lines[0], /ledger\.sqlite is damaged .*`wflo ledger rebuild .*out`/);
  assert.ok(fs.readFileSync(ledgerPath).equals(damaged), 'the damaged ledger was not touched');

  const rebuilt = await runWflo(['ledger', 'rebuild', out]);
  assert.equal(rebuilt.code, 0, rebuilt.stderr);
  assert.match(rebuilt.stdout, new RegExp(`ledger rebuilt for test-campaign: ${TOTAL}/${TOTAL} tasks done`));
  const aside = fs.readdirSync(out).filter((f) => f.startsWith('ledger.sqlite.damaged-') && !f.endsWith('-wal') && !f.endsWith('-shm'));
  assert.equal(aside.length, 1);
  assert.ok(fs.readFileSync(path.join(out, aside[0])).equals(damaged), 'the damaged file is kept aside as it was');

  const r = await runWflo(['run', file, '--quiet']);
  assert.equal(r.code, 0, r.stderr);
  for (const [task, n] of doneCounts(out)) assert.equal(n, 1, `${task} was computed ${n} times`);
  await assertFinalEqualsReference(out, reference);
});

test('a run lock whose pid belongs to another boot or another process start is stale: status and run agree', async () => {
  const { out, file } = prepare('stale-lock');
  assert.equal((await runWflo(['run', file, '--quiet'])).code, 0);
  // After a reboot the old pid may belong to any process: here, this live test process.
  const lockPath = path.join(out, 'run.lock');
  for (const owner of [
    { pid: process.pid, host: os.hostname(), created: new Date().toISOString(), bootId: 'another-boot', startTime: '' },
    { pid: process.pid, host: os.hostname(), created: new Date().toISOString(), bootId: '', startTime: '1' },
  ]) {
    fs.writeFileSync(lockPath, JSON.stringify(owner));
    const status = await runWflo(['status', out, '--json']);
    const s = JSON.parse(status.stdout) as { run: { state: string } | null };
    assert.notEqual(s.run?.state, 'running', 'status does not call a stale lock a live run');
    const r = await runWflo(['run', file, '--quiet']);
    assert.equal(r.code, 0, `run takes over the stale lock: ${r.stderr}`);
    assert.ok(!fs.existsSync(lockPath), 'the lock is released after the run');
  }
});
