/**
 * The first, library-free look at a worker file: what it is, size, HDF5 signature and
 * superblock. Decides `empty`, `no_signature`, `truncated` and these kinds of `unreadable`
 * without ever handing the file to HDF5: not a regular file (a directory, FIFO or socket named
 * like a shard: never opened, a FIFO would block), a symlink loop or dangling link, a file that
 * cannot be opened (EACCES), a corrupt superblock. Everything else goes on to the probe
 * (shardReader.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { readSuperblock, type SuperblockInfo } from './superblock.js';
import type { ShardClass } from './shardTypes.js';
import { leftOpenForWrite } from './writerCrashCopy.js';

export interface ByteCheck {
  bytes: number;
  /** Modification time when checked (a merge leaves files that changed since in place). */
  mtimeMs: number;
  /** Set when the bytes alone decide the class. */
  class?: Extract<ShardClass, 'empty' | 'no_signature' | 'truncated' | 'unreadable'>;
  detail: string;
  superblock?: SuperblockInfo;
  /** Bytes past the superblock's end-of-file address: data written after the last flush is not reachable. */
  trailingBytes: number;
}

function kindOf(stat: fs.Stats): string {
  if (stat.isDirectory()) return 'a directory';
  if (stat.isFIFO()) return 'a FIFO (named pipe)';
  if (stat.isSocket()) return 'a socket';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

/**
 * Fault injection for tests run as root, where permissions do not stop reads (SQLite-style):
 * WFLO_SHARD_OPEN_FAULT=<CODE>:<name> makes opening the file whose base name is <name> fail
 * with that errno code (e.g. EACCES).
 */
function injectedOpenError(filePath: string): NodeJS.ErrnoException | null {
  const fault = process.env.WFLO_SHARD_OPEN_FAULT;
  if (!fault) return null;
  const [code, name] = fault.split(':');
  if (path.basename(filePath) !== name) return null;
  const err: NodeJS.ErrnoException = new Error(`${code}: injected failure, open '${filePath}'`);
  err.code = code;
  return err;
}

function errnoText(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  if (e.code === 'EACCES' || e.code === 'EPERM') return `permission denied (${e.code})`;
  return e.code ? `${e.code}: ${e.message.replace(/^[A-Z]+: /, '')}` : e.message;
}

/**
 * Size and modification time of what is at `filePath` (following links; the link itself when it
 * loops or dangles), or null when nothing is there: what a merge compares to see whether a file
 * changed since it was checked.
 */
export function fileIdentity(filePath: string): { bytes: number; mtimeMs: number } | null {
  for (const stat of [fs.statSync, fs.lstatSync]) {
    try {
      const s = stat(filePath);
      return { bytes: s.size, mtimeMs: s.mtimeMs };
    } catch {
      /* try the link itself */
    }
  }
  return null;
}

export function checkBytes(filePath: string): ByteCheck {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(filePath);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    let detail = `cannot read the file: ${errnoText(err)}`;
    if (code === 'ELOOP') detail = 'a symbolic link loop (ELOOP), not a file';
    else if (code === 'ENOENT') {
      let target = '';
      try {
        target = fs.readlinkSync(filePath);
      } catch {
        /* not a link: the file vanished */
      }
      detail = target ? `a dangling symbolic link to ${target}` : 'the file vanished while being checked';
    }
    const identity = fileIdentity(filePath);
    return { bytes: identity?.bytes ?? 0, mtimeMs: identity?.mtimeMs ?? 0, class: 'unreadable', detail, trailingBytes: 0 };
  }
  if (!stat.isFile()) {
    return { bytes: stat.size, mtimeMs: stat.mtimeMs, class: 'unreadable', detail: `${kindOf(stat)} named like a shard, not a file`, trailingBytes: 0 };
  }
  let fd: number;
  let bytes = stat.size;
  let mtimeMs = stat.mtimeMs;
  try {
    const injected = injectedOpenError(filePath);
    if (injected) throw injected;
    fd = fs.openSync(filePath, 'r');
    const opened = fs.fstatSync(fd);
    bytes = opened.size;
    mtimeMs = opened.mtimeMs;
  } catch (err) {
    return { bytes, mtimeMs, class: 'unreadable', detail: `cannot open the file: ${errnoText(err)}`, trailingBytes: 0 };
  }
  try {
    if (bytes === 0) return { bytes, mtimeMs, class: 'empty', detail: 'file is 0 bytes', trailingBytes: 0 };
    const read = (position: number, length: number): Uint8Array => {
      const buffer = Buffer.alloc(Math.max(0, Math.min(length, bytes - position)));
      let got = 0;
      while (got < buffer.length) {
        const n = fs.readSync(fd, buffer, got, buffer.length - got, position + got);
        if (n === 0) break;
        got += n;
      }
      return buffer.subarray(0, got);
    };
    const result = readSuperblock(read, bytes);
    switch (result.kind) {
      case 'no_signature':
        return { bytes, mtimeMs, class: 'no_signature', detail: result.detail, trailingBytes: 0 };
      case 'truncated':
        return { bytes, mtimeMs, class: 'truncated', detail: result.detail, superblock: result.info, trailingBytes: 0 };
      case 'corrupt':
        return { bytes, mtimeMs, class: 'unreadable', detail: result.detail, superblock: result.info, trailingBytes: 0 };
      default: {
        const info = result.info;
        const trailingBytes = info.endOfFile !== null ? bytes - info.endOfFile : 0;
        const flags = leftOpenForWrite(info) ? '; superblock marks the file as still open for writing' : '';
        return { bytes, mtimeMs, detail: `superblock v${info.version} at offset ${info.signatureOffset}${flags}`, superblock: info, trailingBytes };
      }
    }
  } catch (err) {
    return { bytes, mtimeMs, class: 'unreadable', detail: `cannot read the file: ${errnoText(err)}`, trailingBytes: 0 };
  } finally {
    fs.closeSync(fd);
  }
}
