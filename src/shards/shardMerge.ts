/**
 * `wflo shards merge`: merge the valid records of worker files (any number of files and folders)
 * into wflo's own HDF5 schema (layouts.h5), through the atomic writer (temp file, fsync, reopen +
 * verify, rename). Inputs are never modified; afterwards, and only once the output is verified,
 * `quarantine` moves invalid files to quarantine/ beside them and `cleanup` deletes fully merged
 * inputs.
 * Each row's `/source` names the worker file it came from (`adopted:<folder>/worker_7.h5`, or the
 * name a wflo file already gave it: rowSource.ts).
 * Memory stays bounded: probe children spill record payloads to disk next to the output, and
 * the writer streams them back in sorted order.
 *
 * Policy:
 *   invalid files (empty, no_signature, truncated, unreadable, schema_mismatch):
 *     abort (default) - merge nothing, exit 3;  skip - leave them;  quarantine - move them.
 *     --max-invalid N - abort anyway when more than N files are invalid.
 *   conflicting duplicates: --on-conflict error (default) | first | best-aep (duplicates.ts).
 *   Exit 3 whenever something was left out (shardProblems.ts, the definition check shares).
 *   cleanup deletes a file only if every record in it reached the output (or is an identical
 *   duplicate of one that did) and none was unusable; placeholder-only files are deleted too.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { isProcessAlive, writeLayoutsFile } from '../io/hdf5/index.js';
import { taskIdOf, type LayoutRecord } from '../io/layoutRecord.js';
import { CheckFailed, InputError, RuntimeFailure } from '../util/errors.js';
import { resolveDuplicates } from './duplicates.js';
import { problemsText, shardProblems } from './shardProblems.js';
import { scanShards, type ScanResult } from './shardScan.js';
import { SpillReader } from './spillStore.js';
import {
  INVALID_CLASSES,
  type DuplicateGroup,
  type FileAction,
  type IndexedRecord,
  type MergeAuditFile,
  type MergeOptions,
  type MergeReport,
} from './shardTypes.js';
import { writeMergeAudit } from './mergeAudit.js';
import { fileIdentity } from './byteCheck.js';
import { fileLabelOf, rowSourceOf } from './rowSource.js';

export { INVALID_POLICIES, type InvalidPolicy, type MergeOptions, type MergeReport } from './shardTypes.js';

const BATCH_ROWS = 512;

/** The chosen records in order, each with its `/source`: the worker file it came from (rowSource.ts). */
async function* spilledBatches(chosen: IndexedRecord[], reader: SpillReader, fileLabel: (fileIndex: number) => string): AsyncGenerator<LayoutRecord[]> {
  for (let start = 0; start < chosen.length; start += BATCH_ROWS) {
    const batch: LayoutRecord[] = [];
    for (const r of chosen.slice(start, start + BATCH_ROWS)) {
      const record = reader.read(r.spill!);
      batch.push({ ...record, source: rowSourceOf(record.source, fileLabel(r.fileIndex)) });
    }
    yield batch;
  }
}

/** A free name in `folder` for `base` (base, base.1, base.2, ...). */
function freeName(folder: string, base: string): string {
  let candidate = path.join(folder, base);
  for (let n = 1; fs.existsSync(candidate); n++) candidate = path.join(folder, `${base}.${n}`);
  return candidate;
}

/** Spill folders left by merges that were killed (their pid is gone). */
function removeStaleSpillDirs(outDir: string, base: string): void {
  const prefix = `.${base}.spill-`;
  for (const name of fs.readdirSync(outDir)) {
    if (!name.startsWith(prefix)) continue;
    const pid = Number(name.slice(prefix.length).split('-')[0]);
    if (pid === process.pid || isProcessAlive(pid)) continue;
    fs.rmSync(path.join(outDir, name), { recursive: true, force: true });
  }
}

function contentHash(chosen: IndexedRecord[]): string {
  const hash = createHash('sha256');
  for (const r of chosen) hash.update(`${r.farmId},${r.farmType},${r.seed},${r.digest}\n`);
  return `shards-sha256:${hash.digest('hex').slice(0, 32)}`;
}

/** Per-file accounting: records taken into the output, identical duplicates, conflicts lost. */
function fileAccounting(scan: ScanResult, chosen: IndexedRecord[], duplicates: DuplicateGroup[]) {
  const taken = new Array<number>(scan.files.length).fill(0);
  for (const r of chosen) taken[r.fileIndex]++;
  const identicalDropped = new Array<number>(scan.files.length).fill(0);
  const conflictsLost = new Array<number>(scan.files.length).fill(0);
  const indexOfPath = new Map(scan.files.map((f, i) => [f.path, i]));
  for (const d of duplicates) {
    d.occurrences.forEach((o, k) => {
      if (k === d.chosen) return;
      const i = indexOfPath.get(o.path)!;
      if (d.chosen !== undefined && o.digest === d.occurrences[d.chosen].digest) identicalDropped[i]++;
      else conflictsLost[i]++;
    });
  }
  return { taken, identicalDropped, conflictsLost };
}

/** Whether `file` is absent or was written by a merge (an audit we may replace without --force). */
function isOurAudit(file: string, firstLine: (line: string) => boolean): boolean {
  let text: string;
  try {
    const fd = fs.openSync(file, 'r');
    try {
      const buffer = Buffer.alloc(4096);
      text = buffer.subarray(0, fs.readSync(fd, buffer, 0, buffer.length, 0)).toString('utf8');
    } finally {
      fs.closeSync(fd);
    }
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT';
  }
  return firstLine(text.split('\n', 1)[0] ?? '');
}

function isMergeStartedLine(line: string): boolean {
  try {
    return (JSON.parse(line) as { event?: unknown }).event === 'merge_started';
  } catch {
    return false;
  }
}

/** Default campaign_name: the one folder given, else the output's name without extension. */
function defaultCampaignName(options: MergeOptions, output: string): string {
  if (options.inputs.length === 1) {
    const input = path.resolve(options.inputs[0]);
    try {
      if (fs.statSync(input).isDirectory()) return path.basename(input);
    } catch {
      /* fall through */
    }
  }
  return path.basename(output).replace(/\.[^.]*$/, '');
}

export async function mergeShards(options: MergeOptions): Promise<MergeReport> {
  const started = performance.now();
  const output = path.resolve(options.output);
  const outDir = path.dirname(output);
  if (!fs.existsSync(outDir)) throw new InputError(`${options.output}: folder ${outDir} does not exist`);
  if (fs.existsSync(output) && !options.force) throw new InputError(`${options.output} already exists (use --force to replace it)`);
  if (!options.force) {
    for (const [file, ours] of [
      [`${output}.audit.jsonl`, isMergeStartedLine],
      [`${output}.audit.txt`, (l: string) => l.startsWith('wflo shards merge, ')],
    ] as const) {
      if (!isOurAudit(file, ours)) throw new InputError(`${file} exists and is not a merge audit (use --force to replace it)`);
    }
  }
  if (options.maxInvalid !== undefined && (!Number.isInteger(options.maxInvalid) || options.maxInvalid < 0)) {
    throw new InputError(`--max-invalid must be an integer >= 0, got ${options.maxInvalid}`);
  }
  const auditPath = `${output}.audit.jsonl`;
  const summaryPath = `${output}.audit.txt`;
  removeStaleSpillDirs(outDir, path.basename(output));
  const spillDir = fs.mkdtempSync(path.join(outDir, `.${path.basename(output)}.spill-${process.pid}-`));
  const report: MergeReport = {
    outcome: 'failed',
    output,
    rows: 0,
    bytes: 0,
    files: [],
    duplicates: [],
    conflicts: [],
    invalid: 0,
    lostRecords: 0,
    rejectedRecords: 0,
    problems: false,
    problemSummary: '',
    quarantined: [],
    deleted: [],
    auditPath,
    summaryPath,
    seconds: 0,
    probeProcesses: 0,
    probePeakRssKb: [],
    probeCpuSeconds: 0,
  };
  const finish = (): MergeReport => {
    report.seconds = (performance.now() - started) / 1000;
    writeMergeAudit(report, options);
    return report;
  };
  try {
    const scan = await scanShards({
      files: options.files,
      read: options.read,
      jobs: options.jobs,
      spillDir,
      timeoutMs: options.timeoutMs,
      onFile: options.onFile,
    });
    report.probeProcesses = scan.probeProcesses;
    report.probePeakRssKb = scan.probePeakRssKb;
    report.probeCpuSeconds = scan.probeCpuSeconds;
    const invalidFiles = scan.files.filter((f) => INVALID_CLASSES.has(f.class));
    report.invalid = invalidFiles.length;
    report.lostRecords = scan.files.reduce((n, f) => n + f.lost.length, 0);
    report.rejectedRecords = scan.files.reduce((n, f) => n + f.lost.filter((l) => l.rejected).length, 0);
    const resolution = resolveDuplicates(scan.records, (i) => scan.files[i].path, options.onConflict);
    const problems = shardProblems(scan.files, resolution.duplicates);
    report.problems = problems.any;
    report.problemSummary = problemsText(problems);
    report.duplicates = resolution.duplicates;
    report.conflicts = resolution.conflicts;
    const { taken, identicalDropped, conflictsLost } = fileAccounting(scan, resolution.chosen, resolution.duplicates);
    report.files = scan.files.map((f, i) => ({
      ...f,
      taken: taken[i],
      identicalDuplicates: identicalDropped[i],
      conflictsLost: conflictsLost[i],
      action: (INVALID_CLASSES.has(f.class) ? 'skipped' : f.class === 'placeholder_only' ? 'none' : 'merged') as FileAction,
    }));

    const firstInvalid = invalidFiles[0];
    const invalidExample = firstInvalid ? `${path.basename(firstInvalid.path)} is ${firstInvalid.class}: ${firstInvalid.detail}` : '';
    if (options.onInvalid === 'abort' && (invalidFiles.length > 0 || report.rejectedRecords > 0)) {
      const firstRejected = scan.files.flatMap((f) =>
        f.lost.filter((l) => l.rejected).map((l) => `${l.taskId ?? l.where} in ${path.basename(f.path)}: ${l.reason}`),
      )[0];
      const what =
        invalidFiles.length > 0
          ? `${invalidFiles.length} invalid file${invalidFiles.length === 1 ? '' : 's'} (${invalidExample})`
          : `${report.rejectedRecords} rejected record${report.rejectedRecords === 1 ? '' : 's'} (${firstRejected})`;
      report.outcome = 'aborted';
      report.reason = `${what}; nothing written (rerun with --on-invalid skip or quarantine to merge the rest)`;
      report.files.forEach((f) => {
        f.action = 'none';
      });
      finish();
      throw new CheckFailed(`merge aborted: ${report.reason}`);
    }
    if (options.maxInvalid !== undefined && invalidFiles.length > options.maxInvalid) {
      report.outcome = 'aborted';
      report.reason = `${invalidFiles.length} invalid files exceed --max-invalid ${options.maxInvalid} (${invalidExample}); nothing written`;
      report.files.forEach((f) => {
        f.action = 'none';
      });
      finish();
      throw new CheckFailed(`merge aborted: ${report.reason}`);
    }
    if (resolution.conflicts.length > 0 && options.onConflict === 'error') {
      const c = resolution.conflicts[0];
      const seen = c.occurrences.map((o) => `aep ${o.aep} in ${path.basename(o.path)} (${o.where})`).join(' vs ');
      report.outcome = 'aborted';
      report.reason = `${resolution.conflicts.length} task${resolution.conflicts.length === 1 ? '' : 's'} with conflicting duplicates (${c.taskId}: ${seen}); nothing written (choose --on-conflict first or best-aep)`;
      report.files.forEach((f) => {
        f.action = 'none';
      });
      finish();
      throw new CheckFailed(`merge aborted: ${report.reason}`);
    }

    const chosen = resolution.chosen;
    const expected = options.expectedTaskIds;
    const chosenIds = expected ? new Set(chosen.map((r) => taskIdOf(r.farmId, r.farmType, r.seed))) : undefined;
    options.onWriting?.(chosen.length);
    const reader = new SpillReader((file) => scan.spillPath(file));
    try {
      const fileLabel = (i: number) => fileLabelOf(scan.files[i].path, options.inputs);
      const written = await writeLayoutsFile(
        output,
        spilledBatches(chosen, reader, fileLabel),
        {
          campaignName: options.campaignName ?? defaultCampaignName(options, output),
          campaignHash: contentHash(chosen),
          nExpected: expected ? expected.size : -1,
          complete: expected ? [...expected].every((id) => chosenIds!.has(id)) : false,
          maxTurbines: chosen.reduce((m, r) => Math.max(m, r.nTurbines), 0),
          nRows: chosen.length,
          source: 'wflo shards merge',
          attributes: { merged_from: options.inputs.map((p) => path.resolve(p)).join(', '), merged_files: scan.files.length },
        },
        { overwrite: options.force },
      );
      report.rows = written.rows;
      report.bytes = written.bytes;
    } catch (err) {
      report.outcome = 'failed';
      report.reason = (err as Error).message;
      report.files.forEach((f) => {
        f.action = 'none';
      });
      finish();
      throw err;
    } finally {
      reader.close();
    }
    report.outcome = 'merged';

    // Only now, with the output verified and in place, touch the inputs; never one that
    // changed since it was checked (a worker may still be writing it).
    const changedSinceCheck = (f: MergeAuditFile): boolean => {
      const now = fileIdentity(f.path);
      return !now || now.bytes !== f.bytes || now.mtimeMs !== f.mtimeMs;
    };
    if (options.onInvalid === 'quarantine' && invalidFiles.length > 0) {
      for (const f of report.files) {
        if (!INVALID_CLASSES.has(f.class)) continue;
        const quarantine = path.join(path.dirname(f.path), 'quarantine');
        if (changedSinceCheck(f)) {
          f.detail += '; changed during the merge, left in place';
          continue;
        }
        try {
          fs.mkdirSync(quarantine, { recursive: true });
          const target = freeName(quarantine, path.basename(f.path));
          fs.renameSync(f.path, target);
          f.action = 'quarantined';
          f.movedTo = target;
          report.quarantined.push(target);
        } catch (err) {
          f.action = 'skipped';
          f.detail += `; could not move to quarantine (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`;
        }
      }
    }
    if (options.cleanup) {
      for (const f of report.files) {
        const fullyMerged = (f.class === 'valid' || f.class === 'placeholder_only') && f.lost.length === 0 && f.conflictsLost === 0;
        if (!fullyMerged || changedSinceCheck(f)) {
          if (fullyMerged) f.detail += '; changed during the merge, not deleted';
          if (f.action === 'merged') f.action = 'kept';
          continue;
        }
        try {
          fs.rmSync(f.path);
          f.action = 'deleted';
          report.deleted.push(f.path);
        } catch (err) {
          f.detail += `; could not delete (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`;
        }
      }
    }
    return finish();
  } catch (err) {
    if (err instanceof CheckFailed || err instanceof InputError || err instanceof RuntimeFailure) throw err;
    throw new RuntimeFailure(`merge failed: ${(err as Error).message}`);
  } finally {
    fs.rmSync(spillDir, { recursive: true, force: true });
  }
}

export { countClasses } from './shardTypes.js';
