/**
 * Single-writer lock for an output file: `<path>.lock`, created with O_EXCL and holding the
 * writer's pid and host. HDF5 (default format version) takes no OS lock, so this file is what
 * keeps two writers apart. A lock left by a dead process on this host is taken over; a lock from
 * a live process or another host is refused with a one-line RuntimeFailure.
 */
import fs from 'node:fs';
import os from 'node:os';
import { RuntimeFailure } from '../../util/errors.js';

export interface WriterLock {
  readonly lockPath: string;
  /** Remove the lock file if it is still ours. Safe to call twice. */
  release(): void;
}

interface LockOwner {
  pid: number;
  host: string;
  created: string;
}

/** Whether a process with this pid exists on this host (EPERM means it exists, owned by someone else). */
export function isProcessAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readOwner(lockPath: string): LockOwner | null {
  try {
    const parsed = JSON.parse(fs.readFileSync(lockPath, 'utf8')) as Partial<LockOwner>;
    if (typeof parsed.pid !== 'number') return null;
    return { pid: parsed.pid, host: String(parsed.host ?? ''), created: String(parsed.created ?? '') };
  } catch {
    return null; // unreadable or half-written lock: treated like a lock from a dead writer below
  }
}

function tryCreate(lockPath: string, owner: LockOwner): boolean {
  let fd: number;
  try {
    fd = fs.openSync(lockPath, 'wx');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw new RuntimeFailure(`cannot create lock file ${lockPath}: ${(err as Error).message}`);
  }
  try {
    fs.writeSync(fd, JSON.stringify(owner) + '\n');
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  return true;
}

/**
 * Take the writer lock for `targetPath`. Throws RuntimeFailure when another live writer holds it.
 * Takeover of a stale lock renames it aside first, so two processes racing for the same stale
 * lock cannot both remove it: only one rename succeeds.
 */
export function acquireWriterLock(targetPath: string): WriterLock {
  const lockPath = `${targetPath}.lock`;
  const me: LockOwner = { pid: process.pid, host: os.hostname(), created: new Date().toISOString() };
  for (let attempt = 0; attempt < 5; attempt++) {
    if (tryCreate(lockPath, me)) return makeLock(lockPath);
    const owner = readOwner(lockPath);
    if (owner && owner.pid === process.pid && owner.host === me.host) {
      throw new RuntimeFailure(`${targetPath} is already being written by this process (lock ${lockPath})`);
    }
    if (owner && owner.host !== me.host) {
      throw new RuntimeFailure(`${targetPath} is locked by pid ${owner.pid} on host ${owner.host} (${lockPath}); remove the lock file if that writer is gone`);
    }
    if (owner && isProcessAlive(owner.pid)) {
      throw new RuntimeFailure(`${targetPath} is being written by another process (pid ${owner.pid}, lock ${lockPath})`);
    }
    // Stale: its writer is dead (or the lock is garbage). Move it aside atomically, then retry.
    const aside = `${lockPath}.stale-${process.pid}`;
    try {
      fs.renameSync(lockPath, aside);
      // Between our read and our rename another process may have taken over and written a live
      // lock; if that is what we moved, put it back (link fails if yet another lock appeared).
      const moved = readOwner(aside);
      if (moved && moved.host === me.host && isProcessAlive(moved.pid)) {
        try {
          fs.linkSync(aside, lockPath);
        } catch {
          /* someone else holds the lock now; the next attempt reports it */
        }
      }
      fs.rmSync(aside, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') {
        throw new RuntimeFailure(`cannot take over stale lock ${lockPath}: ${(err as Error).message}`);
      }
    }
  }
  throw new RuntimeFailure(`cannot acquire lock ${lockPath}: other writers keep taking it`);
}

function makeLock(lockPath: string): WriterLock {
  let held = true;
  return {
    lockPath,
    release(): void {
      if (!held) return;
      held = false;
      const owner = readOwner(lockPath);
      if (owner && owner.pid === process.pid) fs.rmSync(lockPath, { force: true });
    },
  };
}
