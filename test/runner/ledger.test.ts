/** The ledger: idempotent commits, stale and retired tasks, failures, campaign identity. */
import test from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { stringify } from 'yaml';
import { parseCampaign } from '../../src/campaign/loadCampaign.js';
import { expandTasks } from '../../src/campaign/taskGrid.js';
import { Ledger, LedgerReader } from '../../src/runner/ledger.js';
import { RowGate, type VerifiedRow } from '../../src/runner/gate/rowGate.js';
import { InputError } from '../../src/util/errors.js';
import { noopCampaign, tempDir } from './runnerTestKit.js';
import { candidateFor, resultFor } from './ledgerRows.js';

function campaignText(dir: string, edit: (c: Record<string, unknown>) => void = () => {}): string {
  const c = noopCampaign(dir, 3);
  edit(c);
  return stringify(c);
}

test('a second delivery of the same task and spec is a no-op', () => {
  const dir = tempDir('ledger');
  const c = parseCampaign(campaignText(dir), path.join(dir, 'c.yaml'));
  const tasks = expandTasks(c);
  const ledger = Ledger.open(dir);
  try {
    ledger.syncCampaign(c, tasks);
    const first = resultFor(c, tasks[0], 1);
    assert.deepEqual(ledger.commitResults([first], 1), [tasks[0].taskId]);
    assert.deepEqual(ledger.commitResults([resultFor(c, tasks[0], 2)], 2), [], 'duplicate is not written');
    const rows = [...ledger.doneRecords()];
    assert.equal(rows.length, 1);
    assert.equal(rows[0].aep, 1001, 'the first commit stays');
    assert.deepEqual(Array.from(rows[0].x), Array.from(first.x));
    assert.equal(ledger.totals().done, 1);
    assert.equal(ledger.totals().pending, tasks.length - 1);
  } finally {
    ledger.close();
  }
});

test('a changed farm makes its tasks stale; the new result replaces the old one', () => {
  const dir = tempDir('ledger');
  const file = path.join(dir, 'c.yaml');
  const c1 = parseCampaign(campaignText(dir), file);
  const t1 = expandTasks(c1);
  const ledger = Ledger.open(dir);
  try {
    ledger.syncCampaign(c1, t1);
    ledger.commitResults(
      t1.map((t, i) => resultFor(c1, t, i)),
      1,
    );
    assert.equal(ledger.totals().done, t1.length);
    const c2 = parseCampaign(
      campaignText(dir, (c) => {
        (c.farms as Record<string, unknown>[])[1].boundary = {
          polygon: [
            [0, 0],
            [3500, 0],
            [3500, 2000],
            [0, 2000],
          ],
        };
      }),
      file,
    );
    const t2 = expandTasks(c2);
    const report = ledger.syncCampaign(c2, t2);
    const farm1 = t2.filter((t) => t.farmId === 1).length;
    assert.equal(report.stale, farm1);
    assert.equal(report.done, t2.length - farm1);
    const staleTask = t2.find((t) => t.farmId === 1)!;
    assert.deepEqual(ledger.commitResults([resultFor(c2, staleTask, 99)], 2), [staleTask.taskId]);
    assert.equal(ledger.totals().stale, farm1 - 1);
    assert.equal([...ledger.doneRecords()].find((r) => r.taskId === staleTask.taskId)!.aep, 1099);
  } finally {
    ledger.close();
  }
});

test('a full campaign retires dropped tasks; a restricted one does not', () => {
  const dir = tempDir('ledger');
  const file = path.join(dir, 'c.yaml');
  const full = parseCampaign(campaignText(dir), file);
  const ledger = Ledger.open(dir);
  try {
    ledger.syncCampaign(full, expandTasks(full));
    const restricted = parseCampaign(
      campaignText(dir, (c) => {
        c.only = ['farm_0_type_0_seed_1'];
      }),
      file,
    );
    const r1 = ledger.syncCampaign(restricted, expandTasks(restricted));
    assert.equal(r1.total, expandTasks(full).length, 'restricted run keeps the whole grid');
    const smaller = parseCampaign(
      campaignText(dir, (c) => {
        c.seeds = [0, 1];
      }),
      file,
    );
    const r2 = ledger.syncCampaign(smaller, expandTasks(smaller));
    assert.equal(r2.total, 2 * 2 * 2);
    assert.equal(r2.retired, 2 * 2 * 1);
  } finally {
    ledger.close();
  }
});

test('failures: attempts, permanent mark, --retry-failed budget', () => {
  const dir = tempDir('ledger');
  const c = parseCampaign(campaignText(dir), path.join(dir, 'c.yaml'));
  const tasks = expandTasks(c);
  const ledger = Ledger.open(dir);
  try {
    ledger.syncCampaign(c, tasks);
    ledger.recordFailure(tasks[1].taskId, 1, 'boom 1', false);
    ledger.recordFailure(tasks[1].taskId, 2, 'boom 2', true);
    assert.equal(ledger.totals().failed, 1);
    assert.deepEqual(ledger.failures(), [{ taskId: tasks[1].taskId, attempts: 2, error: 'boom 2' }]);
    assert.deepEqual(
      ledger.notDone().find((m) => m.taskId === tasks[1].taskId),
      { taskId: tasks[1].taskId, state: 'failed' },
    );
    assert.equal(ledger.resetFailed(), 1);
    const s = ledger.taskStates().get(tasks[1].taskId)!;
    assert.equal(s.failed, false);
    assert.equal(s.attempts, 2, 'attempt numbers continue');
    assert.equal(s.attemptsCounted, 0, 'but the budget starts again');
  } finally {
    ledger.close();
  }
});

test('a folder that holds another campaign is refused', () => {
  const dir = tempDir('ledger');
  const file = path.join(dir, 'c.yaml');
  const c = parseCampaign(campaignText(dir), file);
  const ledger = Ledger.open(dir);
  try {
    ledger.syncCampaign(c, expandTasks(c));
    const other = parseCampaign(
      campaignText(dir, (x) => {
        x.name = 'other';
      }),
      file,
    );
    assert.throws(
      () => ledger.syncCampaign(other, expandTasks(other)),
      (e: unknown) => e instanceof InputError && /holds campaign 'test-campaign', not 'other'/.test(e.message),
    );
  } finally {
    ledger.close();
  }
});

test('status of a folder without a ledger is an InputError', () => {
  assert.throws(
    () => LedgerReader.open(tempDir('empty')),
    (e: unknown) => e instanceof InputError && /no campaign ledger/.test(e.message),
  );
});

test('the ledger commits only rows the gate passed; an unverified row is refused before anything is written', () => {
  const dir = tempDir('ledger');
  const c = parseCampaign(campaignText(dir), path.join(dir, 'c.yaml'));
  const tasks = expandTasks(c);
  const ledger = Ledger.open(dir);
  try {
    ledger.syncCampaign(c, tasks);
    const forged = { ...resultFor(c, tasks[1], 5) } as unknown as VerifiedRow; // same fields, not the gate's object
    assert.throws(() => ledger.commitResults([resultFor(c, tasks[0], 4), forged], 1), /did not pass the gate/);
    assert.equal(ledger.totals().done, 0, 'nothing of the batch was committed');
    const outside = candidateFor(c, tasks[0], 6);
    outside.x[0] = 1e6;
    const verdict = new RowGate(c, { threads: 0 }).checkNow(tasks[0], outside, { kind: 'computed' });
    assert.equal(verdict.ok, false);
    assert.match((verdict as { reason: string }).reason, /outside/);
  } finally {
    ledger.close();
  }
});

test('worker names: a computed row keeps the name quarantine retracts by, whatever it is; a name read from a file only as host:pid', () => {
  const dir = tempDir('ledger-worker');
  const c = parseCampaign(campaignText(dir), path.join(dir, 'c.yaml'));
  const tasks = expandTasks(c);
  const gate = new RowGate(c, { threads: 0 });
  const odd = 'build box ?[31m:4242';
  const computed = gate.checkNow(tasks[0], candidateFor(c, tasks[0], 1), { kind: 'computed', worker: odd });
  assert.ok(computed.ok);
  assert.equal(computed.row.worker, odd);
  const ledger = Ledger.open(dir);
  try {
    ledger.syncCampaign(c, tasks);
    const run = ledger.beginRun(process.pid, 'test', 1);
    ledger.commitResults([computed.row], run);
    assert.deepEqual(ledger.retractResults(ledger.resultsOfWorker(odd, run)), [tasks[0].taskId], 'quarantine finds and retracts its row');
  } finally {
    ledger.close();
  }
  const recovered = (worker: string) => gate.checkNow(tasks[1], { ...candidateFor(c, tasks[1], 2), worker }, { kind: 'recovered', file: 'audit.jsonl' });
  const plain = recovered('node-7.cluster:311');
  assert.ok(plain.ok && plain.row.worker === 'node-7.cluster:311');
  const forged = recovered('evil\nhost:1');
  assert.ok(forged.ok && forged.row.worker === undefined);
});
