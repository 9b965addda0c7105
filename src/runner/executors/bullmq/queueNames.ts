/**
 * Names in Redis. BullMQ keys live under the prefix `wflo`; there is one queue per engine
 * version (`wflo:engine-6:…`), so a worker only ever sees jobs its engine can compute bit-identically
 * (a worker of another version waits on another queue). A job's id is its task id and spec hash:
 * adding the same task twice is a no-op, and a changed task is a different job.
 * Worker records for `wflo status` are `wflo:workers:<host>:<pid>` hashes with a TTL.
 */
import { ENGINE_VERSION } from '../../../version.js';

export const KEY_PREFIX = 'wflo';

export function queueNameFor(engine: string = ENGINE_VERSION): string {
  // BullMQ queue names may not contain ':'.
  return engine.replace(/[^A-Za-z0-9_.-]/g, '_');
}

export function jobIdFor(taskId: string, specHash: string): string {
  return `${taskId}.${specHash}`;
}

export const WORKER_KEY_PATTERN = `${KEY_PREFIX}:workers:*`;

export function workerKey(host: string, pid: number): string {
  return `${KEY_PREFIX}:workers:${host.replace(/[^A-Za-z0-9_.-]/g, '_')}:${pid}`;
}
