/**
 * A queue worker's name where the coordinator, the gate, quarantine, the ledger and the audit log
 * meet: `host:pid` (the host as the worker gives it, the pid of its process). Built, parsed and
 * matched here only.
 */
import type { WorkerRef } from './executors/executor.js';

declare const workerIdBrand: unique symbol;
/** `host:pid` of a queue worker. */
export type WorkerId = string & { readonly [workerIdBrand]: true };

/** The shape of the names wflo's own workers give: what a name read from a file may be. */
const PLAIN_WORKER_ID = /^[A-Za-z0-9._-]{1,253}:\d{1,10}$/;

/** The name of worker `ref`. */
export function workerIdOf(ref: WorkerRef): WorkerId {
  return `${ref.host}:${ref.pid}` as WorkerId;
}

/**
 * The host and pid a name says (a row's `worker`, stored as text): the pid is what follows the
 * last ':' (a host may hold ':' itself).
 */
export function workerRefOf(id: WorkerId | string): WorkerRef {
  const at = id.lastIndexOf(':');
  return { host: id.slice(0, at), pid: Number(id.slice(at + 1)) };
}

/**
 * A worker name read from a file (a recovered or shard row): kept only when it has the plain
 * shape of wflo's workers' names (no spaces, control characters or separators), else undefined.
 */
export function plainWorkerId(text: unknown): WorkerId | undefined {
  return typeof text === 'string' && PLAIN_WORKER_ID.test(text) ? (text as WorkerId) : undefined;
}
