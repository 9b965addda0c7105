/**
 * The BullMQ executor against a real redis-server (Debian's, started by the test on a loopback
 * port with AOF on and a password): a coordinator and 2 worker processes give the same rows as a
 * local run (with retries and timeouts on the way); workers started before the coordinator wait
 * and then work; the password appears nowhere (output, audit log, ledger, layouts.h5, status);
 * wrong password, unreachable host, wrong eviction policy and malformed URLs each give one line
 * and the documented exit code (1, 1, 1, 2).
 */
import { ENGINE_VERSION } from '../../src/version.js';
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { freePort, hasRedisServer, RedisServer } from '../helpers/redisServer.js';
import { auditEvents, ledgerSnapshot, noopCampaign, runWflo, tempDir, writeCampaign } from './runnerTestKit.js';
import { computedRows, killAllWorkers, killWorker, startWorker, waitUntil, type WorkerHandle } from './bullmqKit.js';

const PASSWORD = 'hunter2-s3cret';
const skip = hasRedisServer() ? false : 'redis-server is not installed (apt-get install redis-server)';
let redis: RedisServer | null = null;
const workers: WorkerHandle[] = [];

before(async () => {
  if (!skip) redis = await RedisServer.start({ password: PASSWORD });
});
after(async () => {
  killAllWorkers();
  await redis?.stop();
});

function campaign(out: string): Record<string, unknown> {
  // Seed 3 fails and seed 1 hangs (killed at the 1 s timeout) on their first attempt: retried.
  const c = noopCampaign(out, 5, { fail_seeds: [3], hang_seeds: [1], faults_until_attempt: 2, sleep_ms: 20 });
  c.timeout_s = 1;
  return c;
}

function oneLine(stderr: string): string {
  const lines = stderr.trim().split('\n');
  assert.equal(lines.length, 1, `expected one line, got:\n${stderr}`);
  return lines[0];
}

test('coordinator + 2 workers (started first) = a local run; the password appears nowhere', { skip, timeout: 90_000 }, async () => {
  const dir = tempDir('bullmq-queue');
  const refOut = path.join(dir, 'local');
  const out = path.join(dir, 'queue');
  const url = redis!.url;
  for (let i = 0; i < 2; i++) workers.push(startWorker(['--queue', url, '--concurrency', '2']));
  assert.ok(await waitUntil(() => workers.every((w) => /job processes, queue/.test(w.log())), 20_000), workers.map((w) => w.log()).join('\n'));

  const ref = await runWflo(['run', writeCampaign(path.join(dir, 'local.yaml'), campaign(refOut)), '--quiet']);
  assert.equal(ref.code, 0, ref.stderr);
  const run = await runWflo(['run', writeCampaign(path.join(dir, 'queue.yaml'), campaign(out)), '--log-every', '1'], { env: { WFLO_QUEUE: url } });
  assert.equal(run.code, 0, run.stderr);

  const expected = computedRows(refOut);
  assert.equal(expected.length, 20);
  assert.deepEqual(computedRows(out), expected);
  const snap = ledgerSnapshot(out);
  assert.equal(snap.done.length, 20);
  assert.equal(snap.resultRows, 20);
  const audit = auditEvents(out);
  assert.equal(audit.filter((e) => e.event === 'timeout').length, 4, 'the 4 hanging tasks time out once each');
  assert.ok(audit.filter((e) => e.event === 'attempt' && e.outcome === 'done').every((e) => typeof e.worker_pid === 'number' && e.worker_pid !== process.pid));
  assert.equal(new Set(audit.filter((e) => e.event === 'attempt' && e.outcome === 'done').map((e) => e.task)).size, 20);
  assert.equal(audit.find((e) => e.event === 'run_start')?.executor, 'bullmq');

  // Worker records are refreshed by heartbeats: wait for the counts of the last tasks.
  let status = await runWflo(['status', out, '--queue', url]);
  const doneIn = (text: string): number => [...text.matchAll(/pid \d+: (\d+) done/g)].reduce((sum, m) => sum + Number(m[1]), 0);
  for (let i = 0; i < 10 && doneIn(status.stdout) < 20; i++) {
    await new Promise((r) => setTimeout(r, 500));
    status = await runWflo(['status', out, '--queue', url]);
  }
  assert.equal(status.code, 0, status.stderr);
  assert.match(status.stdout, new RegExp(`queue ${ENGINE_VERSION} at redis://:\\*\\*\\*@127\\.0\\.0\\.1:\\d+: 0 waiting, 0 running, 0 finished`));
  assert.match(status.stdout, /workers \(2\)/);
  assert.ok(doneIn(status.stdout) >= 20, status.stdout);
  const statusJson = await runWflo(['status', out, '--json'], { env: { WFLO_QUEUE: url } });
  assert.equal(JSON.parse(statusJson.stdout).queue.workers.length, 2);

  const texts = [run.stdout, run.stderr, status.stdout, statusJson.stdout, ...workers.map((w) => w.log())];
  for (const f of ['audit.jsonl', 'layouts.h5', 'ledger.sqlite']) texts.push(fs.readFileSync(path.join(out, f)).toString('latin1'));
  for (const t of texts) assert.ok(!t.includes(PASSWORD), 'the Redis password leaked');
  assert.match(run.stderr, /redis:\/\/:\*\*\*@127\.0\.0\.1/);
  for (const w of workers.splice(0)) await killWorker(w);
});

test('wrong password, unreachable host, bad eviction policy, malformed URL: one line, exit 1/1/1/2', { skip, timeout: 60_000 }, async (t) => {
  const dir = tempDir('bullmq-bad');
  const file = writeCampaign(path.join(dir, 'c.yaml'), noopCampaign(path.join(dir, 'out'), 2));
  const lru = await RedisServer.start({ maxmemoryPolicy: 'allkeys-lru' });
  t.after(() => lru.stop());
  const deadPort = await freePort();
  const cases: [string, string, number, RegExp][] = [
    ['wrong password', `redis://:wrong-pw@127.0.0.1:${redis!.port}`, 1, /authentication failed/],
    ['unreachable', `redis://127.0.0.1:${deadPort}`, 1, /cannot reach the queue at redis:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\)/],
    ['eviction policy', lru.url, 1, /maxmemory-policy is 'allkeys-lru', the queue needs 'noeviction'/],
    ['malformed', 'redis://:wrong-pw@127.0.0.1:notaport', 2, /^wflo: --queue: /],
  ];
  for (const [name, url, code, message] of cases) {
    const r = await runWflo(['run', file, '--queue', url, '--quiet']);
    assert.equal(r.code, code, `${name} (run): ${r.stderr}`);
    const line = oneLine(r.stderr);
    assert.match(line, message, name);
    assert.ok(!line.includes('wrong-pw'), line);
    const w = startWorker(['--queue', url]);
    const exit = await w.exited;
    assert.equal(exit.code, code, `${name} (worker): ${w.log()}`);
    assert.match(oneLine(w.log()), message, `${name} (worker)`);
  }
  // Nothing was started in the output folder by a run refused at the door.
  assert.equal(fs.existsSync(path.join(dir, 'out', 'ledger.sqlite')), false);
  const st = await runWflo(['status', path.join(dir, 'out'), '--queue', `redis://127.0.0.1:${deadPort}`]);
  assert.notEqual(st.stdout.length + st.stderr.length, 0);
});

test('a hostile job put on the queue by hand is rejected by the worker before anything runs', { skip, timeout: 60_000 }, async () => {
  const { Queue, QueueEvents } = await import('bullmq');
  const { Redis } = await import('ioredis');
  const conn = (): InstanceType<typeof Redis> => new Redis({ host: '127.0.0.1', port: redis!.port, password: PASSWORD, maxRetriesPerRequest: null });
  const [qc, ec] = [conn(), conn()];
  const queue = new Queue(ENGINE_VERSION, { connection: qc, prefix: 'wflo' });
  const events = new QueueEvents(ENGINE_VERSION, { connection: ec, prefix: 'wflo' });
  const w = startWorker(['--queue', redis!.url, '--concurrency', '1']);
  try {
    await events.waitUntilReady();
    const failed = new Promise<string>((resolve) =>
      events.on('failed', ({ jobId, failedReason }) => {
        if (jobId === 'evil') resolve(failedReason);
      }),
    );
    await queue.add(
      'evil',
      { v: 1, engine: ENGINE_VERSION, taskId: 'farm_0_type_0_seed_0', optimizer: { method: 'noop', crash_seeds: [0] }, constructor: { prototype: 1 } },
      { jobId: 'evil' },
    );
    const reason = await failed;
    assert.match(reason, /^job evil: payload rejected: /);
    assert.match(w.log(), /job evil: payload rejected/);
  } finally {
    await killWorker(w);
    await events.close();
    await queue.close();
    qc.disconnect();
    ec.disconnect();
  }
});
