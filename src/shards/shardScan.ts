/**
 * Scan a directory of worker files: classify each one (bytes first, then HDF5 in probe child
 * processes) and collect an index of the records found. With a spill folder, record payloads
 * are kept on disk for the merge; the index in memory is small (key, AEP, digest, location).
 */
import type { ByteCheck } from './byteCheck.js';
import { checkBytes } from './byteCheck.js';
import { listShardFiles } from './fileSelection.js';
import { ProbePool } from './probePool.js';
import type { FoundRecord, ShardFileReport, ShardReadOptions } from './shardTypes.js';
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
}

/** A found record and the file it came from (index into ScanResult.files). */
export interface IndexedRecord extends FoundRecord {
  fileIndex: number;
}

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
  const pool = new ProbePool({ jobs: options.jobs, spillDir: options.spillDir, timeoutMs: options.timeoutMs });
  const found: FoundRecord[][] = new Array(files.length);
  try {
    await pool.probeAll(toProbe.map((i) => files[i]), options.read, (k, result) => {
      const i = toProbe[k];
      const check = checks[i];
      found[i] = result.records;
      reports[i] = {
        path: files[i],
        bytes: check.bytes,
        mtimeMs: check.mtimeMs,
        class: result.class,
        records: result.records.length,
        detail: result.detail + (result.class === 'unreadable' ? '' : trailingNote(check)),
        shapes: result.shapes,
        lost: result.lost,
      };
      options.onFile?.(++done, files.length, reports[i]);
    });
  } finally {
    pool.close();
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

/** Files to scan from `--from`/DIR: a directory (with pattern) or a single file. */
export function shardFilesOf(target: string, pattern: string, exclude: string[] = []): string[] {
  const files = listShardFiles(target, pattern, exclude);
  if (files.length === 0) throw new InputError(`${target}: no files match ${pattern}`);
  return files;
}
