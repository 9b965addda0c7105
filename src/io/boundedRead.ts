/**
 * The one way wflo reads an input file a user named (a campaign, case, turbine, wind, boundary,
 * layout, windIO plant file, time-series CSV, an included file): bounded before anything parses
 * it. Only a regular file is read; a directory, a device (`/dev/zero`), a FIFO or a socket is
 * refused by its type in one line, also behind a symbolic link (the opened descriptor is what
 * is checked). The bytes are read in chunks up to a cap, without trusting the size `stat` gives
 * (0 for a device, stale for a file that grows): one byte over the cap and the read stops with
 * one line naming the file and the cap. A FIFO never blocks: its type is refused before it is
 * opened, and the open is non-blocking in case it was swapped in between.
 *
 * Files another library opens itself (HDF5 through h5wasm) are checked with `requireRegularFile`.
 */
import fs from 'node:fs';
import { InputError } from '../util/errors.js';

/**
 * Largest input file read, bytes (YAML files have a lower cap: yamlFile.ts MAX_YAML_BYTES). A
 * 10⁶-row time-series CSV is 38 MB; its reader keeps 8-byte columns, not rows (timeSeriesCsv.ts).
 */
export const MAX_INPUT_BYTES = 64 * 1024 * 1024;

const CHUNK_BYTES = 1024 * 1024;

export const mib = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

/** What a non-regular file is, in words ("a directory", "a character device", …). */
export function fileTypeName(st: fs.Stats): string {
  if (st.isDirectory()) return 'a directory';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isFIFO()) return 'a FIFO (named pipe)';
  if (st.isSocket()) return 'a socket';
  return 'not a regular file';
}

/**
 * A file refused before anything parsed it (not found, not a regular file, over the cap):
 * `reason` without the file name, for a reader that names the file its own way (an `!include`).
 */
export class UnreadableFile extends InputError {
  constructor(
    readonly file: string,
    readonly reason: string,
    readonly atTopLevel = false,
  ) {
    super(`${file}${atTopLevel ? ':1: (top level)' : ''}: ${reason}`);
  }

  /** The same refusal, naming the file as `shown`. */
  named(shown: string): UnreadableFile {
    return new UnreadableFile(shown, this.reason, this.atTopLevel);
  }
}

/** How a reader names its file: `what` in "… not found", `expected` in "is a directory, expected …". */
export interface FileRole {
  /** "campaign file", "time-series file" (default "file"). */
  what?: string;
  /** "a YAML file", "a time-series CSV file" (default "a regular file"). */
  expected?: string;
}

/** The one line for an errno of opening or reading `path`. */
function errnoProblem(path: string, role: Required<FileRole>, err: unknown): UnreadableFile {
  const e = err as NodeJS.ErrnoException;
  switch (e.code) {
    case 'ENOENT':
      return new UnreadableFile(path, `${role.what} not found`);
    case 'ENOTDIR':
      return new UnreadableFile(path, `${role.what} not found (a part of the path is not a folder)`);
    case 'EISDIR':
      return new UnreadableFile(path, `is a directory, expected ${role.expected}`);
    case 'ELOOP':
      return new UnreadableFile(path, `a symbolic link loop (ELOOP), expected ${role.expected}`);
    case 'EACCES':
    case 'EPERM':
      return new UnreadableFile(path, `permission denied (${e.code})`);
    default:
      return new UnreadableFile(path, `cannot read (${e.code ?? e.message.split('\n')[0]})`);
  }
}

const roleOf = (role: FileRole): Required<FileRole> => ({ what: role.what ?? 'file', expected: role.expected ?? 'a regular file' });

/** The one-line refusal of a file that is not a regular file; null for a regular file. */
function typeProblem(path: string, role: Required<FileRole>, st: fs.Stats): UnreadableFile | null {
  if (st.isFile()) return null;
  if (st.isDirectory()) return new UnreadableFile(path, `is a directory, expected ${role.expected}`);
  return new UnreadableFile(path, `is ${fileTypeName(st)}, not a regular file; expected ${role.expected}`);
}

/** The words of the cap `maxBytes` for the files `role` expects ("the 8.0 MiB limit for YAML files"). */
const limitWords = (r: Required<FileRole>, maxBytes: number): string => `the ${mib(maxBytes)} limit for ${r.expected.replace(/^an? /, '')}s`;

/**
 * Check that `path` names a regular file (symbolic links followed), for files another library
 * opens (HDF5), and for a door checking a file before its reader reads it (fileDoor.ts): one
 * InputError line otherwise; with `maxBytes`, also a file over that size. Opens nothing.
 */
export function requireRegularFile(path: string, role: FileRole = {}, maxBytes?: number): void {
  const r = roleOf(role);
  let st: fs.Stats;
  try {
    st = fs.statSync(path);
  } catch (err) {
    throw errnoProblem(path, r, err);
  }
  const problem = typeProblem(path, r, st);
  if (problem) throw problem;
  if (maxBytes !== undefined && st.size > maxBytes) throw new UnreadableFile(path, `file is ${mib(st.size)}, over ${limitWords(r, maxBytes)}`, true);
}

/**
 * The bytes of the regular file `path`, at most `maxBytes` of them (refused beyond, before the
 * rest is read). `role` names the kind of file in messages.
 */
export function readBoundedBytes(path: string, role: FileRole = {}, maxBytes = MAX_INPUT_BYTES): Buffer {
  const r = roleOf(role);
  // By type first, without opening: opening a FIFO for reading blocks until a writer comes.
  requireRegularFile(path, r);
  let fd: number;
  try {
    fd = fs.openSync(path, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK | fs.constants.O_NOCTTY);
  } catch (err) {
    throw errnoProblem(path, r, err);
  }
  try {
    let st: fs.Stats;
    try {
      st = fs.fstatSync(fd);
    } catch (err) {
      throw errnoProblem(path, r, err);
    }
    // What was opened may not be what was checked (the name was swapped in between).
    const swapped = typeProblem(path, r, st);
    if (swapped) throw swapped;
    const limit = limitWords(r, maxBytes);
    if (st.size > maxBytes) throw new UnreadableFile(path, `file is ${mib(st.size)}, over ${limit}`, true);
    // Sized by fstat (one byte more, to see the end), grown when the file turns out longer.
    let buffer = Buffer.allocUnsafe(Math.min(st.size, maxBytes) + 1);
    let total = 0;
    for (;;) {
      if (total === buffer.length) {
        // One byte more than the cap is enough to know the file is over it.
        if (total > maxBytes) throw new UnreadableFile(path, `file is over ${limit} (it grew while read)`, true);
        const bigger = Buffer.allocUnsafe(Math.min(buffer.length + Math.max(buffer.length, CHUNK_BYTES), maxBytes + 1));
        buffer.copy(bigger, 0, 0, total);
        buffer = bigger;
      }
      let n: number;
      try {
        n = fs.readSync(fd, buffer, total, buffer.length - total, null);
      } catch (err) {
        throw errnoProblem(path, r, err);
      }
      if (n === 0) break;
      total += n;
    }
    if (total > maxBytes) throw new UnreadableFile(path, `file is over ${limit} (it grew while read)`, true);
    return buffer.subarray(0, total);
  } finally {
    fs.closeSync(fd);
  }
}

/** The text (UTF-8) of the regular file `path`, bounded as readBoundedBytes. */
export function readBoundedText(path: string, role: FileRole = {}, maxBytes = MAX_INPUT_BYTES): string {
  return readBoundedBytes(path, role, maxBytes).toString('utf8');
}

/**
 * The first `bytes` bytes of `path` when it is a regular file (fewer when it is shorter), else
 * null (absent, a directory, a device, a FIFO, unreadable): for sniffing a file's kind without
 * ever blocking on a FIFO or reading a device.
 */
export function readFileHead(path: string, bytes: number): Buffer | null {
  try {
    if (!fs.statSync(path).isFile()) return null;
    const fd = fs.openSync(path, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK | fs.constants.O_NOCTTY);
    try {
      if (!fs.fstatSync(fd).isFile()) return null;
      const head = Buffer.alloc(bytes);
      let got = 0;
      while (got < bytes) {
        const n = fs.readSync(fd, head, got, bytes - got, got);
        if (n === 0) break;
        got += n;
      }
      return head.subarray(0, got);
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return null;
  }
}
