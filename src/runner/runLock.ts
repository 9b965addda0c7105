/**
 * The run lock of an output folder (`<dir>/run.lock`): held by the one process that writes the
 * folder's ledger (`wflo run`, `wflo collect`, `wflo ledger rebuild`). `wflo status` reads it to
 * tell whether a run is live, by the same rule the next run uses to refuse or take over.
 */
import os from 'node:os';
import path from 'node:path';
import { acquireWriterLock, lockHolder, type LockOwner, type WriterLock } from '../io/hdf5/writerLock.js';
import { RuntimeFailure } from '../util/errors.js';

export const RUN_LOCK_NAME = 'run';

/** Take the folder's run lock, or fail with one line naming the live run. */
export function acquireRunLock(dir: string): WriterLock {
  try {
    return acquireWriterLock(path.join(dir, RUN_LOCK_NAME));
  } catch (err) {
    const holder = lockHolder(path.join(dir, RUN_LOCK_NAME));
    if (!holder) throw err; // not another run: the lock file itself could not be made
    const where = holder.host === os.hostname() ? `pid ${holder.pid}` : `pid ${holder.pid} on host ${holder.host}`;
    throw new RuntimeFailure(
      `${dir} is in use by another wflo run (${where}, since ${holder.created}); ` +
        (holder.host === os.hostname() ? 'wait for it to end or stop it' : `remove ${path.join(dir, RUN_LOCK_NAME)}.lock if that run is gone`),
    );
  }
}

/** The live holder of the folder's run lock, or null. */
export function runLockHolder(dir: string): LockOwner | null {
  return lockHolder(path.join(dir, RUN_LOCK_NAME));
}
