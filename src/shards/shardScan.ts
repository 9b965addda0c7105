/**
 * Scan worker files: classify each one (bytes first, then HDF5 in probe child processes) and
 * collect an index of the records found. With a spill folder, record payloads are kept on disk
 * for the merge; the index in memory is small (key, AEP, digest, location). A file whose writer
 * died with it open for writing is read from a temporary copy with the flags cleared
 * (writerCrashCopy.ts); the input itself is only ever read.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ByteCheck } from './byteCheck.js';
import { checkBytes } from './byteCheck.js';
import { listShardFiles, shardFilesOfPaths } from './fileSelection.js';
import { clearedCopy, leftOpenForWrite } from './writerCrashCopy.js';
import { ProbePool } from './probePool.js';
import type { FoundRecord, IndexedRecord, ProbeResult, ShardFileReport, ShardReadOptions } from './shardTypes.js';
import { InputError } from '../util/errors.js';

export interface ScanOptions {
  /** Files to scan (a directory plus pattern is resolved by the caller with listShardFiles). */
  files: string[];
  read: ShardReadOptions;
  /** Probe processes (default 2). */
  jobs?: number;
  /** Keep record payloads in this folder (merge). */
  spillDir?: string;
  timeoutMs?: number;
  /** Called after each file is classified (progress). */
  onFile?: (done: number, total: number, report: ShardFileReport) => void;
  /** Aborting it stops the probe processes; the scan then rejects. */
  signal?: AbortSignal;
}

export type { IndexedRecord } from './shardTypes.js';

export interface ScanResult {
  files: ShardFileReport[];
  /** Every usable record, in file order then in-file order. */
  records: IndexedRecord[];
  /** Path of spill file `n` (merge only). */
  spillPath: (file: number) => string;
  /** Probe child processes started (one per `jobs`, plus one per replaced child). */
  probeProcesses: number;
  /** Peak RSS (KiB) of each probe child (Linux). */
  probePeakRssKb: number[];
  /** CPU seconds used by the probe children (Linux). */
  probeCpuSeconds: number;
}

/** Copies of files left open for writing made at once (each as large as its file). */
const RECOVERY_BATCH = 32;

const RECOVERED_NOTE =
  'writer stopped with the file open (superblock flags set): read from a copy with the flags cleared (as h5clear -s), records flushed before the stop recovered';

function trailingNote(check: ByteCheck): string {
  return check.trailingBytes > 0 ? `; ${check.trailingBytes} bytes past the superblock's end of file (written after the last flush, not reachable)` : '';
}

export async function scanShards(options: ScanOptions): Promise<ScanResult> {
  const files = options.files;
  const reports: ShardFileReport[] = new Array(files.length);
  const checks = files.map((f) => checkBytes(f));
  const toProbe: number[] = [];
  let done = 0;
  checks.forEach((check, i) => {
    if (check.class) {
      reports[i] = { path: files[i], bytes: check.bytes, mtimeMs: check.mtimeMs, class: check.class, records: 0, detail: check.detail, shapes: [], lost: [] };
      options.onFile?.(++done, files.length, reports[i]);
    } else {
      toProbe.push(i);
    }
  });
  // Files left open for writing are read from copies with the flags cleared, made in a private
  // folder RECOVERY_BATCH at a time (disk use stays bounded), after every other file.
  const needsCopy = toProbe.filter((i) => leftOpenForWrite(checks[i].superblock));
  const direct = toProbe.filter((i) => !leftOpenForWrite(checks[i].superblock));
  const pool = new ProbePool({ jobs: options.jobs, spillDir: options.spillDir, timeoutMs: options.timeoutMs });
  const found: FoundRecord[][] = new Array(files.length);
  const report = (i: number, result: ProbeResult, note: string | null) => {
    const check = checks[i];
    found[i] = result.records;
    reports[i] = {
      path: files[i],
      bytes: check.bytes,
      mtimeMs: check.mtimeMs,
      class: result.class,
      records: result.records.length,
      detail: result.detail + (result.class === 'unreadable' ? '' : trailingNote(check)) + (note ? `; ${note}` : ''),
      shapes: result.shapes,
      lost: result.lost,
      ...(note ? { recovered: true } : {}),
    };
    options.onFile?.(++done, files.length, reports[i]);
  };
  let copyFolder: string | null = null;
  try {
    await pool.probeAll(
      direct.map((i) => files[i]),
      options.read,
      (k, result) => report(direct[k], result, null),
      options.signal,
    );
    for (let start = 0; start < needsCopy.length; start += RECOVERY_BATCH) {
      const batch: number[] = [];
      const copies: string[] = [];
      for (const i of needsCopy.slice(start, start + RECOVERY_BATCH)) {
        try {
          copyFolder ??= fs.mkdtempSync(path.join(options.spillDir ?? os.tmpdir(), options.spillDir ? 'recover-' : 'wflo-recover-'));
          copies.push(clearedCopy(files[i], checks[i].superblock!, copyFolder, i));
          batch.push(i);
        } catch (err) {
          report(
            i,
            {
              class: 'unreadable',
              shapes: [],
              records: [],
              lost: [],
              hdf5Errors: false,
              detail: `the writer stopped with the file open (superblock flags set) and copying it to clear the flags failed: ${(err as Error).message}`,
            },
            null,
          );
        }
      }
      try {
        await pool.probeAll(copies, options.read, (k, result) => report(batch[k], result, RECOVERED_NOTE), options.signal);
      } finally {
        for (const copy of copies) fs.rmSync(copy, { force: true });
      }
    }
  } finally {
    pool.close();
    if (copyFolder) fs.rmSync(copyFolder, { recursive: true, force: true });
  }
  const records: IndexedRecord[] = [];
  found.forEach((list, fileIndex) => {
    for (const r of list ?? []) records.push({ ...r, fileIndex });
  });
  return {
    files: reports,
    records,
    spillPath: (file) => pool.spillPath(file),
    probeProcesses: pool.started,
    probePeakRssKb: pool.peakRssKb,
    probeCpuSeconds: pool.cpuSeconds,
  };
}

/** Files to scan from one folder (with pattern). */
export function shardFilesOf(target: string, pattern: string, exclude: string[] = []): string[] {
  const files = listShardFiles(target, pattern, exclude);
  if (files.length === 0) throw new InputError(`${target}: no files match ${pattern}`);
  return files;
}

/** Files to scan from any number of files and folders (folders with pattern). */
export function shardFilesOfAll(targets: string[], pattern: string, exclude: string[] = []): string[] {
  const files = shardFilesOfPaths(targets, pattern, exclude);
  if (files.length === 0) throw new InputError(`${targets.join(', ')}: no files match ${pattern}`);
  return files;
}
