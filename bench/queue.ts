/**
 * Queue benchmarks (`node dist/bench/run.js queue`), next to the local executor's figures:
 * - throughput: no-op tasks committed to the ledger per second, through Redis with 2 `wflo worker`
 *   processes (2 job processes each), and with the local pool of 2 workers; warm-up, then 5
 *   repeats of 5000 tasks, median;
 * - memory: the coordinator's peak RSS with 100 000 tasks queued in Redis at once (no workers,
 *   WFLO_QUEUE_MAX_QUEUED=100000), and Redis memory per queued task (INFO memory, used_memory
 *   before and after);
 *   measured twice: as shipped, and with NODE_OPTIONS=--max-old-space-size=150 (how much is live);
 * Redis runs with appendonly yes, appendfsync everysec, noeviction (docs/many-machines.md).
 * WFLO_BENCH_QUEUE=throughput|memory runs one part; WFLO_BENCH_QUEUE_SKIP_LOCAL=1 skips the local
 * 100 000-task run.
 * Targets from issue 9: >= 2000 tasks/s, <= 300 MB. Figures only, no pass/fail.
 */
import { ENGINE_VERSION } from '../src/version.js';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { Redis } from 'ioredis';
import { stringify } from 'yaml';
import { RedisServer } from '../test/helpers/redisServer.js';

const CLI = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));

function noopCampaign(name: string, out: string, seedStart: number, seeds: number): Record<string, unknown> {
  return {
    name,
    output: out,
    farms: [{ id: 0, case: 'iea37-cs1-16' }],
    farm_types: [{ id: 0, turbine: 'iea37-3.35mw', n_turbines: 4 }],
    seeds: { start: seedStart, count: seeds },
    optimizer: { method: 'noop' },
    workers: 2,
    export: { every_results: 10_000_000, every_s: 1_000_000 },
  };
}

function start(
  args: string[],
  env: Record<string, string> = {},
): { child: ChildProcess; done: Promise<{ code: number | null; stderr: string; peakRssMb: number }>; peakRssMb: () => number } {
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...env } });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (s: string) => {
    stderr += s;
  });
  let peakKb = 0;
  const sample = (): void => {
    try {
      const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${child.pid}/status`, 'utf8'));
      if (m) peakKb = Math.max(peakKb, Number(m[1]));
    } catch {
      /* exited */
    }
  };
  const poll = setInterval(sample, 100);
  const done = new Promise<{ code: number | null; stderr: string; peakRssMb: number }>((resolve) =>
    child.on('close', (code) => {
      clearInterval(poll);
      resolve({ code, stderr, peakRssMb: peakKb / 1024 });
    }),
  );
  return {
    child,
    done,
    peakRssMb: () => {
      sample();
      return peakKb / 1024;
    },
  };
}

function commitRate(out: string): number {
  const db = new Database(path.join(out, 'ledger.sqlite'), { readonly: true });
  try {
    const [n, first, last] = db.prepare('SELECT COUNT(*), MIN(committed_at), MAX(committed_at) FROM results').raw().get() as [number, number, number];
    return (n - 1) / Math.max(1e-9, last - first);
  } finally {
    db.close();
  }
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function usedMemory(r: Redis): Promise<number> {
  const info = await r.info('memory');
  return Number(/used_memory:(\d+)/.exec(info)![1]);
}

export async function benchQueue(): Promise<void> {
  console.log('\n## queue (BullMQ on Redis) vs local pool');
  if (!fs.existsSync('/usr/bin/redis-server')) throw new Error('redis-server is not installed');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wflo-bench-queue-'));
  const redis = await RedisServer.start({ appendfsync: 'everysec' });
  const workers: ChildProcess[] = [];
  try {
    // Parts: WFLO_BENCH_QUEUE=throughput or =memory runs just one.
    const only = process.env.WFLO_BENCH_QUEUE;
    // 1. Throughput.
    const N = 5000,
      REPEATS = only === 'memory' ? 0 : 5;
    const rates: Record<'queue' | 'local', number[]> = { queue: [], local: [] };
    for (let i = 0; i < 2; i++) workers.push(start(['worker', '--queue', redis.url, '--concurrency', '2']).child);
    for (let rep = 0; rep <= REPEATS && only !== 'memory'; rep++) {
      for (const mode of ['queue', 'local'] as const) {
        const out = path.join(dir, `${mode}-${rep}`);
        const file = path.join(dir, `${mode}-${rep}.yaml`);
        // Fresh seeds each repeat: every job is new to Redis.
        fs.writeFileSync(file, stringify(noopCampaign(`bench-${mode}-${rep}`, out, rep * N, rep === 0 ? 1000 : N)));
        const r = await start(['run', file, '--quiet', ...(mode === 'queue' ? ['--queue', redis.url] : [])]).done;
        if (r.code !== 0) throw new Error(`${mode} run failed: ${r.stderr.trim().split('\n').slice(-12).join(' | ')}`);
        if (rep > 0) rates[mode].push(commitRate(out));
      }
    }
    for (const w of workers.splice(0)) w.kill('SIGTERM');
    if (REPEATS > 0)
      console.log(
        `no-op tasks committed per second, 2 workers × 2 job processes through Redis: median ${median(rates.queue).toFixed(0)} tasks/s ` +
          `(${rates.queue.map((x) => x.toFixed(0)).join(', ')})  [target >= 2000/s]`,
      );
    if (REPEATS > 0)
      console.log(
        `no-op tasks committed per second, local pool of 2 workers:                  median ${median(rates.local).toFixed(0)} tasks/s ` +
          `(${rates.local.map((x) => x.toFixed(0)).join(', ')})`,
      );

    // 2. Memory with 100 000 queued tasks (no workers: everything stays queued).
    if (only === 'throughput') return;
    const client = new Redis({ host: '127.0.0.1', port: redis.port, maxRetriesPerRequest: null });
    try {
      // Twice: as shipped, and with the V8 heap capped, which shows how much of the peak is live
      // (the rest is payload JSON garbage V8 had no reason to collect yet).
      for (const [label, nodeOptions] of [
        ['', ''],
        [' (NODE_OPTIONS=--max-old-space-size=150)', '--max-old-space-size=150'],
      ] as const) {
        await client.flushall();
        const before = await usedMemory(client);
        const out = path.join(dir, `mem100k${nodeOptions ? '-capped' : ''}`);
        const file = path.join(dir, `mem100k${nodeOptions ? '-capped' : ''}.yaml`);
        fs.writeFileSync(file, stringify(noopCampaign('bench-mem', out, 0, 100_000)));
        const coord = start(['run', file, '--quiet', '--queue', redis.url], {
          WFLO_QUEUE_MAX_QUEUED: '100000',
          ...(nodeOptions ? { NODE_OPTIONS: nodeOptions } : {}),
        });
        const t0 = performance.now();
        let waiting = 0;
        while (performance.now() - t0 < 300_000) {
          waiting = await client.llen(`wflo:${ENGINE_VERSION}:wait`);
          if (waiting >= 100_000) break;
          await new Promise((r) => setTimeout(r, 250));
        }
        const enqueueS = (performance.now() - t0) / 1000;
        const after = await usedMemory(client);
        const peak = coord.peakRssMb();
        coord.child.kill('SIGKILL');
        await coord.done;
        console.log(
          `coordinator peak RSS with ${waiting} tasks queued in Redis${label}: ${peak.toFixed(0)} MB (enqueued in ${enqueueS.toFixed(1)} s)  [target <= 300 MB]`,
        );
        if (!nodeOptions) {
          console.log(
            `Redis memory per queued task (iea37-cs1-16 farm, 4 turbines; the job carries the whole farm): ${((after - before) / Math.max(1, waiting)).toFixed(0)} bytes ` +
              `(${((after - before) / 1e6).toFixed(0)} MB for ${waiting})`,
          );
        }
      }
      const local = path.join(dir, 'mem100k-local');
      const lfile = path.join(dir, 'mem100k-local.yaml');
      fs.writeFileSync(lfile, stringify(noopCampaign('bench-mem-local', local, 0, 100_000)));
      if (process.env.WFLO_BENCH_QUEUE_SKIP_LOCAL) return;
      const lr = await start(['run', lfile, '--quiet']).done;
      if (lr.code !== 0) throw new Error(`local 100k run failed: ${lr.stderr.trim().split('\n').pop()}`);
      console.log(`coordinator peak RSS, local pool, 100 000 no-op tasks: ${lr.peakRssMb.toFixed(0)} MB`);
    } finally {
      client.disconnect();
    }
  } finally {
    for (const w of workers) w.kill('SIGKILL');
    await redis.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
