/**
 * The process pool under the local executor: worker processes (child_process.fork of worker.js, one
 * process per slot, so a SIGKILL, out-of-memory abort or native crash takes down only that
 * worker and the task it was running). Each worker runs its tasks strictly in order; the pool
 * knows which task a worker is running (the head of its in-flight list) and since when, so the
 * scheduler can enforce per-task timeouts by killing the worker.
 *
 * Each worker leads its own process group (forked detached), so ending an attempt ends whatever
 * the worker started for it too (a command task's program and its children): SIGTERM to the
 * group, SIGKILL after a grace period (processGroup.ts).
 *
 * The pool does no scheduling itself: it reports results, errors and deaths to its listener.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Task } from '../../../campaign/taskGrid.js';
import type { ErrorMessage, FromWorker, ResultMessage, SetupMessage, TaskMessage } from './workerProtocol.js';
import { OWN_GROUP_ENV, settleGroupKills, terminateGroup } from '../../processGroup.js';
import { childEnvironment } from '../../parentLeaves.js';

/** dist/src/runner/executors/local/worker.js, next to this module once compiled. */
export const WORKER_ENTRY = fileURLToPath(new URL('./worker.js', import.meta.url));

export interface Dispatched {
  task: Task;
  attempt: number;
}

export interface PoolListener {
  onReady(w: PoolWorker): void;
  onResult(w: PoolWorker, d: Dispatched, msg: ResultMessage): void;
  onError(w: PoolWorker, d: Dispatched, msg: ErrorMessage): void;
  /** A worker died without being asked to: `lost[0]` was running, the rest were queued on it. */
  onDeath(w: PoolWorker, lost: Dispatched[], reason: string): void;
}

export class PoolWorker {
  readonly slot: number;
  readonly child: ChildProcess;
  ready = false;
  /** Tasks sent and not yet answered, in the order the worker runs them. */
  readonly inFlight: Dispatched[] = [];
  /** When the head of `inFlight` started running (ms, performance.now()). */
  headStartedAt = 0;
  /** Set when the pool kills or stops it on purpose. */
  retiring = false;
  private stderrTail = '';

  constructor(slot: number, child: ChildProcess) {
    this.slot = slot;
    this.child = child;
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (s: string) => {
      this.stderrTail = (this.stderrTail + s).slice(-2000);
    });
  }

  get pid(): number {
    return this.child.pid ?? -1;
  }

  /** Last line(s) the worker wrote to stderr, for crash reports. */
  lastStderr(): string {
    return this.stderrTail.trim().split('\n').slice(-2).join(' | ').slice(0, 500);
  }
}

export class WorkerPool {
  readonly workers = new Set<PoolWorker>();
  private readonly setup: SetupMessage;
  private readonly listener: PoolListener;
  private readonly execArgv: string[];

  constructor(setup: SetupMessage, listener: PoolListener, execArgv: string[] = []) {
    this.setup = setup;
    this.listener = listener;
    this.execArgv = execArgv;
  }

  spawn(slot: number): PoolWorker {
    const child = fork(WORKER_ENTRY, [], {
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      execArgv: this.execArgv,
      detached: true,
      env: childEnvironment({ [OWN_GROUP_ENV]: '1' }),
    });
    const w = new PoolWorker(slot, child);
    this.workers.add(w);
    child.on('message', (msg: FromWorker) => this.onMessage(w, msg));
    child.on('error', () => {
      /* reported through 'exit' */
    });
    child.on('exit', (code, signal) => {
      this.workers.delete(w);
      if (w.retiring) return;
      // Whatever it had started (a command task's program) goes with it.
      if (child.pid !== undefined) void terminateGroup(child.pid);
      const lost = w.inFlight.splice(0);
      const how = signal ? `signal ${signal}` : `exit code ${code}`;
      const tail = w.lastStderr();
      this.listener.onDeath(w, lost, `worker process ${w.pid} died (${how})${tail ? `: ${tail}` : ''}`);
    });
    child.send(this.setup);
    return w;
  }

  private onMessage(w: PoolWorker, msg: FromWorker): void {
    if (w.retiring) return;
    if (msg.kind === 'ready') {
      w.ready = true;
      this.listener.onReady(w);
      return;
    }
    const d = w.inFlight[0];
    if (!d || d.task.taskId !== msg.taskId) {
      // Answers arrive in dispatch order; anything else is a broken worker.
      this.kill(w);
      this.listener.onDeath(w, w.inFlight.splice(0), `worker ${w.pid} answered for ${msg.taskId} out of order`);
      return;
    }
    w.inFlight.shift();
    w.headStartedAt = performance.now();
    if (msg.kind === 'result') this.listener.onResult(w, d, msg);
    else this.listener.onError(w, d, msg);
  }

  dispatch(w: PoolWorker, d: Dispatched): void {
    if (w.inFlight.length === 0) w.headStartedAt = performance.now();
    w.inFlight.push(d);
    const msg: TaskMessage = {
      kind: 'task',
      taskId: d.task.taskId,
      farmIndex: d.task.farmIndex,
      typeIndex: d.task.typeIndex,
      seed: d.task.seed,
      attempt: d.attempt,
    };
    w.child.send(msg);
  }

  /** Kill a worker on purpose (timeout, stop) with its process group; returns what it had in flight, head first. */
  kill(w: PoolWorker): Dispatched[] {
    w.retiring = true;
    this.workers.delete(w);
    const lost = w.inFlight.splice(0);
    if (w.child.pid !== undefined) void terminateGroup(w.child.pid);
    return lost;
  }

  /**
   * End every worker; resolves when all have exited and their process groups are gone. Returns
   * what they had in flight. `graceful` (no work is coming): each worker is told to go (its
   * persistent program gets to exit by itself) before its group is ended.
   */
  async stopAll(graceful = false): Promise<Dispatched[]> {
    const lost: Dispatched[] = [];
    const exits: Promise<void>[] = [];
    for (const w of [...this.workers]) {
      const running = w.child.exitCode === null && w.child.signalCode === null;
      if (running) exits.push(new Promise((resolve) => w.child.once('exit', () => resolve())));
      if (graceful && running && w.inFlight.length === 0 && w.child.connected) {
        w.retiring = true;
        this.workers.delete(w);
        w.child.disconnect();
        const timer = setTimeout(() => {
          if (w.child.pid !== undefined) void terminateGroup(w.child.pid);
        }, 2000);
        w.child.once('exit', () => {
          clearTimeout(timer);
          if (w.child.pid !== undefined) void terminateGroup(w.child.pid, 0);
        });
        continue;
      }
      lost.push(...this.kill(w));
    }
    await Promise.all(exits);
    await settleGroupKills();
    return lost;
  }
}
