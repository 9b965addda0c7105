/**
 * Deaths under the BullMQ executor, each against its own real redis-server (AOF, fsync always):
 * SIGKILL of a worker mid-task (its job is detected as stalled and runs on another worker), of
 * the coordinator (restarted: it collects what finished while it was away and adopts what is
 * still queued), and of Redis itself (restarted on the same AOF folder). Each ends with every task
 * done exactly once and the same rows as a local run of the same campaign.
 */
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { hasRedisServer, RedisServer } from '../helpers/redisServer.js';
import { auditEvents, collect, ledgerSnapshot, noopCampaign, runWflo, startWflo, tempDir, writeCampaign } from './runnerTestKit.js';
import { computedRows, killAllWorkers, killWorker, startWorker, waitUntil } from './bullmqKit.js';

const skip = hasRedisServer() ? false : 'redis-server is not installed (apt-get install redis-server)';
const TOTAL = 2 * 2 * 6;
const servers: RedisServer[] = [];
let reference: Record<string, unknown>[] = [];
let root = '';

function campaign(out: string): Record<string, unknown> {
  const c = noopCampaign(out, 6, { sleep_ms: 300 });
  c.attempts = 5;
  return c;
}

before(async () => {
  if (skip) return;
  root = tempDir('bullmq-chaos');
  const out = path.join(root, 'local');
  const r = await runWflo(['run', writeCampaign(path.join(root, 'local.yaml'), campaign(out)), '--quiet']);
  assert.equal(r.code, 0, r.stderr);
  reference = computedRows(out);
  assert.equal(reference.length, TOTAL);
});
after(async () => {
  killAllWorkers();
  for (const s of servers) await s.stop();
});

async function server(): Promise<RedisServer> {
  const s = await RedisServer.start();
  servers.push(s);
  return s;
}

function doneCount(out: string): number {
  try {
    return ledgerSnapshot(out).done.length;
  } catch {
    return 0;
  }
}

/** Every task done exactly once, rows equal to the local run's. */
function assertSameAsLocal(out: string): void {
  const snap = ledgerSnapshot(out);
  assert.equal(snap.integrity, 'ok');
  assert.equal(snap.done.length, TOTAL);
  assert.equal(snap.resultRows, TOTAL);
  assert.deepEqual(computedRows(out), reference);
  const commits = auditEvents(out)
    .filter((e) => e.event === 'attempt' && e.outcome === 'done')
    .map((e) => e.task as string);
  // The audit log of a SIGKILLed coordinator may miss its last lines, never hold a commit twice.
  assert.equal(new Set(commits).size, commits.length, 'no task committed twice');
}

test('SIGKILL of a worker mid-task: its job runs on another worker', { skip, timeout: 120_000 }, async () => {
  const redis = await server();
  const out = path.join(root, 'worker-kill');
  const w1 = startWorker(['--queue', redis.url, '--concurrency', '2']);
  const w2 = startWorker(['--queue', redis.url, '--concurrency', '2']);
  const coordinator = startWflo(['run', writeCampaign(path.join(root, 'worker-kill.yaml'), campaign(out)), '--queue', redis.url, '--log-every', '1']);
  const result = collect(coordinator);
  assert.ok(await waitUntil(() => doneCount(out) >= 4, 60_000), 'tasks got done');
  await killWorker(w1); // mid-task: jobs are 300 ms long and both its processes are busy
  const r = await result;
  assert.equal(r.code, 0, r.stderr);
  assertSameAsLocal(out);
  assert.match(r.stderr, /its worker stopped answering; the job runs again elsewhere/);
  await killWorker(w2);
});

test('SIGKILL of the coordinator, then a restart: results that finished meanwhile are collected', { skip, timeout: 120_000 }, async () => {
  const redis = await server();
  const out = path.join(root, 'coordinator-kill');
  const file = writeCampaign(path.join(root, 'coordinator-kill.yaml'), campaign(out));
  const w1 = startWorker(['--queue', redis.url, '--concurrency', '2']);
  const w2 = startWorker(['--queue', redis.url, '--concurrency', '2']);
  const first = startWflo(['run', file, '--queue', redis.url, '--quiet']);
  const firstExit = collect(first);
  assert.ok(await waitUntil(() => doneCount(out) >= 6, 60_000), 'tasks got done');
  first.kill('SIGKILL');
  await firstExit;
  const doneAtKill = doneCount(out);
  assert.ok(doneAtKill < TOTAL, 'killed before the end');
  await new Promise((r) => setTimeout(r, 1500)); // the workers keep going
  const second = await runWflo(['run', file, '--queue', redis.url, '--log-every', '1']);
  assert.equal(second.code, 0, second.stderr);
  assert.match(second.stderr, /resuming/);
  assertSameAsLocal(out);
  await killWorker(w1);
  await killWorker(w2);
});

test('SIGKILL of Redis, then a restart on the same AOF: nothing lost, nothing done twice', { skip, timeout: 120_000 }, async () => {
  const redis = await server();
  const out = path.join(root, 'redis-kill');
  const w1 = startWorker(['--queue', redis.url, '--concurrency', '2']);
  const w2 = startWorker(['--queue', redis.url, '--concurrency', '2']);
  const coordinator = startWflo(['run', writeCampaign(path.join(root, 'redis-kill.yaml'), campaign(out)), '--queue', redis.url, '--log-every', '1']);
  let err = '';
  coordinator.stderr!.on('data', (b: Buffer) => {
    err += b.toString();
  });
  const result = collect(coordinator);
  assert.ok(await waitUntil(() => doneCount(out) >= 6, 60_000), `tasks got done: ${err}\n${w1.log()}\n${w2.log()}`);
  await redis.kill9();
  await new Promise((r) => setTimeout(r, 1000));
  await redis.restart();
  const r = await result;
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /lost connection to redis:\/\/127\.0\.0\.1:\d+/);
  assertSameAsLocal(out);
  await killWorker(w1);
  await killWorker(w2);
});
