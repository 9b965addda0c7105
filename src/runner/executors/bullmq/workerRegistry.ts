/**
 * Worker records in Redis, for `wflo status` in queue mode: every `wflo worker` keeps a hash
 * `wflo:workers:<host>:<pid>` (host, pid, engine, concurrency, tasks done/failed, running now,
 * last seen, connection problems since it started) fresh with a heartbeat; the key expires when
 * the worker stops refreshing it, so a dead worker shows as "not seen for …" and then disappears.
 */
import type { Redis } from 'ioredis';
import { KEY_PREFIX, WORKER_KEY_PATTERN, workerKey } from './queueNames.js';

/** A record lives this long after the last heartbeat. */
export const WORKER_RECORD_TTL_S = 600;
export const HEARTBEAT_INTERVAL_MS = 2000;

export interface WorkerRecord {
  host: string;
  pid: number;
  engine: string;
  version: string;
  queue: string;
  concurrency: number;
  startedAt: number;
  /** Unix seconds of the last heartbeat. */
  lastSeen: number;
  done: number;
  failed: number;
  running: number;
  reconnects: number;
  /** Latest connection problem (password-free), '' when none. */
  lastProblem: string;
  /** Command jobs this worker refused and handed back (not allowed, inputs differ), and the latest reason. */
  refused: number;
  lastRefusal: string;
  /** The commands it may run (`--allow-command`), '; '-separated; '' when none. */
  commands: string;
}

export async function writeWorkerRecord(client: Redis, r: WorkerRecord): Promise<void> {
  const key = workerKey(r.host, r.pid);
  const fields: Record<string, string> = {};
  for (const [k, v] of Object.entries(r)) fields[k] = String(v);
  await client.multi().hset(key, fields).expire(key, WORKER_RECORD_TTL_S).exec();
}

export async function removeWorkerRecord(client: Redis, host: string, pid: number): Promise<void> {
  await client.del(workerKey(host, pid));
}

export async function readWorkerRecords(client: Redis): Promise<WorkerRecord[]> {
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, batch] = await client.scan(cursor, 'MATCH', WORKER_KEY_PATTERN, 'COUNT', 500);
    cursor = next;
    keys.push(...batch.filter((k) => k.startsWith(`${KEY_PREFIX}:workers:`)));
  } while (cursor !== '0' && keys.length < 10_000);
  const pipe = client.pipeline();
  for (const k of keys) pipe.hgetall(k);
  const replies = (await pipe.exec()) ?? [];
  const out: WorkerRecord[] = [];
  for (const [err, h] of replies) {
    if (err || !h || typeof h !== 'object') continue;
    const f = h as Record<string, string>;
    if (!f.host) continue;
    const n = (k: string): number => Number(f[k] ?? 0) || 0;
    out.push({
      host: f.host,
      pid: n('pid'),
      engine: f.engine ?? '',
      version: f.version ?? '',
      queue: f.queue ?? '',
      concurrency: n('concurrency'),
      startedAt: n('startedAt'),
      lastSeen: n('lastSeen'),
      done: n('done'),
      failed: n('failed'),
      running: n('running'),
      reconnects: n('reconnects'),
      lastProblem: f.lastProblem ?? '',
      refused: n('refused'),
      lastRefusal: f.lastRefusal ?? '',
      commands: f.commands ?? '',
    });
  }
  out.sort((a, b) => (a.host < b.host ? -1 : a.host > b.host ? 1 : a.pid - b.pid));
  return out;
}
