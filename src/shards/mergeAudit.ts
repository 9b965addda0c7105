/**
 * The merge's audit report, written next to the output whatever the outcome:
 *   <output>.audit.jsonl - JSON lines: `merge_started`, one `file` event per input (class,
 *                          records found/taken, duplicates, unusable records and why, action
 *                          taken), one `duplicate` event per task seen more than once, and
 *                          `merge_finished` with the outcome and totals;
 *   <output>.audit.txt   - the short human summary (the same text the CLI prints).
 * Both are written atomically (temp file + rename).
 */
import path from 'node:path';
import { writeFileAtomic } from '../io/atomicWrite.js';
import { VERSION } from '../version.js';
import { countClasses, type MergeOptions, type MergeReport } from './shardTypes.js';
import { formatMergeSummary } from './shardText.js';

export function mergeAuditLines(report: MergeReport, options: MergeOptions): string[] {
  const now = new Date().toISOString();
  const lines: unknown[] = [
    {
      event: 'merge_started',
      time: now,
      wflo_version: VERSION,
      inputs: options.inputs.map((p) => path.resolve(p)),
      output: report.output,
      options: {
        on_invalid: options.onInvalid,
        max_invalid: options.maxInvalid ?? null,
        on_conflict: options.onConflict,
        cleanup: options.cleanup,
        shapes: options.read.shapes,
        key_pattern: options.read.keyPatternText,
        max_turbines: options.read.maxTurbines ?? null,
        expect: options.read.verify?.campaignFile ?? null,
        aep_tolerance: options.read.verify?.aepTolerance ?? null,
        tolerance_m: options.read.verify?.toleranceM ?? null,
      },
    },
  ];
  for (const f of report.files) {
    lines.push({
      event: 'file',
      path: f.path,
      bytes: f.bytes,
      class: f.class,
      records: f.records,
      taken: f.taken,
      identical_duplicates: f.identicalDuplicates,
      conflicts_lost: f.conflictsLost,
      lost: f.lost,
      detail: f.detail,
      action: f.action,
      ...(f.movedTo ? { moved_to: f.movedTo } : {}),
    });
  }
  for (const d of report.duplicates) {
    lines.push({
      event: 'duplicate',
      task_id: d.taskId,
      identical: d.identical,
      rule: d.identical ? 'identical' : options.onConflict,
      occurrences: d.occurrences.map((o) => ({ path: o.path, where: o.where, aep: o.aep })),
      chosen: d.chosen === undefined ? null : { path: d.occurrences[d.chosen].path, where: d.occurrences[d.chosen].where },
    });
  }
  lines.push({
    event: 'merge_finished',
    time: new Date().toISOString(),
    outcome: report.outcome,
    ...(report.reason ? { reason: report.reason } : {}),
    rows: report.rows,
    bytes: report.bytes,
    files: report.files.length,
    classes: countClasses(report.files),
    records_found: report.files.reduce((n, f) => n + f.records, 0),
    records_lost: report.lostRecords,
    records_rejected: report.rejectedRecords,
    problems: report.problems,
    duplicates: report.duplicates.length,
    conflicts: report.conflicts.length,
    quarantined: report.quarantined.length,
    deleted: report.deleted.length,
    seconds: Number(report.seconds.toFixed(3)),
  });
  return lines.map((l) => JSON.stringify(l));
}

export function writeMergeAudit(report: MergeReport, options: MergeOptions): void {
  writeFileAtomic(report.auditPath, mergeAuditLines(report, options).join('\n') + '\n');
  writeFileAtomic(report.summaryPath, formatMergeSummary(report, options));
}
