/**
 * Results the ledger lacks but the output folder still holds: after a deleted or damaged ledger,
 * or a WAL file lost in a crash, `layouts.h5` and `audit.jsonl` still carry finished tasks. At
 * the start of every run (and by `wflo ledger rebuild`) they are committed back to the ledger,
 * never recomputed: a row of `layouts.h5` whose spec hash is the task's current one (format-1
 * files, which carry no spec hash, only when the file's campaign hash is the campaign's), and an
 * audit `done` line whose result and spec hash match. Rows for other spec hashes are stale and
 * stay out. Every row passes the gate (gate/rowGate.ts) like any other: an edited file's row
 * (AEP changed, a turbine moved outside) is rejected with one line, and its task is computed.
 * Audit lines are matched as JSON, not as text: a log rewritten by another JSON writer (other
 * spacing, key order) is read the same.
 *
 * The audit log is scanned from the offset recorded in the ledger (`audit_scanned_bytes`), up to
 * which every `done` line is known to be committed; a ledger that lost that meta row (or was
 * rebuilt) scans from the start.
 */
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { LayoutsFileReader } from '../io/hdf5/index.js';
import type { Task } from '../campaign/taskGrid.js';
import type { Ledger } from './ledger.js';
import type { ResultRow } from './resultRow.js';
import type { RowGate, VerifiedRow } from './gate/rowGate.js';
import { AUDIT_FILE } from './auditLog.js';
import { LAYOUTS_FILE } from './exporter.js';
import { resultFromAudit } from './auditResult.js';

export const AUDIT_SCANNED_META = 'audit_scanned_bytes';
const COMMIT_BATCH = 512;

export interface RecoveryRejection {
  taskId: string;
  source: string;
  reason: string;
}

export interface RecoveryReport {
  fromLayouts: number;
  fromAudit: number;
  /** Rows the files held that failed the gate (their tasks are computed). */
  rejected: RecoveryRejection[];
  /** Why layouts.h5 could not be read for recovery (null: read, or absent). */
  layoutsProblem: string | null;
}

/** Commit back every result that layouts.h5 or audit.jsonl holds and the ledger lacks. */
export async function recoverLostResults(dir: string, tasks: Iterable<Task>, ledger: Ledger, campaignHash: string, gate: RowGate,
  onReject?: (r: RecoveryRejection) => void): Promise<RecoveryReport> {
  const report: RecoveryReport = { fromLayouts: 0, fromAudit: 0, rejected: [], layoutsProblem: null };
  const admit = (task: Task, candidate: ResultRow, file: string): VerifiedRow | null => {
    const verdict = gate.checkNow(task, candidate, { kind: 'recovered', file });
    if (verdict.ok) return verdict.row;
    const r = { taskId: task.taskId, source: verdict.source, reason: verdict.reason };
    report.rejected.push(r);
    onReject?.(r);
    return null;
  };
  const layouts = path.join(dir, LAYOUTS_FILE);
  const audit = path.join(dir, AUDIT_FILE);
  const auditSize = fs.existsSync(audit) ? fs.statSync(audit).size : 0;
  const recorded = Number(ledger.getMeta(AUDIT_SCANNED_META) ?? '0');
  const auditStart = Number.isFinite(recorded) && recorded >= 0 && recorded <= auditSize ? recorded : 0;
  // layouts.h5 as the ledger's last export wrote it holds nothing the ledger lacks.
  const layoutsToRead = fs.existsSync(layouts) && !(await isLastExport(layouts, ledger));
  // Usually nothing to look at: a first run, or a resumed one whose files the ledger has seen.
  if (!layoutsToRead && auditStart >= auditSize) return report;
  const done = ledger.workStates().done;
  const lacking = new Map<string, Task>();
  for (const t of tasks) if (!done.has(t.taskId)) lacking.set(t.taskId, t);
  done.clear();

  const pending: VerifiedRow[] = [];
  const flush = (): void => {
    if (pending.length > 0) ledger.commitResults(pending.splice(0), 0);
  };

  if (lacking.size > 0 && layoutsToRead) {
    let reader: LayoutsFileReader | null = null;
    try {
      reader = await LayoutsFileReader.open(layouts);
      const fileIsCurrent = reader.info.campaignHash === campaignHash;
      const trusted = (taskId: string, specHash: string): boolean => {
        const t = lacking.get(taskId);
        return t !== undefined && (specHash ? specHash === t.specHash : fileIsCurrent);
      };
      // A cheap pass over the ids first: most runs find nothing to recover.
      let wanted = 0;
      for (const k of reader.keys()) for (let i = 0; i < k.taskId.length; i++) if (trusted(k.taskId[i], k.specHash[i])) wanted++;
      if (wanted > 0) {
        for (const batch of reader.batches()) {
          for (const r of batch) {
            if (!trusted(r.taskId, r.specHash ?? '')) continue;
            const t = lacking.get(r.taskId)!;
            // A rejected row leaves its task lacking: the audit log may still hold it intact.
            const row = admit(t, { ...r, specHash: t.specHash }, LAYOUTS_FILE);
            if (!row) continue;
            lacking.delete(r.taskId);
            pending.push(row);
            report.fromLayouts++;
            if (pending.length >= COMMIT_BATCH) flush();
          }
        }
        flush();
      }
    } catch (err) {
      report.layoutsProblem = (err as Error).message;
    } finally {
      reader?.close();
    }
  }

  if (auditSize > 0) {
    if (lacking.size > 0 && auditStart < auditSize) {
      const lines = readline.createInterface({ input: fs.createReadStream(audit, { start: auditStart, end: auditSize - 1 }), crlfDelay: Infinity });
      // The last done line of a task for its current spec is the one the ledger had.
      const found = new Map<string, ResultRow>();
      for await (const line of lines) {
        // A cheap filter first; JSON decides (other writers space and order keys as they like).
        if (!line.includes('done') || !line.includes('result')) continue;
        let event: Record<string, unknown>;
        try { event = JSON.parse(line) as Record<string, unknown>; } catch { continue; /* torn last line */ }
        if (event === null || typeof event !== 'object' || event.outcome !== 'done') continue;
        const t = typeof event.task === 'string' ? lacking.get(event.task) : undefined;
        if (!t || event.spec_hash !== t.specHash) continue;
        const r = resultFromAudit(event, t);
        if (r) found.set(t.taskId, r);
      }
      for (const r of found.values()) {
        const t = lacking.get(r.taskId)!;
        lacking.delete(r.taskId);
        const row = admit(t, r, AUDIT_FILE);
        if (!row) continue;
        pending.push(row);
        report.fromAudit++;
        if (pending.length >= COMMIT_BATCH) flush();
      }
      flush();
    }
    ledger.setMeta(AUDIT_SCANNED_META, String(auditSize));
  }
  return report;
}

/** Whether `file` is the one the ledger's last export wrote (its `created` stamp is in the ledger's meta). */
async function isLastExport(file: string, ledger: Ledger): Promise<boolean> {
  const last = ledger.getMeta('last_export');
  if (!last) return false;
  try {
    const reader = await LayoutsFileReader.open(file);
    try {
      return (JSON.parse(last) as { created?: string }).created === reader.info.created;
    } finally {
      reader.close();
    }
  } catch {
    return false;
  }
}

/** After a run: every `done` line written so far is in the ledger, so later scans start here. */
export function markAuditScanned(dir: string, ledger: Ledger): void {
  try {
    ledger.setMeta(AUDIT_SCANNED_META, String(fs.statSync(path.join(dir, AUDIT_FILE)).size));
  } catch { /* an optimization only */ }
}
