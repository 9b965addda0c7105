/**
 * The one place that loads h5wasm (the HDF5 C library compiled to WebAssembly) and opens files
 * with it. It hides two sharp edges found while probing h5wasm 0.10.3 (HDF5 2.0.0 inside):
 * - `new File(...)` does not throw when the open fails: it returns a handle whose `file_id` is
 *   negative. `openH5` turns that into an Error.
 * - The C library prints its whole error stack ("HDF5-DIAG: ...") to fd 2, and h5wasm ignores
 *   the status of many calls (write_slice, resize, flush), so a failed write (e.g. ENOSPC) does
 *   not throw. `withHdf5Diagnostics` captures that text for the duration of a call, and
 *   `hdf5Call` turns a reported error into an exception with a one-line reason.
 *
 * Not for untrusted files in a long-lived process: a failed open of a corrupt file can leave the
 * wasm instance unusable (h5wasm issue #46); shards/ probes such files in a child process.
 */
import fs from 'node:fs';
import h5wasm from 'h5wasm/node';
import type { File as H5File } from 'h5wasm/node';

export type H5Module = typeof h5wasm;
export type { H5File };
export type H5Mode = 'r' | 'a' | 'w' | 'x';

let readyModule: Promise<H5Module> | undefined;

/** The h5wasm namespace, after its wasm module finished loading (loaded once per process). */
export function loadH5(): Promise<H5Module> {
  readyModule ??= h5wasm.ready.then(() => h5wasm);
  return readyModule;
}

/** Result of a call made while HDF5's stderr diagnostics were captured. */
export interface Captured<T> {
  value: T;
  /** Everything HDF5 printed during the call (empty when it printed nothing). */
  diagnostics: string;
}

function textOf(data: unknown, offset?: unknown, length?: unknown): string {
  if (typeof data === 'string') return data;
  const view = data as Uint8Array;
  const start = typeof offset === 'number' ? offset : 0;
  const end = typeof length === 'number' ? start + length : view.byteLength;
  return Buffer.from(view.buffer, view.byteOffset, view.byteLength).subarray(start, end).toString('utf8');
}

/**
 * Run `fn` with HDF5's diagnostics captured instead of printed. The wasm C library writes its
 * error stack to fd 2 with `fs.writeSync` (emscripten NODERAWFS); JS-side messages go through
 * console.error -> process.stderr.write. Both are diverted for the duration of the (synchronous)
 * call only, so nothing else can be swallowed.
 */
export function withHdf5Diagnostics<T>(fn: () => T): Captured<T> {
  const chunks: string[] = [];
  const stderr = process.stderr;
  const originalWrite = stderr.write;
  const originalWriteSync = fs.writeSync;
  stderr.write = ((chunk: unknown): boolean => {
    chunks.push(textOf(chunk));
    return true;
  }) as typeof stderr.write;
  fs.writeSync = ((fd: number, data: unknown, offset?: unknown, length?: unknown, position?: unknown): number => {
    if (fd !== 2) return (originalWriteSync as (...a: unknown[]) => number).call(fs, fd, data, offset, length, position);
    const text = textOf(data, offset, length);
    chunks.push(text);
    return typeof data === 'string' ? Buffer.byteLength(data) : typeof length === 'number' ? length : (data as Uint8Array).byteLength;
  }) as typeof fs.writeSync;
  try {
    const value = fn();
    return { value, diagnostics: chunks.join('') };
  } catch (err) {
    const diagnostics = chunks.join('');
    if (err instanceof Error && diagnostics) (err as Error & { hdf5Diagnostics?: string }).hdf5Diagnostics = diagnostics;
    throw err;
  } finally {
    stderr.write = originalWrite;
    fs.writeSync = originalWriteSync;
  }
}

/** An Error carrying HDF5's error stack; its message is the one-line summary. */
export class Hdf5Error extends Error {
  constructor(
    readonly hdf5Diagnostics: string,
    fallback = 'HDF5 call failed',
  ) {
    super(summarizeHdf5Diagnostics(hdf5Diagnostics) || fallback);
    this.name = 'Hdf5Error';
  }
}

/**
 * Run HDF5 calls and throw an Hdf5Error when the library reported an error. Needed because
 * h5wasm ignores the status of many calls (write_slice, resize, flush): a failed write (ENOSPC)
 * only shows up as an error stack on stderr.
 */
export function hdf5Call<T>(fn: () => T): T {
  const { value, diagnostics } = withHdf5Diagnostics(fn);
  if (/HDF5-DIAG: Error detected/.test(diagnostics)) throw new Hdf5Error(diagnostics);
  return value;
}

/**
 * The innermost reason in an HDF5 error stack, e.g. "file signature not found" or
 * "truncated file: eof = 800, ...", plus the OS error message when there is one
 * (e.g. "No space left on device"). Falls back to the first non-empty line.
 */
export function summarizeHdf5Diagnostics(text: string): string {
  const reasons = [...text.matchAll(/#\d+: .*? in [\w.]+\(\): (.*)$/gm)].map((m) => m[1].trim());
  const osError = /error message = '([^']+)'/.exec(text)?.[1];
  let reason =
    reasons.length > 0
      ? reasons[reasons.length - 1]
      : (text
          .split('\n')
          .map((l) => l.trim())
          .find((l) => l.length > 0) ?? '');
  reason = reason.replace(/[,:]?\s*time = .*$/, '').replace(/[,:]\s*$/, '');
  if (osError && !reason.includes(osError)) reason = `${reason}: ${osError}`;
  if (/No space left on device/.test(text)) reason = `no space left on device (ENOSPC): ${reason}`;
  return reason;
}

/** One-line reason of an error thrown by an HDF5 call (captured diagnostics first). */
export function hdf5ErrorReason(err: unknown): string {
  const e = err as (Error & { hdf5Diagnostics?: string }) | undefined;
  if (e instanceof Hdf5Error) return e.message;
  const fromDiagnostics = e?.hdf5Diagnostics ? summarizeHdf5Diagnostics(e.hdf5Diagnostics) : '';
  const fromMessage = e?.message ? summarizeHdf5Diagnostics(e.message) : String(err);
  return (fromDiagnostics || fromMessage || 'unknown HDF5 error').replace(/\s+/g, ' ');
}

/** Open an HDF5 file; throws an Error carrying HDF5's one-line reason when it cannot. */
export async function openH5(path: string, mode: H5Mode): Promise<H5File> {
  const h5 = await loadH5();
  return openH5Sync(h5, path, mode);
}

/** Synchronous variant of `openH5` for callers that already awaited `loadH5()`. */
export function openH5Sync(h5: H5Module, path: string, mode: H5Mode): H5File {
  const { value: file, diagnostics } = withHdf5Diagnostics(() => new h5.File(path, mode));
  if (file.file_id < 0n) throw new Hdf5Error(diagnostics, 'HDF5 could not open the file');
  return file;
}

/** Close a file, ignoring failures (used on error paths where the first error matters). */
export function closeQuietly(file: H5File | undefined): void {
  if (!file) return;
  try {
    withHdf5Diagnostics(() => file.close());
  } catch {
    /* the original error is the one worth reporting */
  }
}
