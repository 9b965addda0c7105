/**
 * Taking a per-task program's result file ($WFLO_RESULT) only as the file the attempt expects:
 * opened without following a symbolic link (O_NOFOLLOW) and without waiting on a FIFO
 * (O_NONBLOCK), then checked on the open descriptor (fstat): a regular file, owned by whoever owns
 * the attempt folder the runner made (wflo's user), with one link (not a hard link to another
 * file), last modified after the folder was made (not a file from before the attempt), at most
 * MAX_RESULT_BYTES. A refused file is never read: its content reaches no message, ledger or log
 * (a result linked to /etc/shadow once put the start of that file into the failure message).
 * An oversized one is deleted.
 */
import fs from 'node:fs';
import { MAX_RESULT_BYTES } from './protocol.js';
import type { FolderBirth } from './taskFolder.js';

export type ResultFileRead = { kind: 'missing' } | { kind: 'refused'; why: string } | { kind: 'text'; text: string };

const OPEN_FLAGS = fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0);

function kindOf(st: fs.Stats): string {
  if (st.isDirectory()) return 'a folder';
  if (st.isFIFO()) return 'a FIFO';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

/** Up to `limit` bytes from `fd` (a leftover child of the program may still be writing). */
function readAtMost(fd: number, limit: number): string {
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const buf = Buffer.alloc(Math.min(1 << 20, limit - total));
    if (buf.length === 0) break;
    const n = fs.readSync(fd, buf, 0, buf.length, null);
    if (n === 0) break;
    chunks.push(buf.subarray(0, n));
    total += n;
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Read the result file `file` of an attempt whose folder was made as `birth` says. */
export function readResultFile(file: string, birth: FolderBirth): ResultFileRead {
  let fd: number;
  try {
    fd = fs.openSync(file, OPEN_FLAGS);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { kind: 'missing' };
    if (code === 'ELOOP') return { kind: 'refused', why: 'is a symbolic link (refused unread)' };
    return { kind: 'refused', why: `cannot be opened (${code ?? (err as Error).message})` };
  }
  try {
    const st = fs.fstatSync(fd, { bigint: true });
    if (!st.isFile()) return { kind: 'refused', why: `is ${kindOf(fs.fstatSync(fd))} (refused unread)` };
    if (Number(st.uid) !== birth.uid) return { kind: 'refused', why: `is owned by uid ${st.uid}, not by the attempt's uid ${birth.uid} (refused unread)` };
    if (st.nlink !== 1n) return { kind: 'refused', why: `has ${st.nlink} hard links: it is another file too (refused unread)` };
    if (st.mtimeNs < birth.mtimeNs) {
      const s = Number(birth.mtimeNs - st.mtimeNs) / 1e9;
      return { kind: 'refused', why: `was last modified ${s < 1 ? s.toFixed(3) : s.toFixed(0)} s before the attempt began (refused unread)` };
    }
    if (st.size > BigInt(MAX_RESULT_BYTES)) {
      fs.rmSync(file, { force: true });
      return {
        kind: 'refused',
        why: `is ${(Number(st.size) / 2 ** 20).toFixed(0)} MiB, over the ${MAX_RESULT_BYTES / 2 ** 20} MiB limit (refused unread, deleted)`,
      };
    }
    return { kind: 'text', text: readAtMost(fd, MAX_RESULT_BYTES) };
  } finally {
    fs.closeSync(fd);
  }
}
