/**
 * The commit batcher: the middle step of every result's one path, gate → commit → audit
 * (runner/scheduler.ts). Results the gate passed wait here for the next group commit (scheduled on
 * setImmediate, so every result that arrived meanwhile goes in the same ledger transaction); the
 * batch is then reported to the executor as settled and written to the audit log, one `attempt …
 * done` line per result with the full result (the ledger's second copy, recoverResults.ts). A
 * result is never in the audit log before it is in the ledger.
 */
import type { Ledger } from './ledger.js';
import type { VerifiedRow } from './gate/rowGate.js';
import type { AuditLog } from './auditLog.js';
import type { Dispatch, Executor, WorkerRef } from './executors/executor.js';
import { auditResultFields } from './auditResult.js';

export interface PendingCommit {
  d: Dispatch;
  row: VerifiedRow;
  wallS: number;
  worker?: WorkerRef;
}

export interface CommitHooks {
  /** Whether commits are off (a fatal stop): what is pending stays pending. */
  halted(): boolean;
  /** The part of a batch that may still be committed (rows of a worker quarantined meanwhile go back to the recheck). */
  admit?(batch: PendingCommit[]): PendingCommit[];
  /** The ledger refused the batch. */
  fatal(err: unknown): void;
  /** A batch of `n` results is in the ledger and the audit log. */
  committed(n: number): void;
}

export class CommitBatcher {
  private pending: PendingCommit[] = [];
  private scheduled = false;

  constructor(
    private readonly ledger: Ledger,
    private readonly runId: number,
    private readonly audit: AuditLog,
    private readonly executor: Executor,
    private readonly hooks: CommitHooks,
  ) {}

  /** Results waiting for their commit. */
  get size(): number {
    return this.pending.length;
  }

  queue(p: PendingCommit): void {
    this.pending.push(p);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
  }

  /** Group commit: every result that arrived since the last commit, in one transaction. */
  flush(): void {
    this.scheduled = false;
    if (this.pending.length === 0 || this.hooks.halted()) return;
    let batch = this.pending;
    this.pending = [];
    if (this.hooks.admit) {
      batch = this.hooks.admit(batch);
      if (batch.length === 0) return;
    }
    const rows = batch.map((b) => b.row);
    try {
      this.ledger.commitResults(rows, this.runId);
    } catch (err) {
      this.hooks.fatal(err);
      return;
    }
    this.executor.committed?.(batch.map((b) => b.d));
    for (let i = 0; i < batch.length; i++) {
      const { d, wallS, worker } = batch[i];
      this.audit.write({
        event: 'attempt',
        task: d.task.taskId,
        attempt: d.attempt,
        outcome: 'done',
        wall_s: roundWallS(wallS),
        ...(worker ? { worker_host: worker.host, worker_pid: worker.pid } : {}),
        ...auditResultFields(rows[i]),
      });
    }
    this.hooks.committed(batch.length);
  }
}

/** A wall time as the audit log writes it (0.1 ms). */
export function roundWallS(x: number): number {
  return Math.round(x * 1e4) / 1e4;
}
