/**
 * Redis connections for the queue (ioredis): the settings every long-lived connection uses
 * (reconnect forever with capped exponential backoff, reported through `onNotice` with the
 * redacted URL), and a strict first contact (`connectOnce`) that turns an unreachable host or a
 * wrong password into one line (RuntimeFailure, exit 1) instead of endless retries.
 *
 * BullMQ is loaded as ESM here, where it cannot `require('ioredis')` itself: it is always handed
 * ready-made ioredis instances.
 */
import { Redis, type RedisOptions } from 'ioredis';
import { RuntimeFailure } from '../../../util/errors.js';
import { redactQueueUrls, type QueueAddress } from './queueUrl.js';

/** Reconnect delays: 0.2 s doubling up to this. */
const MAX_RECONNECT_DELAY_MS = 5000;

export function baseOptions(a: QueueAddress): RedisOptions {
  return {
    host: a.host,
    port: a.port,
    db: a.db,
    username: a.username,
    password: a.password,
    ...(a.tls ? { tls: { servername: a.host } } : {}),
    connectTimeout: 5000,
    // BullMQ needs this for its blocking connections; commands wait for the reconnect.
    maxRetriesPerRequest: null,
    enableReadyCheck: true,
  };
}

export interface LiveClientOptions {
  /** Name shown in `CLIENT LIST` (no secrets). */
  name: string;
  onNotice?: (message: string) => void;
}

/**
 * A connection that survives Redis restarts: it reconnects with backoff forever and says so once
 * per outage (and when it is back). Errors are reported, never thrown at the event loop.
 */
export function liveClient(a: QueueAddress, o: LiveClientOptions): Redis {
  let down: string | null = null;
  const client = new Redis({
    ...baseOptions(a),
    connectionName: o.name,
    retryStrategy: (times) => Math.min(200 * 2 ** Math.min(times - 1, 10), MAX_RECONNECT_DELAY_MS),
    reconnectOnError: (err) => (/READONLY|LOADING/.test(err.message) ? 2 : false),
  });
  client.on('error', (err: NodeJS.ErrnoException) => {
    const why = describeRedisError(err);
    if (down === null) {
      down = why;
      o.onNotice?.(`lost connection to ${a.redacted} (${why}); retrying with backoff`);
    }
  });
  client.on('close', () => {
    if (down === null) {
      down = 'connection closed';
      o.onNotice?.(`lost connection to ${a.redacted} (connection closed); retrying with backoff`);
    }
  });
  client.on('ready', () => {
    if (down !== null) {
      down = null;
      o.onNotice?.(`reconnected to ${a.redacted}`);
    }
  });
  return client;
}

/** Disconnect on purpose: no "lost connection" notice for it. */
export function closeQuietly(client: Redis | null | undefined): void {
  if (!client) return;
  client.removeAllListeners('close');
  client.removeAllListeners('error');
  client.on('error', () => {
    /* closing */
  });
  client.disconnect();
}

/** A short, password-free reason for a Redis client error. */
export function describeRedisError(err: unknown): string {
  const e = err as NodeJS.ErrnoException & { errors?: unknown[] };
  if (e && e.code && /^E[A-Z]+$/.test(e.code)) return e.code;
  const message = e instanceof Error ? e.message : String(err);
  return redactQueueUrls(message.split('\n')[0]).slice(0, 200);
}

export function isAuthError(err: unknown): boolean {
  const m = err instanceof Error ? err.message : String(err);
  return /WRONGPASS|NOAUTH|invalid password|invalid username-password|AUTH.*without any password|NOPERM/i.test(m);
}

/**
 * Connect once, without retries: resolves with a ready client (retrying forever from now on, like
 * `liveClient`), or throws one line: unreachable host, refused connection, wrong password.
 */
export async function connectOnce(a: QueueAddress, name: string, onNotice?: (m: string) => void): Promise<Redis> {
  const probe = new Redis({ ...baseOptions(a), connectionName: name, lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0 });
  let lastError: unknown = null;
  probe.on('error', (err) => {
    lastError = err;
  });
  try {
    await probe.connect();
    await probe.ping();
  } catch (err) {
    const cause = lastError ?? err;
    probe.disconnect();
    if (isAuthError(cause) || isAuthError(err)) {
      throw new RuntimeFailure(`${a.redacted}: authentication failed (wrong user name or password)`);
    }
    throw new RuntimeFailure(`cannot reach the queue at ${a.redacted} (${describeRedisError(cause)})`);
  }
  probe.disconnect();
  const client = liveClient(a, { name, onNotice });
  await new Promise<void>((resolve, reject) => {
    const onReady = (): void => {
      client.off('error', onError);
      resolve();
    };
    const onError = (err: unknown): void => {
      if (isAuthError(err)) {
        client.off('ready', onReady);
        client.disconnect();
        reject(new RuntimeFailure(`${a.redacted}: authentication failed (wrong user name or password)`));
      }
    };
    client.once('ready', onReady);
    client.on('error', onError);
  });
  return client;
}
