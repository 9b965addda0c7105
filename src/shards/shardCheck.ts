/**
 * `wflo shards check`: classify every worker file and report duplicate keys across files.
 * Problems (exit 3) are what shardProblems.ts says, the same definition `merge` applies: an
 * invalid file, a record that could not be used or was rejected, a task whose duplicates
 * disagree. Placeholder-only files and identical duplicates are reported but are not problems.
 */
import { resolveDuplicates } from './duplicates.js';
import { problemsText, shardProblems } from './shardProblems.js';
import { scanShards } from './shardScan.js';
import { countClasses, type CheckReport, type ShardFileReport, type ShardReadOptions } from './shardTypes.js';

export { countClasses, type CheckReport } from './shardTypes.js';

export interface CheckOptions {
  files: string[];
  read: ShardReadOptions;
  jobs?: number;
  timeoutMs?: number;
  onFile?: (done: number, total: number, report: ShardFileReport) => void;
}

export async function checkShards(options: CheckOptions): Promise<CheckReport> {
  const scan = await scanShards({ files: options.files, read: options.read, jobs: options.jobs, timeoutMs: options.timeoutMs, onFile: options.onFile });
  const resolution = resolveDuplicates(scan.records, (i) => scan.files[i].path, 'first');
  const lostRecords = scan.files.reduce((n, f) => n + f.lost.length, 0);
  const rejectedRecords = scan.files.reduce((n, f) => n + f.lost.filter((l) => l.rejected).length, 0);
  const counts = countClasses(scan.files);
  const problems = shardProblems(scan.files, resolution.duplicates);
  return {
    files: scan.files,
    duplicates: resolution.duplicates,
    counts,
    records: scan.records.length,
    tasks: resolution.chosen.length,
    lostRecords,
    rejectedRecords,
    conflicts: resolution.conflicts.length,
    problems: problems.any,
    problemSummary: problemsText(problems),
  };
}

/** The `--json` form: `{"files": [{path, class, records, detail, ...}], "duplicates": [...], "summary": {...}}`. */
export function checkReportJson(report: CheckReport): unknown {
  return {
    files: report.files.map((f) => ({
      path: f.path,
      class: f.class,
      records: f.records,
      detail: f.detail,
      bytes: f.bytes,
      shapes: f.shapes,
      lost: f.lost,
      recovered: !!f.recovered,
    })),
    duplicates: report.duplicates.map((d) => ({
      task_id: d.taskId,
      identical: d.identical,
      occurrences: d.occurrences.map((o) => ({ path: o.path, where: o.where, aep: o.aep })),
    })),
    summary: {
      files: report.files.length,
      classes: report.counts,
      records: report.records,
      tasks: report.tasks,
      lost_records: report.lostRecords,
      rejected_records: report.rejectedRecords,
      conflicts: report.conflicts,
      problems: report.problems,
      problem_summary: report.problemSummary,
    },
  };
}
