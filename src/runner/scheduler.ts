/**
 * The scheduler: what a campaign run means, whatever executes it. It hands attempts to an
 * executor (executors/executor.ts: the local process pool, BullMQ workers), commits results to
 * the ledger in batches (the moment of "done"), retries failed attempts with backoff, stops
 * dispatching at `max_failures` or on interrupt, refreshes layouts.h5 through an exporter
 * process, and keeps the ledger's heartbeat (for `wflo status`) and the audit log up to date.
 *
 * Attempts: an attempt fails when the optimizer throws, its output is invalid, the process
 * running it dies or it times out (the executor enforces the timeout). An error marked
 * permanent is not retried. Dispatches an executor hands back unrun are re-queued without being
 * charged. Failed-attempt counts live in the ledger, so a restart continues them.
 *
 * Lifecycle: one field, `phase` (a SchedulerPhase, runner/schedulerPhase.ts), changed only by
 * its transitions:
 *
 *   starting ──executor.start() settled──▶ running ──queue, retries, outstanding empty──▶ finished
 *      │                                      │                                            ▲
 *      └──────────────stop(mode)─────────▶ stopping{mode, executorStarted, executorStopped}┘
 *
 * stop(mode): 'max_failures' lets what the executor holds run to the end; 'interrupted' and
 * 'fatal' (fatal(err)) call executor.stop() and finish when it settles. Fatal wins and is never
 * replaced, interrupted beats max_failures. checkFinished() reads the phase and moves to
 * `finished` once; finish() closes up and settles the run's promise from the phase it ends in (a
 * stop can still arrive while it does). Every result: gate → commit batch (runner/commitBatcher.ts,
 * one ledger transaction) → audit log.
 */
import fs from 'node:fs';
import path from 'node:path';
import { RuntimeFailure } from '../util/errors.js';
import { backoffDelayS, type Campaign } from '../campaign/campaign.js';
import type { TaskSource } from '../campaign/taskGrid.js';
import type { Ledger, RunningTask } from './ledger.js';
import type { RowGate } from './gate/rowGate.js';
import { candidateRow } from './gate/candidateRow.js';
import { Rechecker } from './gate/recheck.js';
import type { AuditLog } from './auditLog.js';
import type { AttemptOutcome, Dispatch, Executor } from './executors/executor.js';
import { CommitBatcher, roundWallS } from './commitBatcher.js';
import type { ProgressReporter, ProgressSnapshot } from './progress.js';
import { LAYOUTS_FILE } from './layoutsFile.js';
import type { ExportReport } from './exporter.js';
import { ExportCadence } from './exportCadence.js';
import { workerIdOf, workerRefOf } from './workerId.js';
import {
  STARTING,
  afterExecutorStarted,
  afterExecutorStopped,
  afterFinish,
  afterStop,
  executorStartedIn,
  executorStoppedIn,
  mayFinish,
  stopModeOf,
  stopOf,
  type SchedulerPhase,
  type StopMode,
} from './schedulerPhase.js';

export type StopReason = 'complete' | 'incomplete' | 'max_failures' | 'interrupted';

export interface SchedulerOptions {
  campaign: Campaign;
  outputDir: string;
  ledger: Ledger;
  audit: AuditLog;
  runId: number;
  /** Tasks to run (not done), with the failed attempts each already has (all, and those counted against the limit). */
  work: TaskSource;
  /** Failed attempts so far of the tasks in `work` that have any (all, and those counted against the limit). */
  priorAttempts: ReadonlyMap<string, { failed: number; counted: number }>;
  /** Tasks of this run already done before it started. */
  alreadyDone: number;
  /** Tasks of this run that had failed before and are not retried. */
  alreadyFailed: number;
  /** The campaign's hash (ledger meta), passed to the executor. */
  campaignHash: string;
  /** Where attempts run; the scheduler starts it and closes it. */
  executor: Executor;
  /** The one gate every result passes before its commit. */
  gate: RowGate;
  /** Spot checks of remote workers by local recomputation (remote executors only): share, and where. */
  recheck?: { fraction: number; executor: Executor };
  progress?: ProgressReporter;
  signal?: AbortSignal;
  /** Whether layouts.h5 must be rewritten even if this run commits nothing. */
  exportNeeded: boolean;
}

export interface SchedulerOutcome {
  stopReason: StopReason;
  doneThisRun: number;
  failedThisRun: number;
  retries: number;
  exported: ExportReport | null;
  exportError: string | null;
}

export class Scheduler {
  private readonly o: SchedulerOptions;
  private readonly c: Campaign;
  private readonly executor: Executor;
  /** Tasks not handed out yet, in grid order (Dispatch objects are made as they go: 10^6 tasks stay small). */
  private readonly queue: TaskSource;
  private queueHead = 0;
  /** Tasks taken back from a dead or killed worker without being charged: run them first. */
  private readonly urgent: Dispatch[] = [];
  /** Attempt number of every dispatch the executor holds, by task: outcomes for anything else are duplicates. */
  private readonly outstanding = new Map<string, number>();
  private pumping = false;
  private readonly failedAttempts = new Map<string, number>();
  /** Failed attempts at the start of the current attempt budget (see Ledger.resetFailed). */
  private readonly attemptsBase = new Map<string, number>();
  private readonly retryTimers = new Set<NodeJS.Timeout>();
  /** Gate → here → ledger → audit log (runner/commitBatcher.ts). */
  private readonly commits: CommitBatcher;
  /** Results at the gate (a costly recomputation runs on a thread). */
  private verifying = 0;
  /** Inode of the ledger file at the first heartbeat (a deleted or replaced ledger is noticed). */
  private ledgerInode: number | null = null;
  private readonly intervals: NodeJS.Timeout[] = [];

  /** Where the run is in its lifecycle (runner/schedulerPhase.ts); changed only by the transitions below. */
  private phase: SchedulerPhase = STARTING;
  private resolveRun: ((o: SchedulerOutcome) => void) | null = null;
  private rejectRun: ((e: unknown) => void) | null = null;

  private doneThisRun = 0;
  private failedThisRun = 0;
  private failedTotal = 0;
  private retries = 0;
  private readonly startedAt = performance.now();
  private readonly rateSamples: [number, number][] = [];

  private readonly recheck: Rechecker | null = null;
  private readonly exports: ExportCadence;

  constructor(o: SchedulerOptions) {
    this.o = o;
    this.c = o.campaign;
    this.failedTotal = o.alreadyFailed;
    this.queue = o.work;
    // Only tasks with earlier failures get entries: 100 000 zeros would cost the coordinator ~20 MB.
    for (const [taskId, prior] of o.priorAttempts) {
      if (prior.failed > 0) this.failedAttempts.set(taskId, prior.failed);
      if (prior.failed > prior.counted) this.attemptsBase.set(taskId, prior.failed - prior.counted);
    }
    this.executor = o.executor;
    this.exports = new ExportCadence(o.campaign, o.outputDir, o.ledger, o.audit, o.progress);
    this.commits = new CommitBatcher(o.ledger, o.runId, o.audit, o.executor, {
      halted: () => stopModeOf(this.phase) === 'fatal',
      admit: (batch) => {
        const recheck = this.recheck;
        if (!recheck) return batch;
        // A worker quarantined since its row was queued: that row is computed here instead.
        const kept = batch.filter((b) => !(b.row.worker && recheck.isQuarantined(b.row.worker)));
        for (const b of batch) if (!kept.includes(b)) recheck.rejected(b.d, b.row.worker!, 'its worker was quarantined');
        return kept;
      },
      fatal: (err) => this.fatal(err),
      committed: (n) => {
        this.doneThisRun += n;
        this.exports.committed(n);
        this.maybeExport();
        this.pump();
        this.checkFinished();
      },
    });
    if (o.recheck && o.executor.remote) {
      this.recheck = new Rechecker(o.recheck.fraction, o.recheck.executor, o.gate, o.ledger, o.audit, o.runId, {
        commit: (d, row, wallS) => this.commits.queue({ d, row, wallS, ...(row.worker ? { worker: workerRefOf(row.worker) } : {}) }),
        fail: (d, message) => {
          this.failAttempt(d, message, 'error');
          this.pump();
          this.checkFinished();
        },
        retracted: (ids) => {
          this.doneThisRun -= ids.length;
        },
        fatal: (err) => this.fatal(err),
        log: (line) => this.o.progress?.log(line),
        changed: () => {
          this.pump();
          this.checkFinished();
        },
      });
    }
  }

  run(): Promise<SchedulerOutcome> {
    return new Promise((resolve, reject) => {
      this.resolveRun = resolve;
      this.rejectRun = reject;
      this.intervals.push(setInterval(() => this.heartbeat(), 1000));
      this.intervals.push(setInterval(() => this.maybeExport(), Math.min(1000, this.c.exportEveryS * 1000)));
      if (this.o.progress) {
        this.o.progress.update(this.snapshot());
        this.intervals.push(setInterval(() => this.o.progress!.update(this.snapshot()), this.o.progress.intervalMs));
      }
      if (this.o.signal) {
        if (this.o.signal.aborted) this.stop('interrupted');
        else this.o.signal.addEventListener('abort', () => this.stop('interrupted'), { once: true });
      }
      this.heartbeat();
      const setup = {
        farms: this.c.farms,
        farmTypes: this.c.farmTypes,
        optimizer: this.c.optimizer,
        timeoutS: this.c.timeoutS,
        campaignName: this.c.name,
        campaignHash: this.o.campaignHash,
      };
      this.executor
        .start(
          setup,
          {
            onOutcome: (d, outcome) => this.onOutcome(d, outcome),
            onReturned: (ds) => this.onReturned(ds),
            onCapacity: () => this.pump(),
            onFatal: (err) => this.fatal(new RuntimeFailure(err.message)),
            onNotice: (m) => this.o.progress?.log(`wflo: ${m}`),
          },
          this.queue.length,
        )
        .then(() => this.recheck?.start(setup))
        .then(
          () => {
            this.phase = afterExecutorStarted(this.phase);
            this.pump();
            this.checkFinished();
          },
          (err) => {
            this.phase = afterExecutorStarted(this.phase);
            this.fatal(err);
          },
        );
    });
  }

  // ---- dispatch ----

  private remainingQueued(): number {
    return this.queue.length - this.queueHead + this.urgent.length;
  }

  private nextWork(): Dispatch | undefined {
    if (this.urgent.length > 0) return this.urgent.pop();
    if (this.queueHead < this.queue.length) {
      const task = this.queue.task(this.queueHead++);
      return { task, attempt: (this.failedAttempts.get(task.taskId) ?? 0) + 1 };
    }
    return undefined;
  }

  /** Hand the executor as much work as it asks for. */
  private pump(): void {
    if (this.pumping || stopModeOf(this.phase) !== null || !executorStartedIn(this.phase)) return;
    this.pumping = true;
    try {
      for (let room = this.executor.capacity(); room > 0; room--) {
        const d = this.nextWork();
        if (!d) break;
        this.outstanding.set(d.task.taskId, d.attempt);
        this.executor.submit(d);
      }
    } finally {
      this.pumping = false;
    }
  }

  // ---- outcomes ----

  /** Whether `d` is a dispatch the executor holds for us (a duplicate delivery is not); claims it. */
  private claim(d: Dispatch): boolean {
    if (this.outstanding.get(d.task.taskId) !== d.attempt) return false;
    this.outstanding.delete(d.task.taskId);
    return true;
  }

  private onOutcome(d: Dispatch, outcome: AttemptOutcome): void {
    if (!this.claim(d)) return;
    if (outcome.kind === 'result') {
      this.verifying++;
      const worker = this.executor.remote && outcome.worker ? workerIdOf(outcome.worker) : undefined;
      this.o.gate.check(d.task, candidateRow(d.task, d.attempt, outcome), { kind: 'computed', ...(worker ? { worker } : {}) }).then(
        (verdict) => {
          this.verifying--;
          if (stopModeOf(this.phase) === 'fatal') return;
          if (!verdict.ok) this.rejectResult(d, outcome.wallS, verdict.reason, worker);
          else if (worker && this.recheck && !this.recheck.admit(d, verdict.row, outcome.wallS, worker)) this.checkFinished();
          else this.commits.queue({ d, row: verdict.row, wallS: outcome.wallS, worker: outcome.worker });
        },
        (err) => {
          this.verifying--;
          this.fatal(err);
        },
      );
      return;
    }
    if (outcome.kind === 'error' && outcome.invalid && this.executor.remote) {
      // Not a well-formed result at all: as suspect as a result the gate refuses.
      const worker = outcome.worker ? workerIdOf(outcome.worker) : 'unknown';
      this.rejectResult(d, outcome.wallS ?? 0, outcome.message, worker);
      return;
    }
    if (outcome.kind === 'timeout') {
      this.o.audit.write({
        event: 'timeout',
        task: d.task.taskId,
        attempt: d.attempt,
        timeout_s: this.c.timeoutS,
        ...(outcome.worker ? { worker_pid: outcome.worker.pid, worker_host: outcome.worker.host } : {}),
      });
    }
    this.failAttempt(
      d,
      outcome.message,
      outcome.kind,
      outcome.kind === 'error' ? outcome.wallS : undefined,
      outcome.kind === 'error' && outcome.permanent === true,
    );
    this.pump();
    this.checkFinished();
  }

  private onReturned(ds: Dispatch[]): void {
    this.requeueUncharged(ds.filter((d) => this.claim(d)));
    this.checkFinished();
  }

  /**
   * A result the gate refused: one line and an audit event. A queue worker's: the worker is
   * quarantined and the task computed here (gate/recheck.ts), or, without rechecks, the attempt
   * fails and is retried. A local one: wflo's computations are deterministic, so it would fail
   * again; the task fails at once.
   */
  private rejectResult(d: Dispatch, wallS: number, reason: string, worker: string | undefined): void {
    const who = worker ? `queue worker ${worker}` : 'a local worker';
    this.o.audit.write({ event: 'rejected', task: d.task.taskId, attempt: d.attempt, source: worker ? `worker:${worker}` : 'computed', reason });
    this.o.progress?.log(`wflo: rejected ${d.task.taskId} from ${who}: ${reason}`);
    this.executor.committed?.([d]); // settled: a queue drops the job rather than hand the same result back
    if (worker && this.recheck) this.recheck.rejected(d, worker, reason);
    else this.failAttempt(d, `result rejected by verification: ${reason}`, 'error', wallS, worker === undefined);
    this.pump();
    this.checkFinished();
  }

  private requeueUncharged(ds: Dispatch[]): void {
    for (let i = ds.length - 1; i >= 0; i--) this.urgent.push(ds[i]);
    if (ds.length > 0) this.pump();
  }

  private failAttempt(d: Dispatch, message: string, outcome: 'error' | 'crash' | 'timeout', wallS?: number, hopeless = false): void {
    const id = d.task.taskId;
    const n = (this.failedAttempts.get(id) ?? 0) + 1;
    this.failedAttempts.set(id, n);
    const counted = n - (this.attemptsBase.get(id) ?? 0);
    const permanent = hopeless || counted >= this.c.retry.attempts;
    this.o.audit.write({
      event: 'attempt',
      task: id,
      attempt: d.attempt,
      outcome,
      error: message,
      ...(wallS !== undefined ? { wall_s: roundWallS(wallS) } : {}),
    });
    try {
      this.o.ledger.recordFailure(id, n, message, permanent);
    } catch (err) {
      this.fatal(err);
      return;
    }
    if (permanent) {
      this.failedThisRun++;
      this.failedTotal++;
      this.o.audit.write({ event: 'failed', task: id, attempts: n, error: message, ...(hopeless ? { permanent: true } : {}) });
      this.o.progress?.log(
        `wflo: ${id} failed after ${counted} attempt${counted === 1 ? '' : 's'}${hopeless ? ' (not retried: it would fail again)' : ''}: ${message}`,
      );
      if (this.c.maxFailures !== null && this.failedThisRun >= this.c.maxFailures && stopModeOf(this.phase) === null) {
        this.o.audit.write({ event: 'max_failures', failed: this.failedThisRun, limit: this.c.maxFailures });
        this.stop('max_failures');
      }
      return;
    }
    if (stopModeOf(this.phase) !== null) return;
    const delayS = backoffDelayS(this.c.retry, counted);
    this.retries++;
    this.o.audit.write({ event: 'retry', task: id, attempt: n + 1, delay_s: delayS, after: outcome });
    const timer = setTimeout(() => {
      this.retryTimers.delete(timer);
      if (stopModeOf(this.phase) !== null) return;
      this.urgent.unshift({ task: d.task, attempt: n + 1 });
      this.pump();
      this.checkFinished();
    }, delayS * 1000);
    this.retryTimers.add(timer);
  }

  // ---- stopping ----

  /** Transition: a stop in `mode` (precedence in schedulerPhase.ts `afterStop`), with its side effects. */
  private stop(mode: StopMode, error?: unknown): void {
    const next = afterStop(this.phase, mode, error);
    if (next === null) return;
    this.phase = next;
    for (const t of this.retryTimers) clearTimeout(t);
    this.retryTimers.clear();
    if (mode === 'max_failures') {
      // Let running tasks finish; drop what was only queued on the workers.
      this.o.progress?.log(`wflo: ${this.failedThisRun} tasks failed (max_failures: ${this.c.maxFailures}); no new tasks are started`);
      this.checkFinished();
      return;
    }
    if (mode === 'interrupted') {
      this.o.progress?.log('wflo: interrupted; cancelling running tasks (finished ones are kept)');
      this.o.audit.write({ event: 'interrupted' });
    }
    if (this.recheck) void this.recheck.stop();
    void this.executor.stop().then(
      (lost) => {
        for (const d of lost) {
          this.outstanding.delete(d.task.taskId);
          this.o.audit.write({ event: 'attempt', task: d.task.taskId, attempt: d.attempt, outcome: 'cancelled' });
        }
        this.phase = afterExecutorStopped(this.phase);
        this.checkFinished();
      },
      (err) => {
        this.phase = afterExecutorStopped(this.phase);
        this.o.progress?.log(`wflo: warning: stopping the executor failed: ${(err as Error).message}`);
        this.checkFinished();
      },
    );
  }

  private fatal(err: unknown): void {
    if (stopModeOf(this.phase) === 'fatal') return;
    this.o.audit.write({ event: 'fatal', error: err instanceof Error ? err.message : String(err) });
    this.stop('fatal', err);
  }

  /** Transition running/stopping → finished once the run has drained (what that means depends on why it stops). */
  private checkFinished(): void {
    if (!mayFinish(this.phase)) return;
    const stopping = stopModeOf(this.phase);
    // After a fatal stop nothing more is committed (the batcher is halted): rows still pending stay
    // uncommitted, their tasks not done, and waiting for them would hang the run.
    if ((stopping !== 'fatal' && this.commits.size > 0) || this.verifying > 0) return;
    if (stopping !== 'interrupted' && stopping !== 'fatal' && this.recheck && this.recheck.busy() > 0) return;
    if (stopping === 'max_failures') {
      // Nothing new is dispatched; what the executor already holds (the running attempts and
      // at most a prefetch behind them) runs to the end and is kept.
      if (this.outstanding.size > 0) return;
    } else if (stopping) {
      if (!executorStoppedIn(this.phase)) return;
    } else if (this.outstanding.size > 0 || this.remainingQueued() > 0 || this.retryTimers.size > 0) {
      return;
    }
    this.phase = afterFinish(this.phase);
    void this.finish();
  }

  private async finish(): Promise<void> {
    for (const t of this.intervals) clearInterval(t);
    for (const t of this.retryTimers) clearTimeout(t);
    if (!executorStoppedIn(this.phase)) {
      try {
        await this.executor.close();
      } catch (err) {
        this.o.progress?.log(`wflo: warning: closing the executor failed: ${(err as Error).message}`);
      }
    }
    if (this.recheck) {
      try {
        await this.recheck.close();
      } catch (err) {
        this.o.progress?.log(`wflo: warning: closing the recheck pool failed: ${(err as Error).message}`);
      }
    }
    this.commits.flush();
    await this.exports.settle();
    let exportFailure: unknown = null;
    try {
      // Interrupted: out within a second or two; layouts.h5 stays as its last export wrote it
      // (valid, and written within seconds of the run's first result), `wflo export` or the next
      // run brings it up to date.
      const stopping = stopModeOf(this.phase);
      if (stopping !== 'fatal' && (stopping !== 'interrupted' || !fs.existsSync(path.join(this.o.outputDir, LAYOUTS_FILE)))) {
        await this.exports.final(this.o.exportNeeded || this.doneThisRun > 0);
      }
    } catch (err) {
      exportFailure = err;
    } finally {
      this.exports.close();
    }
    this.heartbeat();
    this.o.progress?.update(this.snapshot());
    this.o.progress?.stop();
    // A stop can still come while finish() awaits (a signal, a fatal commit or heartbeat): it decides the outcome.
    const stop = stopOf(this.phase);
    if (stop?.mode === 'fatal' && stop.error) {
      this.rejectRun!(stop.error);
      return;
    }
    if (exportFailure) {
      this.rejectRun!(exportFailure);
      return;
    }
    const allDone = this.failedTotal === 0 && this.doneThisRun === this.o.work.length;
    const stopReason: StopReason =
      stop?.mode === 'interrupted' ? 'interrupted' : stop?.mode === 'max_failures' ? 'max_failures' : allDone ? 'complete' : 'incomplete';
    this.resolveRun!({
      stopReason,
      doneThisRun: this.doneThisRun,
      failedThisRun: this.failedThisRun,
      retries: this.retries,
      exported: this.exports.lastExport,
      exportError: this.exports.lastError,
    });
  }

  private maybeExport(): void {
    if (this.phase.kind === 'stopping' || this.phase.kind === 'finished') return;
    this.exports.maybe();
  }

  // ---- monitoring ----

  private running(): RunningTask[] {
    return executorStartedIn(this.phase)
      ? this.executor.running().map((r) => ({ taskId: r.taskId, workerPid: r.workerPid, attempt: r.attempt, startedAt: r.startedAt }))
      : [];
  }

  private ratePerMin(): number {
    const now = performance.now();
    this.rateSamples.push([now, this.doneThisRun]);
    while (this.rateSamples.length > 2 && now - this.rateSamples[0][0] > 60_000) this.rateSamples.shift();
    const [t0, d0] = this.rateSamples[0];
    const dt = (now - t0) / 60_000;
    return dt > 0 ? (this.doneThisRun - d0) / dt : 0;
  }

  private heartbeat(): void {
    if (stopModeOf(this.phase) === 'fatal') return;
    const gone = this.ledgerGone();
    if (gone) {
      this.fatal(
        new RuntimeFailure(
          `${this.o.ledger.path} was ${gone} during the run; nothing committed since is in it, but every result ` +
            `of this run is also in ${path.join(this.o.outputDir, 'audit.jsonl')}: the next \`wflo run\` verifies them and adopts them back`,
        ),
      );
      return;
    }
    try {
      this.o.ledger.heartbeat(this.o.runId, this.ratePerMin(), this.running());
    } catch (err) {
      this.fatal(err);
    }
  }

  /** 'deleted' or 'replaced' when the ledger file is no longer the one this run opened. */
  private ledgerGone(): string | null {
    try {
      const now = fs.statSync(this.o.ledger.path);
      this.ledgerInode ??= now.ino;
      return now.ino === this.ledgerInode ? null : 'replaced';
    } catch {
      return 'deleted';
    }
  }

  snapshot(): ProgressSnapshot {
    const total = this.o.work.length + this.o.alreadyDone + this.o.alreadyFailed;
    const done = this.o.alreadyDone + this.doneThisRun;
    const running = executorStartedIn(this.phase) ? this.executor.running().length : 0;
    const pending = Math.max(0, total - done - this.failedTotal - running);
    const samples = this.rateSamples;
    let rate = 0;
    if (samples.length >= 2) {
      const [t0, d0] = samples[0];
      const [t1, d1] = samples[samples.length - 1];
      rate = t1 > t0 ? ((d1 - d0) / (t1 - t0)) * 60_000 : 0;
    }
    return {
      total,
      done,
      failed: this.failedTotal,
      running,
      pending,
      ratePerMin: rate,
      etaS: rate > 0 ? ((pending + running) / rate) * 60 : null,
      elapsedS: (performance.now() - this.startedAt) / 1000,
    };
  }
}
