/**
 * The one place that loads h5wasm (the HDF5 C library compiled to WebAssembly) and opens files
 * with it. It hides two sharp edges found while probing h5wasm 0.10.3 (HDF5 2.0.0 inside):
 * - `new File(...)` does not throw when the open fails: it returns a handle whose `file_id` is
 *   negative. `openH5` turns that into an Error.
 * - The C library prints its whole error stack ("HDF5-DIAG: ...") to stderr through the wasm
 *   module's own `console.error` binding. `withHdf5Diagnostics` captures that text for the
 *   duration of a call, so users see one line and code can reuse the innermost reason.
 *
 * Not for untrusted files in a long-lived process: a failed open of a corrupt file can leave the
 * wasm instance unusable (h5wasm issue #46); shards/ probes such files in a child process.
 */
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

/**
 * Run `fn` with process.stderr writes captured (HDF5's diagnostics reach stderr through
 * console.error). Synchronous only: HDF5 calls are synchronous, so nothing else can write to
 * stderr in between.
 */
export function withHdf5Diagnostics<T>(fn: () => T): Captured<T> {
  const chunks: string[] = [];
  const stderr = process.stderr;
  const originalWrite = stderr.write;
  stderr.write = ((chunk: unknown): boolean => {
    chunks.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8'));
    return true;
  }) as typeof stderr.write;
  try {
    const value = fn();
    return { value, diagnostics: chunks.join('') };
  } catch (err) {
    const diagnostics = chunks.join('');
    if (err instanceof Error && diagnostics) (err as Error & { hdf5Diagnostics?: string }).hdf5Diagnostics = diagnostics;
    throw err;
  } finally {
    stderr.write = originalWrite;
  }
}

/**
 * The innermost reason in an HDF5 error stack, e.g. "file signature not found" or
 * "truncated file: eof = 800, ...". Falls back to the first non-empty line.
 */
export function summarizeHdf5Diagnostics(text: string): string {
  const reasons = [...text.matchAll(/#\d+: .*? in [\w.]+\(\): (.*)$/gm)].map((m) => m[1].trim());
  if (reasons.length > 0) return reasons[reasons.length - 1];
  const firstLine = text.split('\n').map((l) => l.trim()).find((l) => l.length > 0);
  return firstLine ?? '';
}

/** One-line reason of an error thrown by an HDF5 call (captured diagnostics first). */
export function hdf5ErrorReason(err: unknown): string {
  const e = err as (Error & { hdf5Diagnostics?: string }) | undefined;
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
  if (file.file_id < 0n) {
    const reason = summarizeHdf5Diagnostics(diagnostics) || 'HDF5 could not open the file';
    const err = new Error(reason) as Error & { hdf5Diagnostics?: string };
    err.hdf5Diagnostics = diagnostics;
    throw err;
  }
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
