/**
 * The local executor: forked worker processes on this machine (executors/local/workerPool.ts), one per
 * slot. It keeps a few tasks queued on each worker when tasks are short (so IPC round trips do
 * not idle it), kills a worker whose running task goes over the per-attempt timeout, and
 * replaces dead workers. What a death or timeout means for the task is the scheduler's call.
 */
import os from 'node:os';
import { WorkerPool, type PoolWorker, type Dispatched } from './workerPool.js';
import type { ErrorMessage, ResultMessage } from './workerProtocol.js';
import type { Dispatch, Executor, ExecutorListener, ExecutorSetup, RunningAttempt } from '../executor.js';

export interface LocalPoolOptions {
  /** Worker processes (slots). */
  workers: number;
  /** Extra node flags for the worker processes (tests). */
  execArgv?: string[];
  /** Where command tasks keep their attempt folders (`<output>/tasks`). */
  taskDir?: string;
}

/** Workers that exit before saying 'ready' this many times in a row: give up. */
const MAX_STARTUP_FAILURES = 3;

export class LocalPoolExecutor implements Executor {
  readonly kind = 'local';
  readonly remote = false;
  private readonly workers: number;
  private readonly execArgv: string[];
  private readonly taskDir: string | null;
  private pool: WorkerPool | null = null;
  private listener: ExecutorListener | null = null;
  private timeoutMs = Infinity;
  private slots = 0;
  /** Submitted while no worker had room (a worker died in between): sent on the next ready. */
  private readonly waiting: Dispatch[] = [];
  private prefetch = 1;
  private wallEwmaS = NaN;
  private startupFailures = 0;
  private stopped = false;
  private timer: NodeJS.Timeout | null = null;
  private readonly host = os.hostname();

  constructor(o: LocalPoolOptions) {
    this.workers = Math.max(1, o.workers);
    this.execArgv = o.execArgv ?? [];
    this.taskDir = o.taskDir ?? null;
  }

  async start(setup: ExecutorSetup, listener: ExecutorListener, expectedWork: number): Promise<void> {
    this.listener = listener;
    this.timeoutMs = setup.timeoutS * 1000;
    this.pool = new WorkerPool(
      { kind: 'setup', farms: setup.farms, farmTypes: setup.farmTypes, optimizer: setup.optimizer, timeoutS: setup.timeoutS, taskDir: this.taskDir },
      {
        onReady: (w) => {
          this.startupFailures = 0;
          this.flushWaiting(w);
          listener.onCapacity();
        },
        onResult: (w, d, msg) => this.onResult(w, d, msg),
        onError: (w, d, msg) => this.onError(w, d, msg),
        onDeath: (w, lost, reason) => this.onDeath(w, lost, reason),
      },
      this.execArgv,
    );
    this.slots = Math.min(this.workers, Math.max(1, expectedWork));
    if (expectedWork > 0) for (let slot = 0; slot < this.slots; slot++) this.pool.spawn(slot);
    this.timer = setInterval(() => this.checkTimeouts(), 250);
  }

  capacity(): number {
    if (this.stopped || !this.pool) return 0;
    let free = 0;
    for (const w of this.pool.workers) if (w.ready && !w.retiring) free += Math.max(0, this.prefetch - w.inFlight.length);
    return Math.max(0, free - this.waiting.length);
  }

  submit(d: Dispatch): void {
    const w = this.roomiest();
    if (w) this.pool!.dispatch(w, d);
    else this.waiting.push(d);
  }

  inFlight(): number {
    let n = this.waiting.length;
    for (const w of this.pool?.workers ?? []) n += w.inFlight.length;
    return n;
  }

  running(): RunningAttempt[] {
    const out: RunningAttempt[] = [];
    const nowWall = Date.now() / 1000,
      nowPerf = performance.now();
    for (const w of this.pool?.workers ?? []) {
      const d = w.inFlight[0];
      if (d)
        out.push({ taskId: d.task.taskId, attempt: d.attempt, workerPid: w.pid, host: this.host, startedAt: nowWall - (nowPerf - w.headStartedAt) / 1000 });
    }
    return out;
  }

  async stop(): Promise<Dispatch[]> {
    return this.end(false);
  }

  async close(): Promise<void> {
    await this.end(true);
  }

  private async end(graceful: boolean): Promise<Dispatch[]> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    const lost: Dispatch[] = this.pool ? await this.pool.stopAll(graceful) : [];
    lost.push(...this.waiting.splice(0));
    return lost;
  }

  // ---- internals ----

  private roomiest(): PoolWorker | null {
    let best: PoolWorker | null = null;
    for (const w of this.pool?.workers ?? []) {
      if (!w.ready || w.retiring || w.inFlight.length >= this.prefetch) continue;
      if (!best || w.inFlight.length < best.inFlight.length) best = w;
    }
    return best;
  }

  private flushWaiting(w: PoolWorker): void {
    while (this.waiting.length > 0 && w.inFlight.length < this.prefetch) this.pool!.dispatch(w, this.waiting.shift()!);
  }

  private onResult(w: PoolWorker, d: Dispatched, msg: ResultMessage): void {
    this.wallEwmaS = Number.isNaN(this.wallEwmaS) ? msg.wallS : 0.9 * this.wallEwmaS + 0.1 * msg.wallS;
    this.prefetch = this.wallEwmaS < 0.02 ? 8 : this.wallEwmaS < 0.2 ? 2 : 1;
    this.listener!.onOutcome(d, { kind: 'result', output: msg.output, wallS: msg.wallS, worker: { host: this.host, pid: w.pid } });
    this.flushWaiting(w);
    this.listener!.onCapacity();
  }

  private onError(w: PoolWorker, d: Dispatched, msg: ErrorMessage): void {
    this.listener!.onOutcome(d, { kind: 'error', message: msg.message, wallS: msg.wallS, permanent: msg.permanent, worker: { host: this.host, pid: w.pid } });
    this.flushWaiting(w);
    this.listener!.onCapacity();
  }

  private onDeath(w: PoolWorker, lost: Dispatched[], reason: string): void {
    // Hand back the unrun ones first: once the outcome is in, the scheduler may find nothing left in flight.
    if (lost.length > 1) this.listener!.onReturned(lost.slice(1));
    if (lost.length > 0) this.listener!.onOutcome(lost[0], { kind: 'crash', message: reason, worker: { host: this.host, pid: w.pid } });
    if (!w.ready && !this.stopped) {
      this.startupFailures++;
      if (this.startupFailures >= MAX_STARTUP_FAILURES) {
        this.listener!.onFatal(new Error(`worker processes exit before they start (${reason})`));
        return;
      }
    }
    this.respawn(w.slot);
  }

  private respawn(slot: number): void {
    if (this.stopped || !this.pool) return;
    for (const w of this.pool.workers) if (w.slot === slot) return;
    this.pool.spawn(slot);
  }

  private checkTimeouts(): void {
    if (!this.pool) return;
    const now = performance.now();
    for (const w of [...this.pool.workers]) {
      if (w.inFlight.length === 0 || now - w.headStartedAt <= this.timeoutMs) continue;
      const lost = this.pool.kill(w);
      if (lost.length > 1) this.listener!.onReturned(lost.slice(1));
      this.listener!.onOutcome(lost[0], {
        kind: 'timeout',
        message: `timed out after ${this.timeoutMs / 1000} s (worker and its process group killed)`,
        worker: { host: this.host, pid: w.pid },
      });
      this.respawn(w.slot);
    }
  }
}
