/**
 * The run lock of an output folder (`<dir>/run.lock`): held by the one process that writes the
 * folder's ledger (`wflo run`, `wflo collect`, `wflo ledger rebuild`). `wflo status` reads it to
 * tell whether a run is live, by the same rule the next run uses to refuse or take over.
 */
import path from 'node:path';
import { acquireWriterLock, lockHolder, type LockOwner, type WriterLock } from '../io/hdf5/writerLock.js';
import { RuntimeFailure } from '../util/errors.js';

export const RUN_LOCK_NAME = 'run';

/** Take the folder's run lock, or fail with one line naming the live run. */
export function acquireRunLock(dir: string): WriterLock {
  try {
    return acquireWriterLock(path.join(dir, RUN_LOCK_NAME));
  } catch (err) {
    const m = /pid (\d+)/.exec((err as Error).message);
    throw new RuntimeFailure(`${dir} is in use by another wflo run${m ? ` (pid ${m[1]})` : ''}: ${(err as Error).message}`);
  }
}

/** The live holder of the folder's run lock, or null. */
export function runLockHolder(dir: string): LockOwner | null {
  return lockHolder(path.join(dir, RUN_LOCK_NAME));
}
