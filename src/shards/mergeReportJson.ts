/**
 * `wflo shards merge --json`: the merge's outcome as one JSON object, in the shape and naming of
 * `wflo shards check --json` (shardCheck.ts `checkReportJson`): every input file with its class,
 * records and what the merge did with it, duplicate and conflicting tasks, and a summary.
 */
import { countClasses, type MergeReport } from './shardTypes.js';

export function mergeReportJson(report: MergeReport): unknown {
  const groups = (list: MergeReport['duplicates']) =>
    list.map((d) => ({
      task_id: d.taskId,
      identical: d.identical,
      occurrences: d.occurrences.map((o) => ({ path: o.path, where: o.where, aep: o.aep })),
      kept: d.chosen !== undefined ? d.occurrences[d.chosen].path : null,
    }));
  return {
    outcome: report.outcome,
    ...(report.reason !== undefined ? { reason: report.reason } : {}),
    output: report.output,
    files: report.files.map((f) => ({
      path: f.path,
      class: f.class,
      records: f.records,
      taken: f.taken,
      identical_duplicates: f.identicalDuplicates,
      conflicts_lost: f.conflictsLost,
      action: f.action,
      ...(f.movedTo !== undefined ? { moved_to: f.movedTo } : {}),
      detail: f.detail,
      lost: f.lost,
    })),
    duplicates: groups(report.duplicates),
    conflicts: groups(report.conflicts),
    summary: {
      files: report.files.length,
      classes: countClasses(report.files),
      rows: report.rows,
      bytes: report.bytes,
      invalid_files: report.invalid,
      lost_records: report.lostRecords,
      rejected_records: report.rejectedRecords,
      quarantined: report.quarantined,
      deleted: report.deleted,
      problems: report.problems,
      seconds: report.seconds,
    },
    audit: report.auditPath,
    audit_summary: report.summaryPath,
  };
}
