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
 *
 * HDF5 (h5wasm) is loaded only when there is a layouts.h5 to look at: a first run never loads it.
 */
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import type { LayoutsFileReader } from '../io/hdf5/index.js';
import type { Task } from '../campaign/taskGrid.js';
import type { Ledger } from './ledger.js';
import type { ResultRow } from './resultRow.js';
import type { RowGate, VerifiedRow } from './gate/rowGate.js';
import { AUDIT_FILE } from './auditLog.js';
import { LAYOUTS_FILE } from './layoutsFile.js';
import { lastExportFileStamp, lastExportStamp } from './lastExport.js';
import { fileStamp } from '../util/fileStamp.js';
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

/** What a recovery scan needs from the ledger: where the audit log was scanned to, and the last export. */
export interface RecoveryScanInput {
  dir: string;
  /** Tasks of the campaign the ledger does not have done, by id (the scan removes what it recovers). */
  lacking: Map<string, Task>;
  /** The campaign hash (format-1 layouts files, without spec hashes, only count when theirs is this one). */
  campaignHash: string;
  /** Bytes of audit.jsonl known to be in the ledger already. */
  auditScanned: number;
  /** The `created` stamp of the ledger's last export (that file holds nothing the ledger lacks). */
  lastExportCreated: string | null;
  /** The last export's file stamp (util/fileStamp.ts): a layouts.h5 with this stamp is that export, known without opening it. */
  lastExportFile?: string | null;
}

/**
 * The rows layouts.h5 and then audit.jsonl offer for lacking tasks, checked by the gate. A row the
 * gate passes is removed from `lacking` (so the audit log is not asked for it again); a rejected
 * one stays lacking (the audit log may hold it intact). Reads only: `wflo run --dry-run` uses it
 * to say what a run would adopt back.
 */
export async function scanRecoverable(
  input: RecoveryScanInput,
  gate: RowGate,
  onRow: (row: VerifiedRow, from: 'layouts' | 'audit') => void,
  onReject: (r: RecoveryRejection) => void,
): Promise<{ layoutsProblem: string | null }> {
  const { dir, lacking } = input;
  const layouts = path.join(dir, LAYOUTS_FILE);
  const audit = path.join(dir, AUDIT_FILE);
  const auditSize = fs.existsSync(audit) ? fs.statSync(audit).size : 0;
  const auditStart = input.auditScanned >= 0 && input.auditScanned <= auditSize ? input.auditScanned : 0;
  const admit = (task: Task, candidate: ResultRow, file: string): boolean => {
    const verdict = gate.checkNow(task, candidate, { kind: 'recovered', file });
    if (verdict.ok) {
      lacking.delete(task.taskId);
      onRow(verdict.row, file === LAYOUTS_FILE ? 'layouts' : 'audit');
      return true;
    }
    onReject({ taskId: task.taskId, source: verdict.source, reason: verdict.reason });
    return false;
  };
  let layoutsProblem: string | null = null;
  // layouts.h5 as the ledger's last export wrote it holds nothing the ledger lacks.
  if (lacking.size > 0 && fs.existsSync(layouts) && !(await isExport(layouts, input.lastExportCreated, input.lastExportFile ?? null))) {
    let reader: LayoutsFileReader | null = null;
    try {
      reader = await (await import('../io/hdf5/index.js')).LayoutsFileReader.open(layouts);
      const fileIsCurrent = reader.info.campaignHash === input.campaignHash;
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
            admit(t, { ...r, specHash: t.specHash }, LAYOUTS_FILE);
          }
        }
      }
    } catch (err) {
      layoutsProblem = (err as Error).message;
    } finally {
      reader?.close();
    }
  }
  if (lacking.size > 0 && auditStart < auditSize) {
    const lines = readline.createInterface({ input: fs.createReadStream(audit, { start: auditStart, end: auditSize - 1 }), crlfDelay: Infinity });
    // The last done line of a task for its current spec is the one the ledger had.
    const found = new Map<string, ResultRow>();
    for await (const line of lines) {
      // A cheap filter first; JSON decides (other writers space and order keys as they like).
      if (!line.includes('done') || !line.includes('result')) continue;
      let event: Record<string, unknown>;
      try {
        event = JSON.parse(line) as Record<string, unknown>;
      } catch {
        continue; /* torn last line */
      }
      if (event === null || typeof event !== 'object' || event.outcome !== 'done') continue;
      const t = typeof event.task === 'string' ? lacking.get(event.task) : undefined;
      if (!t || event.spec_hash !== t.specHash) continue;
      const r = resultFromAudit(event, t);
      if (r) found.set(t.taskId, r);
    }
    for (const r of found.values()) admit(lacking.get(r.taskId)!, r, AUDIT_FILE);
  }
  return { layoutsProblem };
}

/** Commit back every result that layouts.h5 or audit.jsonl holds and the ledger lacks. */
export async function recoverLostResults(
  dir: string,
  tasks: Iterable<Task>,
  ledger: Ledger,
  campaignHash: string,
  gate: RowGate,
  onReject?: (r: RecoveryRejection) => void,
): Promise<RecoveryReport> {
  const report: RecoveryReport = { fromLayouts: 0, fromAudit: 0, rejected: [], layoutsProblem: null };
  const audit = path.join(dir, AUDIT_FILE);
  const auditSize = fs.existsSync(audit) ? fs.statSync(audit).size : 0;
  const recorded = Number(ledger.getMeta(AUDIT_SCANNED_META) ?? '0');
  const auditScanned = Number.isFinite(recorded) && recorded >= 0 && recorded <= auditSize ? recorded : 0;
  const lastExportCreated = lastExportStamp(ledger);
  const lastExportFile = lastExportFileStamp(ledger);
  const layouts = path.join(dir, LAYOUTS_FILE);
  // Usually nothing to look at: a first run, or a resumed one whose files the ledger has seen.
  const layoutsToRead = fs.existsSync(layouts) && !(await isExport(layouts, lastExportCreated, lastExportFile));
  if (!layoutsToRead && auditScanned >= auditSize) return report;
  const done = ledger.workStates().done;
  const lacking = new Map<string, Task>();
  for (const t of tasks) if (!done.has(t.taskId)) lacking.set(t.taskId, t);
  done.clear();

  const pending: VerifiedRow[] = [];
  const flush = (): void => {
    if (pending.length > 0) ledger.commitResults(pending.splice(0), 0);
  };
  const scan = await scanRecoverable(
    { dir, lacking, campaignHash, auditScanned, lastExportCreated, lastExportFile },
    gate,
    (row, from) => {
      pending.push(row);
      if (from === 'layouts') report.fromLayouts++;
      else report.fromAudit++;
      if (pending.length >= COMMIT_BATCH) flush();
    },
    (r) => {
      report.rejected.push(r);
      onReject?.(r);
    },
  );
  flush();
  report.layoutsProblem = scan.layoutsProblem;
  if (auditSize > 0) ledger.setMeta(AUDIT_SCANNED_META, String(auditSize));
  return report;
}

/**
 * Whether `file` is the export whose `created` stamp is `created`. A file whose stamp is still the
 * one that export recorded (`fileStamp`) is that file, untouched since: known without loading HDF5.
 */
async function isExport(file: string, created: string | null, exportedStamp: string | null): Promise<boolean> {
  if (created === null) return false;
  if (exportedStamp !== null && fileStamp(file) === exportedStamp) return true;
  try {
    const reader = await (await import('../io/hdf5/index.js')).LayoutsFileReader.open(file);
    try {
      return reader.info.created === created;
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
  } catch {
    /* an optimization only */
  }
}
