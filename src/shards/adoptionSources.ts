/**
 * What `wflo run CAMPAIGN --adopt PATH...` reads. Every path (a wflo layouts file, a `wflo shards
 * merge` rescue file, another pipeline's worker file, or a folder of them) is read the way the
 * shard doctor reads it: byte checks first, then HDF5 in throwaway probe processes (an untrusted
 * file can break the h5wasm instance, h5wasm issue #46), with the same reading options (`--field`,
 * `--key-pattern`, `--shape`, ...), declared sizes checked before anything is read, and record
 * payloads spilled to a private temporary folder. Each record carries the file it came from as its
 * source (`adopted:<path>/worker_7.h5`, rowSource.ts). The result is one AdoptionSource per path for
 * the runner's adoption (runner/adoptRecords.ts verifies every record against the campaign), and
 * the findings per file: why a file yields nothing (unreadable and why, no records and what was
 * looked for, nothing that is a task of this campaign), records that could not be used.
 *
 * With `keepRecords: false` nothing is spilled: only the task ids are kept, to count records (the
 * `--dry-run` preview keeps the records too: it passes them through the gate as a run would).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { InputError } from '../util/errors.js';
import type { Campaign } from '../campaign/campaign.js';
import { parseTaskId, taskIdOf, type LayoutRecord } from '../io/layoutRecord.js';
import type { AdoptionSource } from '../runner/adoptRecords.js';
import { listShardFiles } from './fileSelection.js';
import { scanShards, type ScanResult } from './shardScan.js';
import { SpillReader } from './spillStore.js';
import { describeRange } from './expectedGrid.js';
import { fileLabelOf, rowSourceOf } from './rowSource.js';
import type { IndexedRecord, ShardFileReport, ShardReadOptions } from './shardTypes.js';

export interface AdoptionReadOptions {
  read: ShardReadOptions;
  /** File name pattern inside folders (`--pattern`). */
  pattern: string;
  jobs?: number;
  timeoutMs?: number;
  /** Spill record payloads for adoption (false: a preview that keeps only task ids). */
  keepRecords: boolean;
  /**
   * `--aep`: with `recompute` wflo stores its own AEP, so a record without one (or with NaN) is
   * usable (its reported AEP is NaN); with `verify` (the default) it is not: there is nothing to verify.
   */
  aep?: 'verify' | 'recompute';
}

/** One `--adopt` path after reading. */
export interface AdoptionSourceScan {
  /** The path as the user gave it (stamped into the rows' source as `adopted:<label>`). */
  label: string;
  files: ShardFileReport[];
  /** Records read (duplicates counted each time). */
  records: number;
  /** Task ids of the records that are tasks of this campaign, in file order (duplicates kept). */
  taskIds: string[];
  /**
   * What to tell the user about its files, one line each: `<file>: <why>` (a file that yields
   * nothing or only part of its records) or `not adopted: <task> from <file> (<where>): <reason>`.
   */
  findings: string[];
  /** One line: records found, how many are tasks of the campaign. */
  summary: string;
}

export interface AdoptionScan {
  sources: AdoptionSourceScan[];
  /** Every source's findings and then its summary, as a run prints them (without the `wflo: ` prefix). */
  findings: string[];
  /** The records per source for runner/adoptRecords.ts (empty when keepRecords was false). */
  adoption: AdoptionSource[];
  /** Remove the spilled payloads (call when the adoption is over, also on failure). */
  close(): void;
}

/** Lines per file listing records that could not be used (the file line gives the count). */
const LOST_LINES_PER_FILE = 20;
const RECORDS_PER_BATCH = 256;

/** Whether (farm, type, seed) is a task of `c` (its grid, restricted to `only`). */
export function gridMembership(c: Campaign): (farmId: number, farmType: number, seed: number) => boolean {
  const farms = new Set(c.farms.map((f) => f.id));
  const types = new Set(c.farmTypes.map((t) => t.id));
  const seeds = new Set(c.seeds);
  const only = c.only ? new Set(c.only) : null;
  return (farmId, farmType, seed) => farms.has(farmId) && types.has(farmType) && seeds.has(seed) && (!only || only.has(taskIdOf(farmId, farmType, seed)));
}

function gridText(c: Campaign): string {
  const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
  const grid = `farms ${describeRange(sorted(c.farms.map((f) => f.id)))}, farm types ${describeRange(sorted(c.farmTypes.map((t) => t.id)))}, seeds ${describeRange(sorted(c.seeds))}`;
  return c.only ? `${grid}, restricted to ${c.only.length} tasks` : grid;
}

/**
 * The files a path stands for: a folder's files matching `pattern`, or the file itself. A path
 * that is nothing (missing, a symbolic link loop, a dangling link) is an InputError saying which.
 */
export function adoptionFilesOf(target: string, pattern: string): string[] {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(target);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    let link: string | null = null;
    try {
      link = fs.readlinkSync(target);
    } catch {
      /* not a link */
    }
    if (code === 'ELOOP') throw new InputError(`--adopt ${target}: a symbolic link loop (ELOOP), not a file or folder`);
    if (code === 'ENOENT' && link !== null) throw new InputError(`--adopt ${target}: a dangling symbolic link to ${link}, not a file or folder`);
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new InputError(`--adopt ${target}: no such file or folder`);
    if (code === 'EACCES' || code === 'EPERM') return [path.resolve(target)]; // the byte check says `permission denied`
    throw new InputError(`--adopt ${target}: ${(err as Error).message}`);
  }
  if (!stat.isDirectory()) return [path.resolve(target)];
  const files = listShardFiles(target, pattern);
  if (files.length === 0) throw new InputError(`--adopt ${target}: a folder with no files matching ${pattern} (--pattern)`);
  return files;
}

/** The `--adopt` files as read, before the campaign is known (see describeAdoption). */
export interface AdoptionFiles {
  paths: readonly string[];
  files: string[];
  /** Index into `paths` of the path each file came from. */
  owner: Map<string, number>;
  scan: ScanResult;
  keepRecords: boolean;
  /** Remove the spilled payloads. */
  close(): void;
}

/**
 * Read every file the `--adopt` paths stand for (each file once, for the first path naming it).
 * An InputError for a path that is nothing; aborting `signal` stops the probe processes.
 */
export async function readAdoptionFiles(paths: readonly string[], options: AdoptionReadOptions & { signal?: AbortSignal }): Promise<AdoptionFiles> {
  const owner = new Map<string, number>();
  const files: string[] = [];
  paths.forEach((p, sourceIndex) => {
    for (const file of adoptionFilesOf(p, options.pattern)) {
      if (owner.has(file)) continue;
      owner.set(file, sourceIndex);
      files.push(file);
    }
  });
  const spillDir = options.keepRecords ? fs.mkdtempSync(path.join(os.tmpdir(), 'wflo-adopt-')) : undefined;
  const close = () => {
    if (spillDir) fs.rmSync(spillDir, { recursive: true, force: true });
  };
  try {
    const read = options.aep === 'recompute' ? { ...options.read, aepOptional: true } : options.read;
    const scan = await scanShards({ files, read, jobs: options.jobs, timeoutMs: options.timeoutMs, spillDir, signal: options.signal });
    return { paths, files, owner, scan, keepRecords: options.keepRecords, close };
  } catch (err) {
    close();
    throw err;
  }
}

/** What the files read hold for `campaign`: per source its records and tasks, findings, and the records to adopt. */
export function describeAdoption(read: AdoptionFiles, campaign: Campaign): AdoptionScan {
  const { paths, files, owner, scan } = read;
  const isTask = gridMembership(campaign);
  const recordsByFile: IndexedRecord[][] = files.map(() => []);
  for (const r of scan.records) recordsByFile[r.fileIndex].push(r);

  const sources: AdoptionSourceScan[] = paths.map((label) => ({ label, files: [], records: 0, taskIds: [], findings: [], summary: '' }));
  const display = (file: string, label: string) => fileLabelOf(file, [label]);
  files.forEach((file, i) => {
    const source = sources[owner.get(file)!];
    const report = scan.files[i];
    const records = recordsByFile[i];
    source.files.push(report);
    source.records += records.length;
    let inGrid = 0;
    let example = '';
    for (const r of records) {
      if (isTask(r.farmId, r.farmType, r.seed)) {
        inGrid++;
        source.taskIds.push(taskIdOf(r.farmId, r.farmType, r.seed));
      } else {
        example ||= taskIdOf(r.farmId, r.farmType, r.seed);
      }
    }
    source.findings.push(...fileFindings(display(file, source.label), report, records.length, inGrid, example, campaign, isTask));
  });
  for (const s of sources) {
    const nFiles = s.files.length;
    const yielding = s.files.filter((f) => f.records > 0).length;
    const fromFiles = nFiles === 1 ? '' : ` from ${yielding} of ${nFiles} files`;
    s.summary = `${s.label}: ${plural(s.records, 'record')}${fromFiles}, ${s.taskIds.length} of them tasks of campaign ${campaign.name}`;
  }
  const asRun = (line: string) => (line.startsWith('not adopted: ') ? line : `--adopt ${line}`);
  const findings = sources.flatMap((s) => [...s.findings, s.summary].map(asRun));

  let reader: SpillReader | null = null;
  const adoption: AdoptionSource[] = [];
  if (read.keepRecords) {
    reader = new SpillReader((n) => scan.spillPath(n));
    const spilled = reader;
    sources.forEach((s, sourceIndex) => {
      const chosen = files.flatMap((file, i) => (owner.get(file) === sourceIndex ? recordsByFile[i] : []));
      adoption.push({ label: s.label, records: batchesOf(chosen, spilled, (i) => display(files[i], s.label)) });
    });
  }
  return {
    sources,
    findings,
    adoption,
    close() {
      reader?.close();
      reader = null;
      read.close();
    },
  };
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** The records in order, each with its source: the file it came from (rowSource.ts). */
function* batchesOf(records: IndexedRecord[], reader: SpillReader, fileLabel: (fileIndex: number) => string): Generator<LayoutRecord[]> {
  for (let start = 0; start < records.length; start += RECORDS_PER_BATCH) {
    yield records.slice(start, start + RECORDS_PER_BATCH).map((r) => {
      const record = reader.read(r.spill!);
      return { ...record, source: rowSourceOf(record.source, fileLabel(r.fileIndex)) };
    });
  }
}

/**
 * Lines about one file: nothing when every record is a usable task of the campaign; else why it
 * yields nothing (its class and the doctor's detail), records that are no task of the campaign,
 * and one `not adopted:` line per record of a campaign task that could not be used.
 */
function fileFindings(
  name: string,
  report: ShardFileReport,
  records: number,
  inGrid: number,
  outsideExample: string,
  campaign: Campaign,
  isTask: (farmId: number, farmType: number, seed: number) => boolean,
): string[] {
  const out: string[] = [];
  if (report.class !== 'valid') {
    out.push(`${name}: ${report.class} - ${report.detail}`);
  } else {
    const parts = [plural(records, 'record')];
    if (inGrid === 0) parts.push(`none of them a task of campaign ${campaign.name} (e.g. ${outsideExample}; its grid: ${gridText(campaign)})`);
    else if (inGrid < records) parts.push(`${records - inGrid} not tasks of campaign ${campaign.name} (e.g. ${outsideExample})`);
    if (report.lost.length > 0) parts.push(report.detail.replace(/^\d+ records? \([^)]*\); /, ''));
    if (parts.length > 1) out.push(`${name}: ${parts.join('; ')}`);
  }
  const listed = report.lost.filter((l) => {
    const key = l.taskId ? parseTaskId(l.taskId) : null;
    return key !== null && isTask(key.farmId, key.farmType, key.seed);
  });
  for (const l of listed.slice(0, LOST_LINES_PER_FILE)) out.push(`not adopted: ${l.taskId} from ${name} (${l.where}): ${l.reason}`);
  if (listed.length > LOST_LINES_PER_FILE)
    out.push(`not adopted: ${listed.length - LOST_LINES_PER_FILE} more records of ${name} (\`wflo shards check ${name}\` lists them all)`);
  return out;
}
