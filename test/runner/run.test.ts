/**
 * `wflo run` end to end on cheap noop campaigns: results, resume, retries, crashes, timeouts,
 * max_failures, Ctrl-C, stale tasks, status during a run, missing + rerun, export.
 */
import test, { describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { readLayoutsFile } from '../../src/io/hdf5/index.js';
import { parseCampaign } from '../../src/campaign/loadCampaign.js';
import { caseForTask } from '../../src/campaign/caseForTask.js';
import { randomInitialLayout } from '../../src/runner/noopOptimizer.js';
import { computeAep } from '../../src/physics/aep.js';
import {
  EXECUTORS,
  IEA37_DATA,
  auditEvents,
  collect,
  executorHooks,
  executorUnavailable,
  ledgerSnapshot,
  noopCampaign,
  runWflo,
  startWflo,
  tempDir,
  waitFor,
  writeCampaign,
} from './runnerTestKit.js';

/** Resume tests of the executor contract (issue 9): registered once per executor, at the end. */
const contractTests: [string, () => Promise<void>][] = [];
function contract(name: string, fn: () => Promise<void>): void {
  contractTests.push([name, fn]);
}

function setup(
  prefix: string,
  seeds: number,
  edit: (c: Record<string, unknown>) => void = () => {},
): { dir: string; out: string; file: string; campaign: Record<string, unknown> } {
  const dir = tempDir(prefix);
  const out = path.join(dir, 'out');
  const campaign = noopCampaign(out, seeds);
  edit(campaign);
  const file = writeCampaign(path.join(dir, 'campaign.yaml'), campaign);
  return { dir, out, file, campaign };
}

/**
 * One finished run of the plain 3-seed noop campaign (12 tasks), made on first use and shared by
 * the tests that start from a finished campaign; each works on a copy of its output folder, with
 * a campaign file of its own naming that copy.
 */
let finishedRun: Promise<string> | null = null;
async function copyOfFinishedRun(prefix: string): Promise<{ dir: string; out: string; file: string; campaign: Record<string, unknown> }> {
  finishedRun ??= (async () => {
    const { out, file } = setup('finished', 3);
    const r = await runWflo(['run', file]);
    assert.equal(r.code, 0, r.stderr);
    return out;
  })();
  const source = await finishedRun;
  const dir = tempDir(prefix);
  const out = path.join(dir, 'out');
  fs.cpSync(source, out, { recursive: true });
  const campaign = noopCampaign(out, 3);
  const file = writeCampaign(path.join(dir, 'campaign.yaml'), campaign);
  return { dir, out, file, campaign };
}

contract('a campaign runs to completion; rows match an independent recomputation; a rerun does nothing', async () => {
  const { out, file } = setup('run', 5);
  const r = await runWflo(['run', file]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /20\/20 done \(20 this run\), 0 failed/);
  const snap = ledgerSnapshot(out);
  assert.equal(snap.done.length, 20);
  assert.equal(snap.integrity, 'ok');

  const { info, records } = await readLayoutsFile(path.join(out, 'layouts.h5'));
  assert.equal(records.length, 20);
  assert.equal(info.complete, true);
  assert.equal(info.nExpected, 20);
  assert.equal(info.campaignName, 'test-campaign');
  const sorted = [...records].sort((a, b) => a.farmId - b.farmId || a.farmType - b.farmType || a.seed - b.seed);
  assert.deepEqual(
    records.map((x) => x.taskId),
    sorted.map((x) => x.taskId),
  );
  // The stored layout is the seed's start layout, and its AEP is the physics engine's value.
  const c = parseCampaign(fs.readFileSync(file, 'utf8'), file);
  for (const rec of [records[0], records[13]]) {
    const k = caseForTask(c.farms.find((f) => f.id === rec.farmId)!, c.farmTypes.find((t) => t.id === rec.farmType)!);
    const expected = randomInitialLayout(k, rec.seed);
    assert.deepEqual(Array.from(rec.x), Array.from(expected.x));
    assert.deepEqual(Array.from(rec.y), Array.from(expected.y));
    assert.equal(rec.aep, computeAep(expected.x, expected.y, k.turbine, k.wind, k.model).aepMwh);
    assert.equal(rec.nTurbines, k.nTurbines);
  }

  const before = fs.statSync(path.join(out, 'layouts.h5')).mtimeMs;
  const again = await runWflo(['run', file]);
  assert.equal(again.code, 0, again.stderr);
  assert.match(again.stdout, /20\/20 done \(0 this run\)/);
  assert.equal(fs.statSync(path.join(out, 'layouts.h5')).mtimeMs, before, 'nothing new: layouts.h5 untouched');
  const events = auditEvents(out);
  assert.equal(events.filter((e) => e.event === 'attempt' && e.outcome === 'done').length, 20, 'each task computed once');
  assert.equal(events.filter((e) => e.event === 'resume').length, 1);
});

contract('failing tasks are retried with backoff, then recorded as failed; --retry-failed reruns them', async () => {
  const { out, file } = setup('fail', 3, (c) => {
    c.optimizer = { method: 'noop', fail_seeds: [1], faults_until_attempt: 3 };
    c.attempts = 2;
  });
  const r = await runWflo(['run', file]);
  assert.equal(r.code, 1);
  assert.match(r.stderr.trim().split('\n').pop()!, /^wflo: 4 tasks failed; see `wflo status .*`, rerun them with --retry-failed$/);
  const snap = ledgerSnapshot(out);
  assert.equal(snap.done.length, 8);
  assert.deepEqual(snap.failed, ['farm_0_type_0_seed_1', 'farm_0_type_1_seed_1', 'farm_1_type_0_seed_1', 'farm_1_type_1_seed_1']);
  const events = auditEvents(out);
  assert.equal(events.filter((e) => e.event === 'retry').length, 4);
  assert.equal(events.filter((e) => e.event === 'failed').length, 4);

  const status = await runWflo(['status', out, '--json']);
  assert.equal(status.code, 0);
  const s = JSON.parse(status.stdout);
  assert.deepEqual([s.total, s.done, s.failed, s.running, s.pending, s.stale], [12, 8, 4, 0, 0, 0]);
  assert.match(s.failures[0].error, /injected failure for seed 1 \(attempt 2\)/);

  const missing = await runWflo(['missing', out]);
  assert.equal(missing.code, 3, 'tasks are missing: a check that found problems exits 3');
  assert.equal(missing.stdout.trim().split('\n').length, 4);
  assert.match(missing.stdout, /farm_1_type_1_seed_1\tfailed/);

  const plain = await runWflo(['run', file]);
  assert.equal(plain.code, 1, 'failed tasks are not retried without --retry-failed');
  assert.match(plain.stdout, /\(0 this run\)/);
  const retry = await runWflo(['run', file, '--retry-failed']);
  assert.equal(retry.code, 0, retry.stderr);
  assert.match(retry.stdout, /12\/12 done \(4 this run\)/);
  const attempts = auditEvents(out)
    .filter((e) => e.event === 'attempt' && e.task === 'farm_0_type_0_seed_1')
    .map((e) => [e.attempt, e.outcome]);
  assert.deepEqual(
    attempts,
    [
      [1, 'error'],
      [2, 'error'],
      [3, 'done'],
    ],
    'attempt numbers continue across runs',
  );
});

contract('a worker that dies loses only its task, which is retried', async () => {
  const { out, file } = setup('crash', 4, (c) => {
    c.optimizer = { method: 'noop', crash_seeds: [2], faults_until_attempt: 2 };
  });
  const r = await runWflo(['run', file]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(ledgerSnapshot(out).done.length, 16);
  const crashes = auditEvents(out).filter((e) => e.event === 'attempt' && e.outcome === 'crash');
  assert.equal(crashes.length, 4);
  assert.match(String(crashes[0].error), /(worker|job) process \d+ died \(signal SIGKILL\)/);
});

contract('a task over the timeout has its worker killed and is failed; the rest complete', async () => {
  const { out, file } = setup('timeout', 2, (c) => {
    c.optimizer = { method: 'noop', hang_seeds: [1] };
    c.timeout_s = 0.5;
    c.attempts = 1;
    c.farms = [(c.farms as unknown[])[0]];
  });
  const r = await runWflo(['run', file]);
  assert.equal(r.code, 1);
  const snap = ledgerSnapshot(out);
  assert.equal(snap.done.length, 2);
  assert.deepEqual(snap.failed, ['farm_0_type_0_seed_1', 'farm_0_type_1_seed_1']);
  const events = auditEvents(out);
  assert.equal(events.filter((e) => e.event === 'timeout').length, 2);
  assert.match(String(events.find((e) => e.event === 'failed')!.error), /timed out after 0.5 s/);
});

test('max_failures stops dispatching with a clear message', async () => {
  const { out, file } = setup('maxfail', 10, (c) => {
    c.optimizer = { method: 'noop', fail_seeds: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], sleep_ms: 20 };
    c.attempts = 1;
    c.max_failures = 3;
    c.workers = 1;
  });
  const r = await runWflo(['run', file]);
  assert.equal(r.code, 1);
  assert.match(r.stderr.trim().split('\n').pop()!, /^wflo: stopped: \d+ tasks failed in this run \(max_failures: 3\)/);
  const snap = ledgerSnapshot(out);
  assert.ok(snap.failed.length >= 3 && snap.failed.length < 40, `failed ${snap.failed.length}`);
  assert.equal(auditEvents(out).filter((e) => e.event === 'max_failures').length, 1);
});

contract('Ctrl-C stops cleanly: finished tasks kept, layouts.h5 valid, resume completes', async () => {
  const { out, file } = setup('sigint', 10, (c) => {
    c.optimizer = { method: 'noop', sleep_ms: 100 };
  });
  const child = startWflo(['run', file]);
  const done = collect(child);
  await waitFor(() => {
    try {
      return ledgerSnapshot(out).done.length >= 4;
    } catch {
      return false;
    }
  }, 20_000);
  child.kill('SIGINT');
  const r = await done;
  assert.equal(r.code, 130, r.stderr);
  assert.match(r.stderr, /interrupted: \d+\/40 tasks done and kept/);
  const kept = ledgerSnapshot(out).done.length;
  assert.ok(kept >= 4 && kept < 40, `kept ${kept}`);
  const { records } = await readLayoutsFile(path.join(out, 'layouts.h5'));
  assert.equal(records.length, kept, 'the final export holds every kept task');
  assert.ok(auditEvents(out).some((e) => e.event === 'interrupted'));
  const resume = await runWflo(['run', file]);
  assert.equal(resume.code, 0, resume.stderr);
  assert.match(resume.stdout, new RegExp(`40/40 done \\(${40 - kept} this run\\)`));
});

test('status reads the ledger during a run (running tasks, --json keys)', async () => {
  // 12 tasks of 1.2 s on 2 workers: about 7 s in which status is asked until it sees running tasks.
  const { out, file } = setup('status', 3, (c) => {
    c.optimizer = { method: 'noop', sleep_ms: 1200 };
  });
  const child = startWflo(['run', file]);
  let exited = false;
  const finished = collect(child).finally(() => {
    exited = true;
  });
  let seen: Record<string, unknown> | null = null;
  await waitFor(() => fs.existsSync(path.join(out, 'ledger.sqlite')), 20_000);
  // Ask until it answers with running tasks, for as long as the run lasts (a loaded machine
  // starts each status slowly; a count of tries could end before the run does, or after).
  while (!seen && !exited) {
    const s = await runWflo(['status', out, '--json']);
    if (s.code === 0) {
      const j = JSON.parse(s.stdout) as Record<string, unknown>;
      if ((j.running as number) > 0) seen = j;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const r = await finished;
  assert.equal(r.code, 0, r.stderr);
  assert.ok(seen, 'status saw running tasks');
  for (const key of ['total', 'done', 'failed', 'running', 'pending', 'stale']) assert.equal(typeof seen![key], 'number', key);
  const s = seen as { total: number; done: number; failed: number; running: number; pending: number; stale: number; run: { state: string } };
  assert.equal(s.total, 12);
  assert.equal(s.done + s.failed + s.running + s.pending + s.stale, 12);
  assert.equal(s.run.state, 'running');
  const text = await runWflo(['status', out]);
  assert.match(text.stdout, /12\/12 done, 0 failed, 0 running, 0 pending, 0 stale \(complete\)/);
  assert.match(text.stdout, /farm {2}type {2}total/);
});

test('editing a farm reruns just that farm', async () => {
  const { out, file, campaign } = await copyOfFinishedRun('stale');
  (campaign.farms as Record<string, unknown>[])[1].boundary = {
    polygon: [
      [0, 0],
      [3200, 0],
      [3200, 2000],
      [0, 2000],
    ],
  };
  writeCampaign(file, campaign);
  const r = await runWflo(['run', file]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /12\/12 done \(6 this run\)/);
  const doneEvents = auditEvents(out).filter((e) => e.event === 'attempt' && e.outcome === 'done');
  assert.equal(doneEvents.length, 18);
  assert.deepEqual([...new Set(doneEvents.slice(12).map((e) => String(e.task).split('_type')[0]))], ['farm_1']);
  assert.equal(auditEvents(out).find((e) => e.event === 'resume')!.stale, 6);
});

test('missing --write gives a campaign, in another folder, that wflo run accepts and that fills the gaps', async () => {
  const { dir, out, file } = setup('missing', 3, (c) => {
    c.optimizer = { method: 'noop', sleep_ms: 150 };
    c.workers = 1;
    // A file reference, relative to the campaign file, must still resolve from the new file's folder.
    fs.mkdirSync(path.join(path.dirname(String(c.output)), 'winds'), { recursive: true });
    fs.copyFileSync(path.join(IEA37_DATA, 'cs1-2', 'iea37-windrose.yaml'), path.join(path.dirname(String(c.output)), 'winds', 'rose.yaml'));
    (c.farms as Record<string, unknown>[])[1].wind = 'winds/rose.yaml';
  });
  const child = startWflo(['run', file]);
  const res = collect(child);
  await waitFor(() => {
    try {
      return ledgerSnapshot(out).done.length >= 3;
    } catch {
      return false;
    }
  }, 20_000);
  child.kill('SIGINT');
  assert.equal((await res).code, 130);
  const keptBefore = ledgerSnapshot(out).done;
  const missingFile = path.join(dir, 'sub', 'missing.yaml');
  fs.mkdirSync(path.dirname(missingFile));
  const m = await runWflo(['missing', out, '--write', missingFile]);
  assert.equal(m.code, 3, m.stderr);
  assert.equal(m.stdout.trim().split('\n').length, 12 - keptBefore.length);
  assert.match(fs.readFileSync(missingFile, 'utf8'), /wind: \.\.\/winds\/rose\.yaml/);
  // The file names the campaign's files outside its own folder: refused unless the operator allows it, as said.
  assert.match(m.stderr, /run it with `wflo --allow-include-outside run \S+missing\.yaml`/);
  const refused = await runWflo(['run', missingFile]);
  assert.equal(refused.code, 2, refused.stderr);
  assert.match(
    refused.stderr,
    /farms\[1\]\.wind: .*winds\/rose\.yaml is outside the folder .*sub of the file naming it; refused unread \(--allow-include-outside allows it\)/,
  );
  // (the runner's test CLI, test/runner/wfloCli.ts, takes the option's environment form)
  const rerun = await runWflo(['run', missingFile], { env: { WFLO_ALLOW_INCLUDE_OUTSIDE: '1' } });
  assert.equal(rerun.code, 0, rerun.stderr);
  assert.match(rerun.stdout, new RegExp(`12/12 done \\(${12 - keptBefore.length} this run\\)`));
  const doneEvents = auditEvents(out)
    .filter((e) => e.event === 'attempt' && e.outcome === 'done')
    .map((e) => String(e.task));
  assert.equal(new Set(doneEvents).size, doneEvents.length, 'no task computed twice');
  const after = await runWflo(['missing', out, '--write', path.join(dir, 'none.yaml')]);
  assert.match(after.stderr, /0 of 12 tasks not done/);
  assert.equal(fs.existsSync(path.join(dir, 'none.yaml')), false);
});

test('wflo export rebuilds layouts.h5 from the ledger, to -o FILE too', async () => {
  const { out } = await copyOfFinishedRun('export');
  fs.rmSync(path.join(out, 'layouts.h5'));
  const r = await runWflo(['export', out]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /12 rows of 12 tasks \(complete\)/);
  const other = path.join(out, 'copy.h5');
  assert.equal((await runWflo(['export', out, '-o', other])).code, 0);
  const a = await readLayoutsFile(path.join(out, 'layouts.h5'));
  const b = await readLayoutsFile(other);
  assert.deepEqual(b.records, a.records);
  const none = await runWflo(['export', path.join(out, 'nothing-here')]);
  assert.equal(none.code, 2);
  assert.match(none.stderr, /^wflo: .*no campaign ledger here/);
});

for (const executor of EXECUTORS) {
  describe(`executor contract: ${executor}`, { skip: executorUnavailable(executor) }, () => {
    executorHooks(executor);
    for (const [name, fn] of contractTests) test(name, fn);
  });
}
