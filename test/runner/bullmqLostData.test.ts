/**
 * A Redis that loses its data mid-run (FLUSHALL, or a restart with its files deleted) is noticed
 * by the coordinator within a sweep, said in one line, and the queue refilled without any restart
 * of the coordinator or the workers; the run ends complete with the rows of a local run.
 */
import test, { after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { Redis } from 'ioredis';
import { hasRedisServer, RedisServer } from '../helpers/redisServer.js';
import { queueNameFor } from '../../src/runner/executors/bullmq/queueNames.js';
import { noopCampaign, runWflo, tempDir, writeCampaign, startWflo, collect, waitFor, ledgerSnapshot, type CliResult } from './runnerTestKit.js';
import type { ChildProcess } from 'node:child_process';
import { computedRows, killAllWorkers, killWorker, startWorker, waitUntil } from './bullmqKit.js';

const skip = hasRedisServer() ? false : 'redis-server is not installed (apt-get install redis-server)';
const servers: RedisServer[] = [];
after(async () => {
  killAllWorkers();
  for (const s of servers) await s.stop();
});

/** The rows of a local run of a campaign: run once per campaign (by key) for the tests of this file that compare with it. */
const localRuns = new Map<string, Promise<Record<string, unknown>[]>>();
function localRows(key: string, c: (out: string) => Record<string, unknown>): Promise<Record<string, unknown>[]> {
  if (!localRuns.has(key)) {
    localRuns.set(
      key,
      (async () => {
        const dir = tempDir(`${key}-local`);
        const ref = await runWflo(['run', writeCampaign(path.join(dir, 'local.yaml'), c(path.join(dir, 'local'))), '--quiet']);
        assert.equal(ref.code, 0, ref.stderr);
        return computedRows(path.join(dir, 'local'));
      })(),
    );
  }
  return localRuns.get(key)!;
}

for (const loss of ['FLUSHALL', 'restart without its data'] as const) {
  test(`queue run survives a Redis that lost its data (${loss})`, { skip, timeout: 120_000 }, async () => {
    const redis = await RedisServer.start();
    servers.push(redis);
    const dir = tempDir('bullmq-lost');
    const c = (out: string): Record<string, unknown> => ({ ...noopCampaign(out, 8, { sleep_ms: 150 }), workers: 2 });
    const local = await localRows('lost-data', c);
    const worker = startWorker(['--queue', redis.url, '--concurrency', '2']);
    assert.ok(await waitUntil(() => /job processes, queue/.test(worker.log()), 20_000), worker.log());
    const out = path.join(dir, 'queue');
    const run = startWflo(['run', writeCampaign(path.join(dir, 'queue.yaml'), c(out)), '--queue', redis.url, '--log-every', '1000']);
    const done = collect(run);
    assert.ok(
      await waitFor(() => {
        try {
          return ledgerSnapshot(out).done.length >= 3;
        } catch {
          return false;
        }
      }, 60_000),
      'the run got going',
    );
    if (loss === 'FLUSHALL') {
      const client = new Redis(redis.url);
      await client.flushall();
      client.disconnect();
    } else {
      await redis.restartEmpty();
    }
    const r = await done;
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /lost its data \(FLUSHALL, or restarted without persistence\)|queued tasks? (was|were) missing/);
    assert.deepEqual(computedRows(out), local);
    await killWorker(worker);
  });
}

/** Queue keys of this engine's queue (queueNames.ts). */
const key = (name: string): string => `wflo:${queueNameFor()}:${name}`;

/**
 * A local reference run of a 12-task noop campaign (once for the file), then the same campaign as a queue run with
 * no worker yet: resolves once its 12 jobs wait in Redis. `scenario` does the rest; the queue
 * run must end with the local run's rows. Everything started is stopped, also on failure.
 */
async function queuedRun(name: string, scenario: (q: { redis: RedisServer; client: Redis; run: ChildProcess }) => Promise<void>): Promise<CliResult> {
  const redis = await RedisServer.start();
  servers.push(redis);
  const dir = tempDir(name);
  const c = (out: string): Record<string, unknown> => noopCampaign(out, 3, { sleep_ms: 20 });
  const local = await localRows('queued', c);
  const client = new Redis(redis.url);
  const out = path.join(dir, 'queue');
  const run = startWflo(['run', writeCampaign(path.join(dir, 'queue.yaml'), c(out)), '--queue', redis.url, '--log-every', '1000']);
  try {
    const done = collect(run);
    assert.ok(await waitUntil(async () => (await client.llen(key('wait'))) === 12, 30_000), 'the coordinator enqueued its jobs');
    await scenario({ redis, client, run });
    const r = await done;
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(computedRows(out), local);
    return r;
  } finally {
    try {
      process.kill(run.pid!, 'SIGKILL');
    } catch {
      /* ended */
    }
    client.disconnect();
  }
}

test('results hidden behind 1500 newer foreign finished ids, with the events lost, are still collected (each job looked up by its own id)', {
  skip,
  timeout: 120_000,
}, async () => {
  await queuedRun('bullmq-hidden', async ({ redis, client, run }) => {
    process.kill(run.pid!, 'SIGSTOP');
    const worker = startWorker(['--queue', redis.url, '--concurrency', '2']);
    assert.ok(await waitUntil(async () => (await client.zcard(key('completed'))) === 12, 60_000), 'a worker finished every job');
    await killWorker(worker);
    // The events the coordinator would read are gone (a capped stream), and 1500 newer finished
    // ids of someone else's jobs fill the window a sweep of the completed set looks at.
    await client.xtrim(key('events'), 'MAXLEN', 0);
    const now = Date.now() + 60_000;
    const fake: (string | number)[] = [];
    for (let i = 0; i < 1500; i++) fake.push(now + i, `someone-else-${i}`);
    await client.zadd(key('completed'), ...fake);
    process.kill(run.pid!, 'SIGCONT');
  });
});

test('a job whose hash exists but that sits in no list (an enqueue that failed halfway) is enqueued again, not waited for', {
  skip,
  timeout: 120_000,
}, async () => {
  let worker: ReturnType<typeof startWorker> | null = null;
  const r = await queuedRun('bullmq-orphan', async ({ redis, client }) => {
    // Every job leaves the wait list; its hash stays: a job in no list, that adding again cannot fix.
    await client.del(key('wait'));
    worker = startWorker(['--queue', redis.url, '--concurrency', '2']);
  });
  await killWorker(worker!);
  assert.match(r.stderr, /12 queued tasks were in no list of redis:.*; enqueued again/);
});
