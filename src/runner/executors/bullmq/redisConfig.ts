/**
 * What the queue needs from the Redis server, checked before anything is enqueued or run:
 * `maxmemory-policy noeviction` (any other policy lets Redis silently drop job keys when memory
 * runs out, which BullMQ cannot survive), and, advised, `appendonly yes` (then a Redis restart
 * keeps the queue; without it a restart only costs recomputation, since the ledger is the truth).
 * A server with CONFIG disabled (managed services rename it) cannot be checked: say so, go on.
 */
import type { Redis } from 'ioredis';
import { RuntimeFailure } from '../../../util/errors.js';
import { describeRedisError, isAuthError } from './redisClient.js';
import type { QueueAddress } from './queueUrl.js';

export interface RedisConfigReport {
  maxmemoryPolicy: string | null;
  appendonly: string | null;
  version: string | null;
  /** Lines for the user (CONFIG disabled, AOF off). */
  warnings: string[];
}

async function configGet(client: Redis, key: string): Promise<string | null> {
  const reply = (await client.call('CONFIG', 'GET', key)) as string[];
  return Array.isArray(reply) && reply.length >= 2 ? String(reply[1]) : null;
}

/** Throws RuntimeFailure (exit 1) with one line when the server is configured so jobs could be lost. */
export async function checkRedisConfig(client: Redis, a: QueueAddress): Promise<RedisConfigReport> {
  const report: RedisConfigReport = { maxmemoryPolicy: null, appendonly: null, version: null, warnings: [] };
  try {
    const info = (await client.info('server')) as string;
    report.version = /redis_version:([^\r\n]+)/.exec(info)?.[1] ?? null;
  } catch {
    /* INFO may be disabled too */
  }
  try {
    report.maxmemoryPolicy = await configGet(client, 'maxmemory-policy');
    report.appendonly = await configGet(client, 'appendonly');
  } catch (err) {
    if (isAuthError(err)) throw new RuntimeFailure(`${a.redacted}: authentication failed (wrong user name or password)`);
    report.warnings.push(
      `cannot check the Redis configuration of ${a.redacted} (CONFIG GET: ${describeRedisError(err)}); make sure maxmemory-policy is noeviction`,
    );
    return report;
  }
  if (report.maxmemoryPolicy !== null && report.maxmemoryPolicy !== 'noeviction') {
    throw new RuntimeFailure(
      `${a.redacted}: maxmemory-policy is '${report.maxmemoryPolicy}', the queue needs 'noeviction' (redis-cli CONFIG SET maxmemory-policy noeviction, or maxmemory-policy noeviction in redis.conf)`,
    );
  }
  if (report.appendonly === 'no') {
    report.warnings.push(
      `${a.redacted} runs without appendonly: a Redis restart empties the queue (nothing committed is lost; unfinished tasks are enqueued again)`,
    );
  }
  return report;
}
