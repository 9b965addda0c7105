/**
 * `mode: persistent`: one long-lived process of the user's program per worker slot (importing
 * PyWake or FLORIS takes seconds; a persistent program pays it once). Tasks go to it as JSON lines
 * on descriptor 3 (WFLO_TASKS_FD), results come back as JSON lines on descriptor 4
 * (WFLO_RESULTS_FD), one per task, in order; stdout and stderr stay the program's own, captured
 * to the running task's bounded logs. End of input on descriptor 3 asks it to exit.
 *
 * The program is started on the first task and restarted on the next task after it died. It
 * lives in the worker's process group: a timeout or a stop ends it with the worker (the next
 * worker starts a fresh one), and so does the worker's own end (runner/processGroup.ts).
 * A task's answer that is not one well-formed line (too long, wrong task) ends the program too:
 * it is out of step, and the next task gets a fresh one.
 *
 * Output and answers travel on different pipes, so what a program printed (and flushed) just
 * before answering can be read after the answer. A task therefore keeps its logs until the event
 * loop has been round once more: everything the pipes held when the answer was read is then in
 * that task's logs, not in the next one's (`settle`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import type { BoundedLog } from './boundedLog.js';
import { ENV, MAX_RESULT_BYTES, RESULTS_FD, TASKS_FD, TASK_PROTOCOL } from './protocol.js';
import { readResultDocument, type ProgramAnswer } from './resultDocument.js';
import { quoteLogs, startFailure, type ProgramLaunch } from './perTaskRun.js';

interface Waiting {
  taskId: string;
  out: BoundedLog;
  err: BoundedLog;
  where: string;
  resolve: (a: ProgramAnswer) => void;
}

/** How long a program gets to exit by itself after its input is closed. */
const EXIT_GRACE_MS = 1000;

export class PersistentProgram {
  private readonly child: ChildProcess;
  private readonly tasks: Writable;
  private exited: { code: number | null; signal: NodeJS.Signals | null } | null = null;
  private startError: NodeJS.ErrnoException | null = null;
  /** Told to stop (it may not have exited yet): takes no more tasks. */
  private stopping = false;
  private buffer: Buffer[] = [];
  private bufferBytes = 0;
  /** The task waiting for its answer. */
  private current: Waiting | null = null;
  /** The task whose logs receive the program's output (the current one, or the one just answered while its output settles). */
  private logging: Waiting | null = null;
  /** Output between tasks: written to the next task's logs. */
  private strayOut: Buffer[] = [];
  private strayErr: Buffer[] = [];
  readonly exitPromise: Promise<void>;

  /** `scratchDir`: the program's scratch folder (made by the caller; named in every task document). */
  constructor(
    readonly key: string,
    private readonly launch: ProgramLaunch,
    readonly scratchDir: string,
  ) {
    const env = {
      ...process.env,
      [ENV.protocol]: TASK_PROTOCOL,
      [ENV.mode]: 'persistent',
      [ENV.tasksFd]: String(TASKS_FD),
      [ENV.resultsFd]: String(RESULTS_FD),
    };
    this.child = spawn(launch.argv[0], launch.argv.slice(1), { cwd: launch.cwd, env, stdio: ['ignore', 'pipe', 'pipe', 'pipe', 'pipe'] });
    this.tasks = this.child.stdio[TASKS_FD] as Writable;
    this.tasks.on('error', () => {
      /* the program went away: reported through 'exit' */
    });
    const results = this.child.stdio[RESULTS_FD] as Readable;
    results.on('data', (b: Buffer) => this.onResults(b));
    results.on('error', () => {
      /* idem */
    });
    this.child.stdout!.on('data', (b: Buffer) => (this.logging ? this.logging.out.write(b) : keep(this.strayOut, b)));
    this.child.stderr!.on('data', (b: Buffer) => (this.logging ? this.logging.err.write(b) : keep(this.strayErr, b)));
    this.exitPromise = new Promise<void>((resolve) => {
      this.child.once('error', (e) => {
        this.startError = e as NodeJS.ErrnoException;
        this.exited ??= { code: null, signal: null };
        this.fail(startFailure(this.launch, this.startError), true);
        resolve();
      });
      this.child.once('exit', (code, signal) => {
        this.exited = { code, signal };
        // Let the last output arrive before quoting it.
        setTimeout(() => {
          const how = signal ? `was killed by signal ${signal}` : `exited with code ${code}`;
          if (this.current) this.fail(`persistent program ${how} during the task${quoteLogs(this.current.err, this.current.out)}`, false);
          resolve();
        }, 50);
      });
    });
  }

  /** Running and taking tasks. */
  get alive(): boolean {
    return this.exited === null && !this.stopping;
  }

  /** Send one task document; resolves with the program's answer (never rejects). */
  run(doc: Record<string, unknown>, taskId: string, out: BoundedLog, err: BoundedLog, where: string): Promise<ProgramAnswer> {
    if (!this.alive) return Promise.resolve({ kind: 'error', permanent: false, message: 'persistent program is not running' });
    for (const b of this.strayOut.splice(0)) out.write(b);
    for (const b of this.strayErr.splice(0)) err.write(b);
    return new Promise<ProgramAnswer>((resolve) => {
      this.current = { taskId, out, err, where, resolve };
      this.logging = this.current;
      this.tasks.write(`${JSON.stringify(doc)}\n`);
    });
  }

  private onResults(b: Buffer): void {
    let start = 0;
    for (let nl = b.indexOf(10); nl >= 0; nl = b.indexOf(10, start)) {
      this.push(b.subarray(start, nl));
      const line = Buffer.concat(this.buffer).toString('utf8');
      this.buffer = [];
      this.bufferBytes = 0;
      start = nl + 1;
      if (line.trim() !== '') this.answer(line);
    }
    if (start < b.length) this.push(b.subarray(start));
    if (this.bufferBytes > MAX_RESULT_BYTES) {
      this.fail(`result line over the ${MAX_RESULT_BYTES / 2 ** 20} MiB limit (refused; the program is restarted)`, false);
      this.stop(0);
    }
  }

  private push(b: Buffer): void {
    if (b.length === 0 || this.bufferBytes > MAX_RESULT_BYTES) return;
    this.buffer.push(Buffer.from(b));
    this.bufferBytes += b.length;
  }

  private answer(line: string): void {
    const cur = this.current;
    if (!cur) {
      // An answer nobody asked for: the program is out of step.
      this.stop(0);
      return;
    }
    const a = readResultDocument(line, cur.taskId, true);
    if (a.kind === 'error' && /^result is for task|^result has no task_id/.test(a.message)) {
      this.fail(`${a.message} (the program is out of step and is restarted)`, false);
      this.stop(0);
      return;
    }
    this.current = null;
    this.settle(cur, a.kind === 'error' ? { ...a, message: `${a.message}${cur.where}` } : a);
  }

  private fail(message: string, permanent: boolean): void {
    const cur = this.current;
    if (!cur) return;
    this.current = null;
    this.settle(cur, { kind: 'error', permanent, message: `${message}${cur.where}` });
  }

  /**
   * Resolve `cur` once output already in the pipes has reached its logs: the readiness of every
   * pipe is taken in one poll, and 'data' is emitted from it (or from ticks run before the check
   * phase), so two turns of setImmediate see it all. A program that prints without flushing
   * before it answers still has its late output land in the next task's logs.
   */
  private settle(cur: Waiting, answer: ProgramAnswer): void {
    setImmediate(() =>
      setImmediate(() => {
        if (this.logging === cur) this.logging = null;
        cur.resolve(answer);
      }),
    );
  }

  /** Close its input, give it `graceMs` to exit, then SIGKILL it. Resolves when it has exited. */
  async stop(graceMs = EXIT_GRACE_MS): Promise<void> {
    const wasAlive = this.alive;
    this.stopping = true;
    if (wasAlive) {
      this.tasks.end();
      const timer = setTimeout(() => {
        try {
          this.child.kill('SIGKILL');
        } catch {
          /* gone */
        }
      }, graceMs);
      if (graceMs === 0) {
        try {
          this.child.kill('SIGKILL');
        } catch {
          /* gone */
        }
      }
      await this.exitPromise;
      clearTimeout(timer);
    }
  }
}

/** Keep at most ~64 kB of output written between tasks. */
function keep(list: Buffer[], b: Buffer): void {
  list.push(Buffer.from(b));
  let total = list.reduce((n, x) => n + x.length, 0);
  while (total > 65536 && list.length > 1) total -= list.shift()!.length;
}
