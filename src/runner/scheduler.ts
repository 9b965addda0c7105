/**
 * The scheduler: hands tasks to the worker pool, commits results to the ledger in batches
 * (the moment of "done"), retries failed attempts with backoff, kills workers whose task runs
 * over the timeout, stops dispatching at `max_failures` or on interrupt, refreshes layouts.h5
 * through an exporter process, and keeps the ledger's heartbeat (for `wflo status`) and the
 * audit log up to date.
 *
 * Attempts: an attempt fails when the optimizer throws, its output is invalid, the worker dies
 * or the task times out. Tasks that were only queued on a dying worker are re-queued without
 * being charged. Failed-attempt counts live in the ledger, so a restart continues them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { RuntimeFailure } from '../util/errors.js';
import { backoffDelayS, type Campaign } from '../campaign/campaign.js';
import type { Task } from '../campaign/taskGrid.js';
import type { CommittedResult, Ledger, RunningTask } from './ledger.js';
import type { AuditLog } from './auditLog.js';
import { WorkerPool, type Dispatched, type PoolWorker } from './workerPool.js';
import type { ErrorMessage, ResultMessage } from './workerProtocol.js';
import type { ProgressReporter, ProgressSnapshot } from './progress.js';
import { LAYOUTS_FILE, type ExportReport } from './exporter.js';
import { ExporterClient } from './exporterClient.js';

export type StopReason = 'complete' | 'incomplete' | 'max_failures' | 'interrupted';

export interface SchedulerOptions {
  campaign: Campaign;
  outputDir: string;
  ledger: Ledger;
  audit: AuditLog;
  runId: number;
  /** Tasks to run (not done), with the failed attempts each already has (all, and those counted against the limit). */
  work: { task: Task; failedAttempts: number; countedAttempts: number }[];
  /** Tasks of this run already done before it started. */
  alreadyDone: number;
  /** Tasks of this run that had failed before and are not retried. */
  alreadyFailed: number;
  workers: number;
  progress?: ProgressReporter;
  signal?: AbortSignal;
  /** Whether layouts.h5 must be rewritten even if this run commits nothing. */
  exportNeeded: boolean;
  workerExecArgv?: string[];
}

export interface SchedulerOutcome {
  stopReason: StopReason;
  doneThisRun: number;
  failedThisRun: number;
  retries: number;
  exported: ExportReport | null;
  exportError: string | null;
}

interface PendingCommit {
  d: Dispatched;
  msg: ResultMessage;
}

type StopMode = 'max_failures' | 'interrupted' | 'fatal';

export class Scheduler {
  private readonly o: SchedulerOptions;
  private readonly c: Campaign;
  private readonly pool: WorkerPool;
  private readonly queue: Dispatched[];
  private queueHead = 0;
  /** Tasks taken back from a dead or killed worker without being charged: run them first. */
  private readonly urgent: Dispatched[] = [];
  private readonly failedAttempts = new Map<string, number>();
  /** Failed attempts at the start of the current attempt budget (see Ledger.resetFailed). */
  private readonly attemptsBase = new Map<string, number>();
  private readonly retryTimers = new Set<NodeJS.Timeout>();
  private pendingCommit: PendingCommit[] = [];
  private commitScheduled = false;
  private readonly intervals: NodeJS.Timeout[] = [];

  private stopping: StopMode | null = null;
  private fatalError: unknown = null;
  private finished = false;
  private resolveRun: ((o: SchedulerOutcome) => void) | null = null;
  private rejectRun: ((e: unknown) => void) | null = null;

  private doneThisRun = 0;
  private failedThisRun = 0;
  private failedTotal = 0;
  private retries = 0;
  private startupFailures = 0;
  private prefetch = 1;
  private wallEwmaS = NaN;
  private readonly startedAt = performance.now();
  private readonly rateSamples: [number, number][] = [];

  private readonly exporter = new ExporterClient();
  private exportRunning: Promise<void> | null = null;
  private resultsSinceExport = 0;
  private lastExportAt = performance.now();
  private lastExport: ExportReport | null = null;
  private lastExportError: string | null = null;
  /** Whether the latest export attempt succeeded. */
  private lastExportOk = false;
  private exportWarned = false;

  constructor(o: SchedulerOptions) {
    this.o = o;
    this.c = o.campaign;
    this.failedTotal = o.alreadyFailed;
    this.queue = o.work.map((w) => ({ task: w.task, attempt: w.failedAttempts + 1 }));
    // Only tasks with earlier failures get entries: 100 000 zeros would cost the coordinator ~20 MB.
    for (const w of o.work) {
      if (w.failedAttempts > 0) this.failedAttempts.set(w.task.taskId, w.failedAttempts);
      if (w.failedAttempts > w.countedAttempts) this.attemptsBase.set(w.task.taskId, w.failedAttempts - w.countedAttempts);
    }
    this.pool = new WorkerPool(
      { kind: 'setup', farms: this.c.farms, farmTypes: this.c.farmTypes, optimizer: this.c.optimizer },
      {
        onReady: (w) => { this.startupFailures = 0; this.fill(w); },
        onResult: (w, d, msg) => this.onResult(w, d, msg),
        onError: (w, d, msg) => this.onError(w, d, msg),
        onDeath: (w, lost, reason) => this.onDeath(w, lost, reason),
      },
      o.workerExecArgv ?? [],
    );
  }

  run(): Promise<SchedulerOutcome> {
    return new Promise((resolve, reject) => {
      this.resolveRun = resolve;
      this.rejectRun = reject;
      const n = Math.min(this.o.workers, this.queue.length);
      for (let slot = 0; slot < n; slot++) this.pool.spawn(slot);
      this.intervals.push(setInterval(() => this.checkTimeouts(), 250));
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
      this.checkFinished();
    });
  }

  // ---- dispatch ----

  private remainingQueued(): number {
    return this.queue.length - this.queueHead + this.urgent.length;
  }

  private nextWork(): Dispatched | undefined {
    if (this.urgent.length > 0) return this.urgent.pop();
    if (this.queueHead < this.queue.length) return this.queue[this.queueHead++];
    return undefined;
  }

  private fill(w: PoolWorker): void {
    if (this.stopping || !w.ready || w.retiring) return;
    while (w.inFlight.length < this.prefetch) {
      const d = this.nextWork();
      if (!d) break;
      this.pool.dispatch(w, d);
    }
  }

  private fillAll(): void {
    for (const w of this.pool.workers) this.fill(w);
    // Retries can bring work back after idle workers were let go: make sure someone takes it.
    if (!this.stopping && this.remainingQueued() > 0 && this.pool.workers.size < this.o.workers) {
      const used = new Set([...this.pool.workers].map((w) => w.slot));
      for (let slot = 0; slot < this.o.workers && this.pool.workers.size < this.o.workers; slot++) {
        if (!used.has(slot)) this.pool.spawn(slot);
      }
    }
  }

  // ---- outcomes ----

  private onResult(w: PoolWorker, d: Dispatched, msg: ResultMessage): void {
    this.wallEwmaS = Number.isNaN(this.wallEwmaS) ? msg.wallS : 0.9 * this.wallEwmaS + 0.1 * msg.wallS;
    // Short tasks: keep several queued on each worker so IPC round trips do not idle it.
    this.prefetch = this.wallEwmaS < 0.02 ? 8 : this.wallEwmaS < 0.2 ? 2 : 1;
    this.pendingCommit.push({ d, msg });
    if (!this.commitScheduled) {
      this.commitScheduled = true;
      setImmediate(() => this.commit());
    }
    this.fill(w);
  }

  /** Group commit: every result that arrived since the last commit, in one transaction. */
  private commit(): void {
    this.commitScheduled = false;
    if (this.pendingCommit.length === 0 || this.stopping === 'fatal') return;
    const batch = this.pendingCommit;
    this.pendingCommit = [];
    const rows: CommittedResult[] = batch.map(({ d, msg }) => ({
      taskId: d.task.taskId, specHash: d.task.specHash, farmId: d.task.farmId, farmType: d.task.farmType, seed: d.task.seed,
      nTurbines: msg.output.x.length, aep: msg.output.aep, aepInitial: msg.output.aepInitial,
      x: msg.output.x, y: msg.output.y, xInitial: msg.output.xInitial, yInitial: msg.output.yInitial,
      iterations: msg.output.iterations, evaluations: msg.output.evaluations, wallS: msg.wallS, attempts: d.attempt,
    }));
    try {
      this.o.ledger.commitResults(rows, this.o.runId);
    } catch (err) {
      this.fatal(err);
      return;
    }
    for (const { d, msg } of batch) {
      this.doneThisRun++;
      this.resultsSinceExport++;
      this.o.audit.write({ event: 'attempt', task: d.task.taskId, attempt: d.attempt, outcome: 'done', wall_s: round(msg.wallS) });
    }
    this.maybeExport();
    this.checkFinished();
  }

  private onError(w: PoolWorker, d: Dispatched, msg: ErrorMessage): void {
    this.failAttempt(d, msg.message, 'error', msg.wallS);
    this.fill(w);
    this.checkFinished();
  }

  private onDeath(w: PoolWorker, lost: Dispatched[], reason: string): void {
    if (lost.length > 0) this.failAttempt(lost[0], reason, 'crash');
    this.requeueUncharged(lost.slice(1));
    if (!w.ready && !this.stopping) {
      this.startupFailures++;
      if (this.startupFailures >= 3) {
        this.fatal(new RuntimeFailure(`worker processes exit before they start (${reason})`));
        return;
      }
    }
    this.respawn(w.slot);
    this.checkFinished();
  }

  /** Replace the worker of `slot` if there is work left and no worker holds the slot yet. */
  private respawn(slot: number): void {
    if (this.stopping || this.remainingQueued() + this.retryTimers.size === 0) return;
    for (const w of this.pool.workers) if (w.slot === slot) return;
    this.pool.spawn(slot);
  }

  private requeueUncharged(ds: Dispatched[]): void {
    for (let i = ds.length - 1; i >= 0; i--) this.urgent.push(ds[i]);
    if (ds.length > 0) this.fillAll();
  }

  private failAttempt(d: Dispatched, message: string, outcome: 'error' | 'crash' | 'timeout', wallS?: number): void {
    const id = d.task.taskId;
    const n = (this.failedAttempts.get(id) ?? 0) + 1;
    this.failedAttempts.set(id, n);
    const counted = n - (this.attemptsBase.get(id) ?? 0);
    const permanent = counted >= this.c.retry.attempts;
    this.o.audit.write({ event: 'attempt', task: id, attempt: d.attempt, outcome, error: message, ...(wallS !== undefined ? { wall_s: round(wallS) } : {}) });
    try {
      this.o.ledger.recordFailure(id, n, message, permanent);
    } catch (err) {
      this.fatal(err);
      return;
    }
    if (permanent) {
      this.failedThisRun++;
      this.failedTotal++;
      this.o.audit.write({ event: 'failed', task: id, attempts: n, error: message });
      this.o.progress?.log(`wflo: ${id} failed after ${counted} attempt${counted === 1 ? '' : 's'}: ${message}`);
      if (this.c.maxFailures !== null && this.failedThisRun >= this.c.maxFailures && !this.stopping) {
        this.o.audit.write({ event: 'max_failures', failed: this.failedThisRun, limit: this.c.maxFailures });
        this.stop('max_failures');
      }
      return;
    }
    if (this.stopping) return;
    const delayS = backoffDelayS(this.c.retry, counted);
    this.retries++;
    this.o.audit.write({ event: 'retry', task: id, attempt: n + 1, delay_s: delayS, after: outcome });
    const timer = setTimeout(() => {
      this.retryTimers.delete(timer);
      if (this.stopping) return;
      this.urgent.unshift({ task: d.task, attempt: n + 1 });
      this.fillAll();
      this.checkFinished();
    }, delayS * 1000);
    this.retryTimers.add(timer);
  }

  private checkTimeouts(): void {
    const limitMs = this.c.timeoutS * 1000;
    const now = performance.now();
    for (const w of [...this.pool.workers]) {
      if (w.inFlight.length === 0 || now - w.headStartedAt <= limitMs) continue;
      const lost = this.pool.kill(w);
      this.o.audit.write({ event: 'timeout', task: lost[0].task.taskId, attempt: lost[0].attempt, timeout_s: this.c.timeoutS, worker_pid: w.pid });
      this.failAttempt(lost[0], `timed out after ${this.c.timeoutS} s (worker killed)`, 'timeout');
      this.requeueUncharged(lost.slice(1));
      this.respawn(w.slot);
    }
    this.checkFinished();
  }

  // ---- stopping ----

  private stop(mode: StopMode): void {
    if (this.stopping === 'fatal' || this.stopping === mode) return;
    if (this.stopping === 'interrupted' && mode === 'max_failures') return;
    this.stopping = mode;
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
    void this.pool.stopAll().then((lost) => {
      for (const d of lost.slice(0)) {
        this.o.audit.write({ event: 'attempt', task: d.task.taskId, attempt: d.attempt, outcome: 'cancelled' });
      }
      this.checkFinished();
    });
  }

  private fatal(err: unknown): void {
    if (this.stopping === 'fatal') return;
    this.fatalError = err;
    this.o.audit.write({ event: 'fatal', error: err instanceof Error ? err.message : String(err) });
    this.stop('fatal');
  }

  private busyWorkers(): number {
    let n = 0;
    for (const w of this.pool.workers) if (w.inFlight.length > 0) n++;
    return n;
  }

  private checkFinished(): void {
    if (this.finished) return;
    const inFlight = [...this.pool.workers].reduce((s, w) => s + w.inFlight.length, 0);
    if (this.pendingCommit.length > 0) return;
    if (this.stopping === 'max_failures') {
      // Nothing new is dispatched; what the workers already hold (the running task and at most
      // the prefetch depth behind it) runs to the end and is kept.
      if (this.busyWorkers() > 0) return;
    } else if (this.stopping) {
      if (this.pool.workers.size > 0) return;
    } else if (inFlight > 0 || this.remainingQueued() > 0 || this.retryTimers.size > 0) {
      return;
    }
    this.finished = true;
    void this.finish();
  }

  private async finish(): Promise<void> {
    for (const t of this.intervals) clearInterval(t);
    for (const t of this.retryTimers) clearTimeout(t);
    await this.pool.stopAll();
    this.commit();
    if (this.exportRunning) await this.exportRunning;
    let exportFailure: unknown = null;
    try {
      if (this.stopping !== 'fatal') await this.finalExport();
    } catch (err) {
      exportFailure = err;
    } finally {
      this.exporter.close();
    }
    this.heartbeat();
    this.o.progress?.update(this.snapshot());
    this.o.progress?.stop();
    if (this.fatalError && this.stopping === 'fatal') {
      this.rejectRun!(this.fatalError);
      return;
    }
    if (exportFailure) {
      this.rejectRun!(exportFailure);
      return;
    }
    const allDone = this.failedTotal === 0 && this.doneThisRun === this.o.work.length;
    const stopReason: StopReason = this.stopping === 'interrupted' ? 'interrupted'
      : this.stopping === 'max_failures' ? 'max_failures'
      : allDone ? 'complete' : 'incomplete';
    this.resolveRun!({
      stopReason, doneThisRun: this.doneThisRun, failedThisRun: this.failedThisRun, retries: this.retries,
      exported: this.lastExport, exportError: this.lastExportError,
    });
  }

  // ---- export ----

  private maybeExport(): void {
    if (this.exportRunning || this.stopping || this.finished) return;
    const due = this.resultsSinceExport >= this.c.exportEveryResults ||
      (this.resultsSinceExport > 0 && performance.now() - this.lastExportAt >= this.c.exportEveryS * 1000);
    if (due) this.exportRunning = this.runExport().then(() => { this.exportRunning = null; });
  }

  /** One export in a child process; never throws (failures are logged and audited). */
  private async runExport(): Promise<boolean> {
    this.resultsSinceExport = 0;
    this.lastExportAt = performance.now();
    const result = await this.exporter.export(this.o.outputDir);
    this.lastExportOk = result.ok;
    if (result.ok) {
      this.lastExport = result.report;
      this.lastExportError = null;
      const r = result.report;
      this.o.audit.write({ event: 'export', file: r.file, rows: r.rows, expected: r.expected, complete: r.complete, bytes: r.bytes, seconds: round(r.seconds) });
      try {
        this.o.ledger.setMeta('last_export', JSON.stringify({ rows: r.rows, campaign_hash: r.campaignHash, at: new Date().toISOString() }));
      } catch { /* only an optimization for the next run */ }
      return true;
    }
    this.lastExportError = result.message;
    this.o.audit.write({ event: 'export_failed', error: this.lastExportError });
    if (!this.exportWarned) {
      this.o.progress?.log(`wflo: warning: could not refresh layouts.h5 (will retry): ${this.lastExportError}`);
      this.exportWarned = true;
    }
    return false;
  }

  private async finalExport(): Promise<void> {
    const needed = this.o.exportNeeded || this.doneThisRun > 0 || !fs.existsSync(path.join(this.o.outputDir, LAYOUTS_FILE)) ||
      (this.lastExport === null && this.lastExportError !== null);
    // Nothing committed since the last good export: that file is already the final one.
    if (!needed || (this.lastExportOk && this.resultsSinceExport === 0)) return;
    // A writer left over from a killed coordinator may still hold the file lock for a moment.
    for (let tries = 0; tries < 20; tries++) {
      if (await this.runExport()) return;
      if (!/being written by another process/.test(this.lastExportError ?? '')) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    throw new RuntimeFailure(`could not write ${path.join(this.o.outputDir, LAYOUTS_FILE)}: ${this.lastExportError}; every finished task is safe in the ledger, rerun \`wflo export ${this.o.outputDir}\``);
  }

  // ---- monitoring ----

  private running(): RunningTask[] {
    const out: RunningTask[] = [];
    const nowWall = Date.now() / 1000, nowPerf = performance.now();
    for (const w of this.pool.workers) {
      const d = w.inFlight[0];
      if (d) out.push({ taskId: d.task.taskId, workerPid: w.pid, attempt: d.attempt, startedAt: nowWall - (nowPerf - w.headStartedAt) / 1000 });
    }
    return out;
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
    if (this.stopping === 'fatal') return;
    try {
      this.o.ledger.heartbeat(this.o.runId, this.ratePerMin(), this.running());
    } catch (err) {
      this.fatal(err);
    }
  }

  snapshot(): ProgressSnapshot {
    const total = this.o.work.length + this.o.alreadyDone + this.o.alreadyFailed;
    const done = this.o.alreadyDone + this.doneThisRun;
    const running = this.busyWorkers();
    const pending = Math.max(0, total - done - this.failedTotal - running);
    const samples = this.rateSamples;
    let rate = 0;
    if (samples.length >= 2) {
      const [t0, d0] = samples[0];
      const [t1, d1] = samples[samples.length - 1];
      rate = t1 > t0 ? ((d1 - d0) / (t1 - t0)) * 60_000 : 0;
    }
    return {
      total, done, failed: this.failedTotal, running, pending, ratePerMin: rate,
      etaS: rate > 0 ? ((pending + running) / rate) * 60 : null,
      elapsedS: (performance.now() - this.startedAt) / 1000,
    };
  }
}

function round(x: number): number {
  return Math.round(x * 1e4) / 1e4;
}

