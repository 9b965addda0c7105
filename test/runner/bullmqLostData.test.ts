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
import { noopCampaign, runWflo, tempDir, writeCampaign, startWflo, collect, waitFor, ledgerSnapshot } from './runnerTestKit.js';
import { computedRows, killAllWorkers, killWorker, startWorker, waitUntil } from './bullmqKit.js';

const skip = hasRedisServer() ? false : 'redis-server is not installed (apt-get install redis-server)';
const servers: RedisServer[] = [];
after(async () => {
  killAllWorkers();
  for (const s of servers) await s.stop();
});

for (const loss of ['FLUSHALL', 'restart without its data'] as const) {
  test(`queue run survives a Redis that lost its data (${loss})`, { skip, timeout: 120_000 }, async () => {
    const redis = await RedisServer.start();
    servers.push(redis);
    const dir = tempDir('bullmq-lost');
    const c = (out: string): Record<string, unknown> => ({ ...noopCampaign(out, 8, { sleep_ms: 150 }), workers: 2 });
    const ref = await runWflo(['run', writeCampaign(path.join(dir, 'local.yaml'), c(path.join(dir, 'local'))), '--quiet']);
    assert.equal(ref.code, 0, ref.stderr);
    const worker = startWorker(['--queue', redis.url, '--concurrency', '2']);
    assert.ok(await waitUntil(() => /job processes, queue/.test(worker.log()), 20_000), worker.log());
    const out = path.join(dir, 'queue');
    const run = startWflo(['run', writeCampaign(path.join(dir, 'queue.yaml'), c(out)), '--queue', redis.url, '--log-every', '1000']);
    const done = collect(run);
    assert.ok(await waitFor(() => { try { return ledgerSnapshot(out).done.length >= 3; } catch { return false; } }, 60_000), 'the run got going');
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
    assert.deepEqual(computedRows(out), computedRows(path.join(dir, 'local')));
    await killWorker(worker);
  });
}
