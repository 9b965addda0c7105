/**
 * Human-readable text for the shard commands (the CLI prints it; the merge audit stores it).
 * Pure formatting: no decisions are made here.
 */
import path from 'node:path';
import {
  INVALID_CLASSES,
  SHARD_CLASSES,
  countClasses,
  type CheckReport,
  type DuplicateGroup,
  type MergeOptions,
  type MergeReport,
  type ShardClass,
  type ShardFileReport,
} from './shardTypes.js';

const LIST_LIMIT = 50;
/** Rejected records are listed one line each, up to this many (the rest are in --json / the audit). */
const REJECTED_LIMIT = 1000;

/** The deepest folder holding every file (paths in the text are relative to it). */
export function commonFolder(files: readonly string[]): string {
  if (files.length === 0) return process.cwd();
  let parts = path.dirname(path.resolve(files[0])).split(path.sep);
  for (const file of files.slice(1)) {
    const other = path.dirname(path.resolve(file)).split(path.sep);
    let k = 0;
    while (k < parts.length && k < other.length && parts[k] === other[k]) k++;
    parts = parts.slice(0, k);
  }
  return parts.join(path.sep) || path.sep;
}

/** One line per record that was read but refused: `  <task>: <reason> (<file>, <where>)`. */
function rejectedLines(files: readonly ShardFileReport[], base: string): string[] {
  const rejected = files.flatMap((f) => f.lost.filter((l) => l.rejected).map((l) => ({ f, l })));
  if (rejected.length === 0) return [];
  const out = [`rejected records (${rejected.length}):`];
  for (const { f, l } of rejected.slice(0, REJECTED_LIMIT)) {
    out.push(`  ${l.taskId ?? l.where}: ${l.reason} (${path.relative(base, f.path) || f.path}, ${l.where})`);
  }
  if (rejected.length > REJECTED_LIMIT) out.push(`  ... ${rejected.length - REJECTED_LIMIT} more`);
  return out;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

function classLine(counts: Record<ShardClass, number>): string {
  return (
    SHARD_CLASSES.filter((c) => counts[c] > 0)
      .map((c) => `${c} ${counts[c]}`)
      .join(', ') || 'none'
  );
}

function fileLine(f: ShardFileReport, base: string): string {
  const name = path.relative(base, f.path) || f.path;
  return `  ${name}: ${f.class}${f.class === 'valid' ? ` (${plural(f.records, 'record')})` : ''} - ${f.detail}`;
}

function duplicateLine(d: DuplicateGroup, base: string): string {
  const where = d.occurrences.map((o) => `${path.relative(base, o.path) || o.path} (aep ${o.aep})`).join(', ');
  return `  ${d.taskId}: ${d.identical ? 'identical' : 'CONFLICT'} in ${where}`;
}

/** `wflo shards check` text: problem files first (all of them), then a summary. */
export function formatCheckText(report: CheckReport): string {
  const base = commonFolder(report.files.map((f) => f.path));
  const out: string[] = [];
  const bad = report.files.filter((f) => INVALID_CLASSES.has(f.class) || f.lost.length > 0);
  if (bad.length > 0) {
    out.push(`files with problems (${bad.length}):`);
    for (const f of bad) out.push(fileLine(f, base));
  }
  const placeholders = report.files.filter((f) => f.class === 'placeholder_only');
  if (placeholders.length > 0) {
    out.push(`files holding no records, only placeholders (${placeholders.length}; not a problem):`);
    for (const f of placeholders.slice(0, LIST_LIMIT)) out.push(fileLine(f, base));
    if (placeholders.length > LIST_LIMIT) out.push(`  ... ${placeholders.length - LIST_LIMIT} more (see --json)`);
  }
  out.push(...rejectedLines(report.files, base));
  const recovered = report.files.filter((f) => f.recovered && f.class === 'valid' && f.lost.length === 0);
  if (recovered.length > 0) {
    out.push(`files recovered after their writer stopped with them open (${recovered.length}; records written after the last flush are not in them):`);
    for (const f of recovered.slice(0, LIST_LIMIT)) out.push(fileLine(f, base));
  }
  const shown = report.duplicates.slice(0, LIST_LIMIT);
  if (shown.length > 0) {
    out.push(`duplicate tasks (${report.duplicates.length}, ${report.conflicts} conflicting):`);
    for (const d of shown) out.push(duplicateLine(d, base));
    if (report.duplicates.length > shown.length) out.push(`  ... ${report.duplicates.length - shown.length} more (see --json)`);
  }
  out.push(`${plural(report.files.length, 'file')}: ${classLine(report.counts)}`);
  out.push(
    `records: ${report.records} usable (${report.tasks} distinct tasks), ${report.lostRecords - report.rejectedRecords} unusable, ${report.rejectedRecords} rejected, ${report.conflicts} conflicting duplicates`,
  );
  out.push(
    report.problems
      ? `problems found: ${report.problemSummary}`
      : report.counts.valid === report.files.length
        ? 'all files valid'
        : `no problems (${plural(report.counts.placeholder_only, 'file')} holding only placeholders)`,
  );
  return out.join('\n') + '\n';
}

/** The merge summary (printed, and stored as <output>.audit.txt). */
export function formatMergeSummary(report: MergeReport, options: MergeOptions): string {
  const base = commonFolder(report.files.length > 0 ? report.files.map((f) => f.path) : options.files);
  const out: string[] = [];
  out.push(`wflo shards merge, ${new Date().toISOString()}`);
  const inputs = options.inputs.map((p) => path.resolve(p)).join(', ');
  out.push(`input:   ${inputs} (${plural(report.files.length, 'file')}): ${classLine(countClasses(report.files))}`);
  if (options.read.verify) {
    const v = options.read.verify;
    out.push(
      `checked: against ${v.campaignFile} (AEP relative tolerance ${v.aepTolerance}${v.toleranceM !== undefined ? `, layouts within ${v.toleranceM} m of the site and spacing` : ''})`,
    );
  }
  const found = report.files.reduce((n, f) => n + f.records, 0);
  out.push(
    `records: ${found} usable, ${report.lostRecords - report.rejectedRecords} unusable, ${report.rejectedRecords} rejected, ${plural(report.duplicates.length, 'duplicate task')} (${report.conflicts.length} conflicting, rule ${options.onConflict})`,
  );
  if (report.outcome === 'merged') {
    out.push(`output:  ${report.output}: ${plural(report.rows, 'row')}, ${formatBytes(report.bytes)}, verified`);
  } else {
    out.push(`outcome: ${report.outcome}: ${report.reason ?? ''}`);
  }
  const invalid = report.files.filter(
    (f) => f.action === 'quarantined' || f.action === 'skipped' || (report.outcome !== 'merged' && f.class !== 'valid' && f.class !== 'placeholder_only'),
  );
  if (invalid.length > 0) {
    out.push(`invalid files (${invalid.length}):`);
    for (const f of invalid.slice(0, LIST_LIMIT))
      out.push(`${fileLine(f, base)}${f.action === 'quarantined' ? ` -> ${path.relative(base, f.movedTo!)}` : f.action === 'skipped' ? ' (skipped)' : ''}`);
    if (invalid.length > LIST_LIMIT) out.push(`  ... ${invalid.length - LIST_LIMIT} more (see ${path.basename(report.auditPath)})`);
  }
  // Rejected records have their own list below: a file is listed here only for records it could not give at all.
  const lossy = report.files.filter((f) => f.lost.some((l) => !l.rejected));
  if (lossy.length > 0) {
    out.push(`files with unusable records (${lossy.length}):`);
    for (const f of lossy.slice(0, LIST_LIMIT)) out.push(fileLine(f, base));
  }
  out.push(...rejectedLines(report.files, base));
  for (const d of report.conflicts.slice(0, LIST_LIMIT))
    out.push(`${duplicateLine(d, base)}${d.chosen !== undefined ? ` -> kept ${path.relative(base, d.occurrences[d.chosen].path)}` : ''}`);
  if (report.deleted.length > 0) out.push(`cleanup: deleted ${plural(report.deleted.length, 'merged input')}`);
  out.push(`audit:   ${report.auditPath}`);
  if (report.outcome === 'merged') out.push(report.problems ? `problems found (exit 3): ${report.problemSummary}; see the lists above` : 'no problems');
  return out.join('\n') + '\n';
}
