/**
 * Single-writer lock for an output file: `<path>.lock`, created with O_EXCL and holding the
 * writer's pid, host, boot id and process start time. HDF5 (default format version) takes no OS
 * lock, so this file is what keeps two writers apart. A lock left by a dead process on this host
 * is taken over, and so is one whose pid now belongs to another process (the machine rebooted:
 * another boot id; or the pid was reused: another start time); a lock from a live writer or
 * another host is refused with a one-line RuntimeFailure. `lockHolder` applies the same rule for
 * readers (`wflo status`), so status and run agree on whether a run is live.
 */
import fs from 'node:fs';
import os from 'node:os';
import { RuntimeFailure } from '../../util/errors.js';

export interface WriterLock {
  readonly lockPath: string;
  /** Remove the lock file if it is still ours. Safe to call twice; never throws. */
  release(): void;
}

export interface LockOwner {
  pid: number;
  host: string;
  created: string;
  /** /proc/sys/kernel/random/boot_id when the lock was taken ('' where unknown). */
  bootId?: string;
  /** The owner's start time in clock ticks since boot (/proc/<pid>/stat field 22; '' where unknown). */
  startTime?: string;
}

/** This boot's id ('' off Linux). */
export function currentBootId(): string {
  try {
    return fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  } catch {
    return '';
  }
}

/** Start time of process `pid` in clock ticks since boot ('' when unknown or gone). */
export function processStartTime(pid: number): string {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces and parentheses) start at field 3.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19] ?? '';
  } catch {
    return '';
  }
}

/** Whether the process that wrote `owner` (on this host) still runs: same boot, same pid, same start time. */
function ownerIsLive(owner: LockOwner): boolean {
  if (owner.bootId && currentBootId() && owner.bootId !== currentBootId()) return false;
  if (!isProcessAlive(owner.pid)) return false;
  if (owner.startTime) {
    const now = processStartTime(owner.pid);
    if (now && now !== owner.startTime) return false;
  }
  return true;
}

/**
 * The live holder of `targetPath`'s lock, or null when there is no lock or its writer is gone.
 * A lock from another host is reported as live (we cannot check it).
 */
export function lockHolder(targetPath: string): LockOwner | null {
  const owner = readOwner(`${targetPath}.lock`);
  if (!owner) return null;
  if (owner.host !== os.hostname()) return owner;
  return ownerIsLive(owner) ? owner : null;
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
    // Not through a link, nor blocking on a FIFO: a lock that is no regular file holds no owner.
    const fd = fs.openSync(lockPath, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0));
    let text: string;
    try {
      if (!fs.fstatSync(fd).isFile()) return null;
      text = fs.readFileSync(fd, 'utf8');
    } finally {
      fs.closeSync(fd);
    }
    const parsed = JSON.parse(text) as Partial<LockOwner>;
    if (typeof parsed.pid !== 'number') return null;
    return {
      pid: parsed.pid,
      host: String(parsed.host ?? ''),
      created: String(parsed.created ?? ''),
      bootId: String(parsed.bootId ?? ''),
      startTime: String(parsed.startTime ?? ''),
    };
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
  const me: LockOwner = {
    pid: process.pid,
    host: os.hostname(),
    created: new Date().toISOString(),
    bootId: currentBootId(),
    startTime: processStartTime(process.pid),
  };
  for (let attempt = 0; attempt < 5; attempt++) {
    if (tryCreate(lockPath, me)) return makeLock(lockPath);
    const owner = readOwner(lockPath);
    if (owner && owner.pid === process.pid && owner.host === me.host) {
      throw new RuntimeFailure(`${targetPath} is already being written by this process (lock ${lockPath})`);
    }
    if (owner && owner.host !== me.host) {
      throw new RuntimeFailure(`${targetPath} is locked by pid ${owner.pid} on host ${owner.host} (${lockPath}); remove the lock file if that writer is gone`);
    }
    if (owner && ownerIsLive(owner)) {
      throw new RuntimeFailure(`${targetPath} is being written by another process (pid ${owner.pid}, lock ${lockPath})`);
    }
    // Stale: its writer is dead (or the lock is garbage). Move it aside atomically, then retry.
    const aside = `${lockPath}.stale-${process.pid}`;
    try {
      fs.renameSync(lockPath, aside);
      // Between our read and our rename another process may have taken over and written a live
      // lock; if that is what we moved, put it back (link fails if yet another lock appeared).
      const moved = readOwner(aside);
      if (moved && moved.host === me.host && ownerIsLive(moved)) {
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
      // Never throws: release runs in `finally` blocks, and its failure (a folder made read-only or
      // immutable: EPERM, reported by rmSync as ENOTDIR) would hide the error that matters. A lock
      // left behind is stale once this process is gone.
      if (owner && owner.pid === process.pid) {
        try {
          fs.unlinkSync(lockPath);
        } catch {
          /* stale later */
        }
      }
    },
  };
}
