/**
 * The content hash of a command optimizer's `inputs`: every file under each listed file or folder
 * (relative to the working directory), as a sorted list of (path, sha256). The list enters the
 * spec hash, so editing the script makes its tasks stale; a queue worker recomputes it from its
 * own copy and refuses a job whose list differs (runner/command/commandAllowance.ts).
 *
 * Walking a folder skips what tools write next to the code and what changes on its own: names
 * starting with `.` (.git, editor files), `__pycache__` folders and `*.pyc` files, and the
 * campaign's output folder if it lies inside. Symbolic links are followed (a cycle is an error).
 */
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { fileTypeName } from '../io/boundedRead.js';

export interface InputFile {
  /** Relative to the working directory, with `/` separators. */
  path: string;
  /** Hex SHA-256 of the file's bytes. */
  sha256: string;
}

/** Limits that keep a mistaken `inputs: [/]` from hashing a disk. */
export const MAX_INPUT_FILES = 10_000;
export const MAX_INPUT_BYTES = 1 << 30;

/** A problem with `inputs[index]` (or with the list as a whole when index is null). */
export class InputsProblem extends Error {
  constructor(
    readonly index: number | null,
    message: string,
  ) {
    super(message);
  }
}

const skipped = (name: string): boolean => name.startsWith('.') || name === '__pycache__' || name.endsWith('.pyc');

/** Hashes already computed, by absolute path, valid while the file's size and mtime stay. */
export type HashCache = Map<string, { size: number; mtimeMs: number; sha256: string }>;

/** Chunks a file is hashed in (a program's inputs may be large: never read whole). */
const HASH_CHUNK = 1 << 20;

function sha256File(file: string, st: fs.Stats, cache: HashCache | null): string {
  const known = cache?.get(file);
  if (known && known.size === st.size && known.mtimeMs === st.mtimeMs) return known.sha256;
  const hash = crypto.createHash('sha256');
  // Non-blocking open and a type check of the opened file: a FIFO swapped in never blocks the hash.
  const fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK | fs.constants.O_NOCTTY);
  try {
    if (!fs.fstatSync(fd).isFile()) throw new Error('not a regular file');
    const chunk = Buffer.allocUnsafe(HASH_CHUNK);
    let total = 0;
    for (let n; (n = fs.readSync(fd, chunk, 0, HASH_CHUNK, null)) > 0; ) {
      total += n;
      if (total > MAX_INPUT_BYTES) throw new Error(`grew over ${MAX_INPUT_BYTES / 2 ** 30} GiB while read`);
      hash.update(chunk.subarray(0, n));
    }
  } finally {
    fs.closeSync(fd);
  }
  const sha256 = hash.digest('hex');
  cache?.set(file, { size: st.size, mtimeMs: st.mtimeMs, sha256 });
  return sha256;
}

/**
 * Hash the inputs. `exclude`: absolute folder never walked into (the output folder); `cache`:
 * earlier hashes to reuse for files whose size and mtime are unchanged (a queue worker's checks).
 * Throws InputsProblem naming the entry that does not exist or is not readable.
 */
export function hashInputs(workdir: string, inputs: readonly string[], exclude: string | null = null, cache: HashCache | null = null): InputFile[] {
  const found = new Map<string, string>();
  let bytes = 0;
  const excluded = exclude !== null && fs.existsSync(exclude) ? fs.realpathSync(exclude) : exclude;
  const add = (abs: string, index: number): void => {
    const rel = path.relative(workdir, abs).split(path.sep).join('/');
    if (found.has(rel)) return;
    if (found.size >= MAX_INPUT_FILES) throw new InputsProblem(index, `more than ${MAX_INPUT_FILES} files; list the program's own files, not a data folder`);
    const st = fs.statSync(abs);
    bytes += st.size;
    if (bytes > MAX_INPUT_BYTES)
      throw new InputsProblem(index, `more than ${MAX_INPUT_BYTES / 2 ** 30} GiB of files; list the program's own files, not a data folder`);
    found.set(rel, sha256File(abs, st, cache));
  };
  const walk = (dir: string, index: number, seen: Set<string>): void => {
    const real = fs.realpathSync(dir);
    if (seen.has(real)) throw new InputsProblem(index, `symbolic links make a cycle at ${path.relative(workdir, dir) || '.'}`);
    if (excluded !== null && (real === excluded || dir === exclude)) return;
    const inner = new Set(seen).add(real);
    for (const name of fs.readdirSync(dir).sort()) {
      if (skipped(name)) continue;
      const p = path.join(dir, name);
      const st = fs.statSync(p, { throwIfNoEntry: false });
      if (!st) continue; // a dangling link
      if (st.isDirectory()) walk(p, index, inner);
      else if (st.isFile()) add(p, index);
    }
  };
  inputs.forEach((entry, index) => {
    const abs = path.resolve(workdir, entry);
    let st: fs.Stats | undefined;
    try {
      st = fs.statSync(abs, { throwIfNoEntry: false });
    } catch (err) {
      throw new InputsProblem(index, `'${entry}' cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
    }
    if (!st) throw new InputsProblem(index, `'${entry}' does not exist in ${workdir}`);
    if (!st.isDirectory() && !st.isFile()) throw new InputsProblem(index, `'${entry}' is ${fileTypeName(st)}, not a file or folder`);
    try {
      if (st.isDirectory()) walk(abs, index, new Set());
      else add(abs, index);
    } catch (err) {
      if (err instanceof InputsProblem) throw err;
      throw new InputsProblem(index, `'${entry}' cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
    }
  });
  return [...found].map(([p, sha256]) => ({ path: p, sha256 })).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * How a local copy differs from the expected input list, in one line, or null when it matches:
 * the first file missing, changed or extra.
 */
export function inputsDifference(expected: readonly InputFile[], local: readonly InputFile[]): string | null {
  const mine = new Map(local.map((f) => [f.path, f.sha256]));
  for (const f of expected) {
    const h = mine.get(f.path);
    if (h === undefined) return `${f.path} is missing`;
    if (h !== f.sha256) return `${f.path} differs (sha256 ${h.slice(0, 12)}…, the job's ${f.sha256.slice(0, 12)}…)`;
    mine.delete(f.path);
  }
  const extra = mine.keys().next();
  return extra.done ? null : `${extra.value} is not in the job's inputs`;
}
