/**
 * Chaos: SIGKILL the coordinator at random moments (>= 5 times) and random workers (>= 20
 * times), restarting after each coordinator kill. At every kill point an existing layouts.h5
 * must open as a valid file holding only done tasks; at the end every task is done exactly once
 * and the HDF5 rows equal those of an uninterrupted run of the same campaign (all columns but
 * wall_s and attempts, which record how the run went, not what it computed).
 */
import test, { describe, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { readLayoutsFile } from '../../src/io/hdf5/index.js';
import type { LayoutRecord } from '../../src/io/layoutRecord.js';
import { createRng } from '../../src/util/rng.js';
import {
  EXECUTORS,
  auditEvents,
  collect,
  executorHooks,
  executorUnavailable,
  executorWorkerPids,
  isAlive,
  ledgerSnapshot,
  noopCampaign,
  runWflo,
  startWflo,
  tempDir,
  waitFor,
  workerPids,
  writeCampaign,
} from './runnerTestKit.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function campaignFor(out: string): Record<string, unknown> {
  const c = noopCampaign(out, 60, { sleep_ms: 40 });
  c.attempts = 100; // random kills must not exhaust any task's attempts
  c.backoff = { initial_s: 0.01, factor: 1, max_s: 0.01 };
  c.export = { every_results: 15, every_s: 0.5 };
  return c;
}

/** Everything a task computed (not how the run went). */
function content(r: LayoutRecord): unknown {
  return {
    taskId: r.taskId,
    farmId: r.farmId,
    farmType: r.farmType,
    seed: r.seed,
    nTurbines: r.nTurbines,
    aep: r.aep,
    aepInitial: r.aepInitial,
    x: Array.from(r.x),
    y: Array.from(r.y),
    xInitial: Array.from(r.xInitial),
    yInitial: Array.from(r.yInitial),
    iterations: r.iterations,
    evaluations: r.evaluations,
  };
}

/** Tasks done in the ledger of `out` (0 before it exists or while it cannot be read). */
function doneCount(out: string): number {
  try {
    return ledgerSnapshot(out).done.length;
  } catch {
    return 0;
  }
}

/** Whether the audit log of `out` records an attempt that ended in a crash. */
function crashSeen(out: string): boolean {
  return auditEvents(out).some((e) => e.event === 'attempt' && e.outcome === 'crash');
}

/** The end state every chaos folder must reach: the ledger and layouts.h5 of an uninterrupted run. */
async function verifyFolder(out: string, file: string, refOut: string, total: number, orphans: number[]): Promise<void> {
  const last = await runWflo(['run', file, '--quiet']);
  assert.equal(last.code, 0, last.stderr);
  // Orphaned workers of killed coordinators finish their task and exit.
  assert.ok(await waitFor(() => orphans.every((p) => !isAlive(p)), 10_000), 'orphaned workers exited');

  const snap = ledgerSnapshot(out);
  assert.equal(snap.integrity, 'ok');
  assert.equal(snap.done.length, total);
  assert.equal(snap.resultRows, total, 'exactly one committed result per task');
  const doneEvents = new Map<string, number>();
  for (const e of auditEvents(out)) {
    if (e.event === 'attempt' && e.outcome === 'done') doneEvents.set(String(e.task), (doneEvents.get(String(e.task)) ?? 0) + 1);
  }
  for (const [task, n] of doneEvents) assert.equal(n, 1, `${task} was committed ${n} times`);

  const a = await readLayoutsFile(path.join(refOut, 'layouts.h5'));
  const b = await readLayoutsFile(path.join(out, 'layouts.h5'));
  assert.equal(b.records.length, total);
  assert.equal(b.info.complete, true);
  assert.equal(b.info.campaignHash, a.info.campaignHash);
  assert.deepEqual(b.records.map(content), a.records.map(content));
}

async function chaos(t: TestContext): Promise<void> {
  const dir = tempDir('chaos');
  const refOut = path.join(dir, 'reference');
  const refFile = writeCampaign(path.join(dir, 'reference.yaml'), campaignFor(refOut));
  // A campaign that ends before the chaos is complete (a fast machine, kills that hit nothing) is
  // checked like the last one, and the chaos goes on in a fresh folder: every folder must end as
  // the uninterrupted run did.
  let folder = 0;
  const folderOf = (k: number) => {
    const out = path.join(dir, `chaos-${k}`);
    return { out, file: writeCampaign(path.join(dir, `chaos-${k}.yaml`), campaignFor(out)) };
  };
  let { out, file } = folderOf(folder);
  const total = 2 * 2 * 60;

  const ref = await runWflo(['run', refFile, '--quiet']);
  assert.equal(ref.code, 0, ref.stderr);

  const rng = createRng(20240611);
  let coordinatorKills = 0,
    workerKills = 0,
    validFilesSeen = 0,
    restarts = 0,
    crashes = false;
  let orphans: number[] = [];
  while (coordinatorKills < 5 || workerKills < 20) {
    assert.ok(restarts++ < 60, `chaos loop did not reach its kill counts (${coordinatorKills} coordinator, ${workerKills} worker kills)`);
    const child = startWflo(['run', file, '--quiet']);
    const exited = collect(child);
    let finished = false;
    void exited.then(() => {
      finished = true;
    });
    // A few worker kills while this coordinator lives (once it has started its workers).
    const workerRounds = workerKills < 20 ? 3 + rng.int(4) : 0;
    // Until a worker death has been recorded as a crash, kill workers only once this coordinator
    // has committed a task: a worker still loading its modules on a loaded machine dies before any
    // task, which is no crash of a task. (Waiting every time would leave too little to kill.)
    const doneBefore = doneCount(out);
    const untilWorking = !(crashes || crashSeen(out));
    if (workerRounds > 0)
      await waitFor(() => finished || (executorWorkerPids(child.pid!).length > 0 && (!untilWorking || doneCount(out) > doneBefore)), 20_000, 50);
    for (let k = 0; k < workerRounds && !finished; k++) {
      await sleep(50 + rng.int(250));
      const pids = executorWorkerPids(child.pid!);
      if (pids.length === 0) continue;
      const victim = pids[rng.int(pids.length)];
      try {
        process.kill(victim, 'SIGKILL');
        workerKills++;
      } catch {
        /* it just exited */
      }
    }
    if (coordinatorKills < 5 && !finished) {
      // From the third kill on, let a layouts.h5 exist first, so kill points do hit live exports.
      if (coordinatorKills >= 2) await waitFor(() => finished || fs.existsSync(path.join(out, 'layouts.h5')), 20_000);
      await sleep(50 + rng.int(600));
      if (!finished) {
        orphans.push(...workerPids(child.pid!));
        child.kill('SIGKILL');
        const r = await exited;
        if (r.signal === 'SIGKILL') coordinatorKills++;
        // Kill point: whatever layouts.h5 exists now must be a valid file of done tasks.
        const h5 = path.join(out, 'layouts.h5');
        if (fs.existsSync(h5)) {
          const { records, info } = await readLayoutsFile(h5);
          assert.equal(info.nDone, records.length);
          const done = new Set(ledgerSnapshot(out).done);
          for (const rec of records) assert.ok(done.has(rec.taskId), `${rec.taskId} in layouts.h5 but not done in the ledger`);
          validFilesSeen++;
        }
        continue;
      }
    }
    const r = await exited;
    assert.ok(r.signal === null, `unexpected end: ${r.code} ${r.signal} ${r.stderr}`);
    if (r.code !== 0) continue;
    crashes ||= crashSeen(out);
    if (coordinatorKills >= 5 && workerKills >= 20) break;
    await verifyFolder(out, file, refOut, total, orphans);
    orphans = [];
    ({ out, file } = folderOf(++folder));
  }
  assert.ok(coordinatorKills >= 5 && workerKills >= 20);
  await verifyFolder(out, file, refOut, total, orphans);
  crashes ||= crashSeen(out);
  assert.ok(crashes, 'worker deaths were seen as crashes');
  assert.ok(validFilesSeen >= 1, 'at least one kill point had a layouts.h5 to check');
  t.diagnostic(
    `${coordinatorKills} coordinator kills, ${workerKills} worker kills, ${validFilesSeen} kill points with a layouts.h5 checked, ${restarts} starts, ${folder + 1} campaign folders`,
  );
}

for (const executor of EXECUTORS) {
  describe(`executor contract: ${executor}`, { skip: executorUnavailable(executor) }, () => {
    executorHooks(executor);
    test('chaos: coordinator and worker SIGKILLs lose nothing and change nothing', { timeout: 240_000 }, chaos);
  });
}
