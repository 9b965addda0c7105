/**
 * The job processes of one `wflo worker`: one forked process per concurrency slot (jobChild.js),
 * kept warm between jobs. `run` hands an attempt to an idle process and resolves with how it
 * ended, never rejects: a result, the optimizer's error, a crash (the process died: signal, exit
 * code, last stderr line) or a timeout (the attempt ran over its limit: the process is killed).
 * A dead or killed process is replaced before the next attempt. Attempts beyond the number of
 * processes wait in arrival order; each one's timeout starts when a process starts it. Each job
 * process leads its own process group, ended as a whole (a command task's program with it).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { TaskOutput } from '../../taskOutput.js';
import type { FromJobChild, JobAttempt, RunMessage } from './jobChildProtocol.js';
import { OWN_GROUP_ENV, settleGroupKills, terminateGroup } from '../../processGroup.js';
import { childEnvironment } from '../../parentLeaves.js';

export const JOB_CHILD_ENTRY = fileURLToPath(new URL('./jobChild.js', import.meta.url));

export type ProcessOutcome =
  | { kind: 'result'; output: TaskOutput; wallS: number }
  | { kind: 'error'; message: string; wallS: number; permanent?: boolean }
  | { kind: 'crash'; message: string }
  | { kind: 'timeout'; message: string };

/** One attempt to run (the job-process protocol's JobAttempt). */
export type Attempt = JobAttempt;

interface Slot {
  child: ChildProcess;
  ready: Promise<void>;
  busy: boolean;
  stderrTail: string;
  /** The attempt it runs now. */
  current: { id: number; resolve: (o: ProcessOutcome) => void; timer: NodeJS.Timeout } | null;
}

export class JobProcessPool {
  private readonly slots: Slot[] = [];
  private nextId = 1;
  private closed = false;
  private readonly pending: { a: Attempt; resolve: (o: ProcessOutcome) => void }[] = [];

  constructor(
    private readonly size: number,
    private readonly execArgv: string[] = [],
  ) {}

  /** Pids of the job processes (status, tests). */
  pids(): number[] {
    return this.slots.map((s) => s.child.pid ?? -1);
  }

  private spawn(): Slot {
    const child = fork(JOB_CHILD_ENTRY, [], {
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      execArgv: this.execArgv,
      detached: true,
      env: childEnvironment({ [OWN_GROUP_ENV]: '1' }),
    });
    let markReady!: () => void;
    const slot: Slot = {
      child,
      ready: new Promise((r) => {
        markReady = r;
      }),
      busy: false,
      stderrTail: '',
      current: null,
    };
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (s: string) => {
      slot.stderrTail = (slot.stderrTail + s).slice(-2000);
    });
    child.on('error', () => {
      /* reported through 'exit' */
    });
    child.on('message', (msg: FromJobChild) => {
      if (msg.kind === 'ready') {
        markReady();
        return;
      }
      const cur = slot.current;
      if (!cur || cur.id !== msg.id) return;
      this.finish(
        slot,
        msg.kind === 'result'
          ? { kind: 'result', output: msg.output, wallS: msg.wallS }
          : { kind: 'error', message: msg.message, wallS: msg.wallS, permanent: msg.permanent },
      );
    });
    child.on('exit', (code, signal) => {
      markReady();
      if (child.pid !== undefined) void terminateGroup(child.pid); // what it started goes with it
      const i = this.slots.indexOf(slot);
      if (i >= 0) this.slots.splice(i, 1);
      if (slot.current) {
        const tail = slot.stderrTail.trim().split('\n').slice(-2).join(' | ').slice(0, 500);
        this.finish(slot, {
          kind: 'crash',
          message: `job process ${child.pid} died (${signal ? `signal ${signal}` : `exit code ${code}`})${tail ? `: ${tail}` : ''}`,
        });
      }
    });
    this.slots.push(slot);
    return slot;
  }

  private finish(slot: Slot, outcome: ProcessOutcome): void {
    const cur = slot.current;
    if (!cur) return;
    clearTimeout(cur.timer);
    slot.current = null;
    slot.busy = false;
    cur.resolve(outcome);
  }

  /**
   * Run one attempt: it waits (in arrival order) for an idle job process; its timeout starts when
   * the process starts it. More attempts than processes may be handed in (the worker prefetches
   * short jobs): they wait here, locked in Redis by this worker.
   */
  run(a: Attempt): Promise<ProcessOutcome> {
    if (this.closed) return Promise.resolve({ kind: 'crash', message: 'worker is shutting down' });
    return new Promise<ProcessOutcome>((resolve) => {
      this.pending.push({ a, resolve });
      this.pump();
    });
  }

  /** Attempts handed in and not yet started. */
  waiting(): number {
    return this.pending.length;
  }

  private pump(): void {
    while (this.pending.length > 0 && !this.closed) {
      let slot = this.slots.find((s) => !s.busy && s.child.exitCode === null && s.child.signalCode === null);
      if (!slot) {
        if (this.slots.length >= this.size) return;
        slot = this.spawn();
      }
      const next = this.pending.shift()!;
      void this.start(slot, next.a).then((o) => {
        next.resolve(o);
        this.pump();
      });
    }
  }

  private async start(s: Slot, a: Attempt): Promise<ProcessOutcome> {
    s.busy = true;
    await s.ready;
    if (s.child.exitCode !== null || s.child.signalCode !== null) {
      s.busy = false;
      return { kind: 'crash', message: `job process ${s.child.pid} exited before it started (${s.stderrTail.trim().split('\n').pop() ?? ''})` };
    }
    const id = this.nextId++;
    return new Promise<ProcessOutcome>((resolve) => {
      const timer = setTimeout(() => {
        if (s.current?.id !== id) return;
        this.finish(s, { kind: 'timeout', message: `timed out after ${a.timeoutS} s (job process and its process group killed)` });
        const i = this.slots.indexOf(s);
        if (i >= 0) this.slots.splice(i, 1);
        if (s.child.pid !== undefined) void terminateGroup(s.child.pid);
      }, a.timeoutS * 1000);
      s.current = { id, resolve, timer };
      const msg: RunMessage = {
        kind: 'run',
        id,
        farm: a.farm,
        type: a.type,
        optimizer: a.optimizer,
        taskId: a.taskId,
        seed: a.seed,
        attempt: a.attempt,
        timeoutS: a.timeoutS,
        taskDir: a.taskDir,
        ...(a.workdir !== undefined ? { workdir: a.workdir } : {}),
      };
      s.child.send(msg);
    });
  }

  /** End every job process with its process group; running attempts end as crashes. */
  async close(): Promise<void> {
    this.closed = true;
    for (const p of this.pending.splice(0)) p.resolve({ kind: 'crash', message: 'worker is shutting down' });
    const exits = this.slots.map(
      (s) =>
        new Promise<void>((resolve) => {
          if (s.child.exitCode !== null || s.child.signalCode !== null) {
            resolve();
            return;
          }
          s.child.once('exit', () => resolve());
          if (s.child.pid !== undefined) void terminateGroup(s.child.pid);
        }),
    );
    await Promise.all(exits);
    await settleGroupKills();
  }
}
