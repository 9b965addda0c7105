/**
 * `wflo ledger rebuild DIR`: a damaged ledger (a torn write, a zeroed page, a lost WAL that left
 * it inconsistent) is moved aside, never deleted, and a new one is built for the campaign from
 * what the folder still holds: `layouts.h5` and the results carried by `audit.jsonl` (see
 * recoverResults.ts). Failure counts and run history are not recoverable and start afresh.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Campaign } from '../campaign/campaign.js';
import { expandTasks } from '../campaign/taskGrid.js';
import { Ledger, LEDGER_FILE } from './ledger.js';
import { acquireRunLock } from './runLock.js';
import { recoverLostResults, type RecoveryReport } from './recoverResults.js';
import { RowGate } from './gate/rowGate.js';
import { AUDIT_FILE, readAuditLog } from './auditLog.js';

export interface RebuildReport {
  /** Where the old ledger went (null: there was none). */
  movedAside: string | null;
  recovered: RecoveryReport;
  total: number;
  done: number;
}

/** Whether the folder's ledger opens and passes its integrity check. */
export function ledgerProblem(dir: string): string | null {
  if (!fs.existsSync(path.join(dir, LEDGER_FILE))) return `${path.join(dir, LEDGER_FILE)} does not exist`;
  try {
    Ledger.open(dir).close();
    return null;
  } catch (err) {
    return (err as Error).message;
  }
}

/** The campaign file the folder's last run used, from the audit log (null when unknown). */
export function lastCampaignFile(dir: string): string | null {
  if (!fs.existsSync(path.join(dir, AUDIT_FILE))) return null;
  let file: string | null = null;
  for (const e of readAuditLog(dir)) {
    if ((e.event === 'run_start' || e.event === 'resume') && typeof e.campaign_file === 'string') file = e.campaign_file;
  }
  return file;
}

export async function rebuildLedger(dir: string, c: Campaign): Promise<RebuildReport> {
  const lock = acquireRunLock(dir);
  try {
    const ledgerPath = path.join(dir, LEDGER_FILE);
    let movedAside: string | null = null;
    if (fs.existsSync(ledgerPath)) {
      movedAside = `${ledgerPath}.damaged-${new Date().toISOString().replace(/[:.]/g, '-')}`;
      // The WAL and shared-memory files belong to the old database: they go with it.
      for (const suffix of ['', '-wal', '-shm']) {
        if (fs.existsSync(ledgerPath + suffix)) fs.renameSync(ledgerPath + suffix, movedAside + suffix);
      }
    }
    const ledger = Ledger.open(dir);
    try {
      const tasks = expandTasks(c);
      const sync = ledger.syncCampaign(c, tasks);
      const gate = new RowGate(c, { threads: 0 });
      const recovered = await recoverLostResults(dir, tasks, ledger, sync.campaignHash, gate);
      const totals = ledger.totals();
      ledger.checkpoint();
      return { movedAside, recovered, total: totals.total, done: totals.done };
    } finally {
      ledger.close();
    }
  } finally {
    lock.release();
  }
}
