/**
 * A small pool of probe child processes (probeWorker.ts) that open untrusted HDF5 files.
 * Why processes: a failed open of a corrupt file can leave the h5wasm instance unusable
 * (h5wasm issue #46), and a file can crash or hang the reader. So:
 * - a child that saw any HDF5 error answers "retry elsewhere" to the files queued behind it
 *   and is replaced; those files go to a fresh child;
 * - a child that dies makes the file it was reading `unreadable` (with the exit code/signal),
 *   and the files queued behind it go to a fresh child;
 * - a child silent for `timeoutMs` is killed and the file it was reading is `unreadable`.
 * Each child has up to PIPELINE_DEPTH requests in flight, so it never waits for the parent.
 * Each child instance gets its own spill file, numbered; records name their spill file.
 */
import { childEnvironment } from '../runner/parentLeaves.js';
import fs from 'node:fs';
import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ProbeRequest, ProbeResponse } from './probeWorker.js';
import type { ProbeResult, ShardReadOptions } from './shardTypes.js';

const WORKER_PATH = fileURLToPath(new URL('./probeWorker.js', import.meta.url));
/** Requests queued at a child at once: enough to hide the IPC round trip. */
const PIPELINE_DEPTH = 4;

export interface ProbePoolOptions {
  /** Child processes working at once (default 2). */
  jobs?: number;
  /** Folder for spill files; records are spilled only when set. */
  spillDir?: string;
  /** Per-file limit: a child silent this long is killed (default 120 s). */
  timeoutMs?: number;
}

interface InFlight {
  id: number;
  fileIndex: number;
}

interface Slot {
  child: ChildProcess;
  spillFile: number;
  stderrTail: string;
  inFlight: InFlight[];
  /** Saw an HDF5 error: gets no more work and is replaced once its queue is answered. */
  retiring: boolean;
  timer?: NodeJS.Timeout;
}

export class ProbePool {
  private readonly jobs: number;
  private readonly timeoutMs: number;
  private nextSpillFile = 0;
  private nextRequestId = 0;
  private readonly live = new Set<ChildProcess>();
  /** Child processes started (for tests and reports). */
  started = 0;
  /** Peak resident memory (VmHWM, KiB) of each child when it was stopped (Linux only). */
  readonly peakRssKb: number[] = [];
  /** CPU seconds (user + system) used by the children stopped so far (Linux only). */
  cpuSeconds = 0;

  constructor(private readonly options: ProbePoolOptions = {}) {
    this.jobs = Math.max(1, Math.floor(options.jobs ?? 2));
    this.timeoutMs = options.timeoutMs ?? 120_000;
  }

  spillPath(file: number): string {
    if (!this.options.spillDir) throw new Error('this probe pool does not spill');
    return path.join(this.options.spillDir, `spill-${file}.bin`);
  }

  /** Record a child's peak RSS and CPU time from /proc before it is stopped (Linux only). */
  private recordPeak(child: ChildProcess): void {
    try {
      const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${child.pid}/status`, 'utf8'));
      if (m) this.peakRssKb.push(Number(m[1]));
      // /proc/<pid>/stat: fields 14 and 15 are utime and stime in clock ticks (100 per second on Linux).
      const stat = fs.readFileSync(`/proc/${child.pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      this.cpuSeconds += (Number(fields[11]) + Number(fields[12])) / 100;
    } catch {
      /* not Linux, or already gone */
    }
  }

  private stopChild(child: ChildProcess): void {
    this.live.delete(child);
    this.recordPeak(child);
    child.removeAllListeners('exit');
    child.removeAllListeners('message');
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }

  /**
   * Probe every file, `jobs` children at a time; `onResult` is called as each finishes (any
   * order). Never rejects for a bad file; rejects when `signal` aborts (every child stopped).
   */
  probeAll(files: string[], read: ShardReadOptions, onResult?: (index: number, result: ProbeResult) => void, signal?: AbortSignal): Promise<ProbeResult[]> {
    const results: (ProbeResult | undefined)[] = new Array(files.length);
    const todo: number[] = files.map((_, i) => i);
    let remaining = files.length;
    let failure: Error | null = null;
    let startFailures = 0;
    const slots = new Set<Slot>();
    return new Promise<ProbeResult[]>((resolve, reject) => {
      if (signal?.aborted) return reject(new Error('probing aborted'));
      if (remaining === 0) return resolve([]);
      const abort = () => {
        failure = new Error('probing aborted');
        for (const slot of slots) if (slot.timer) clearTimeout(slot.timer);
        for (const child of [...this.live]) this.stopChild(child);
        reject(failure);
      };
      signal?.addEventListener('abort', abort, { once: true });
      const finishFile = (fileIndex: number, result: ProbeResult) => {
        if (results[fileIndex]) return;
        results[fileIndex] = result;
        remaining--;
        onResult?.(fileIndex, result);
        if (remaining === 0) {
          signal?.removeEventListener('abort', abort);
          resolve(results as ProbeResult[]);
        }
      };
      const unreadable = (detail: string): ProbeResult => ({ class: 'unreadable', shapes: [], detail, records: [], lost: [], hdf5Errors: true });

      const armTimer = (slot: Slot) => {
        if (slot.timer) clearTimeout(slot.timer);
        slot.timer = undefined;
        if (slot.inFlight.length === 0) return;
        slot.timer = setTimeout(() => {
          const head = slot.inFlight.shift();
          if (head) finishFile(head.fileIndex, unreadable(`the HDF5 reader did not finish within ${Math.round(this.timeoutMs / 1000)} s`));
          replace(slot);
        }, this.timeoutMs);
      };

      /** Give the slot's unanswered files back to the queue and start a fresh child. */
      const replace = (slot: Slot) => {
        if (slot.timer) clearTimeout(slot.timer);
        for (const r of slot.inFlight.reverse()) todo.unshift(r.fileIndex);
        slot.inFlight = [];
        this.stopChild(slot.child);
        if (todo.length > 0 && !failure) start();
      };

      const feed = (slot: Slot) => {
        while (!slot.retiring && slot.inFlight.length < PIPELINE_DEPTH && todo.length > 0) {
          const fileIndex = todo.shift()!;
          const id = this.nextRequestId++;
          slot.inFlight.push({ id, fileIndex });
          try {
            slot.child.send({ id, path: files[fileIndex], options: read, spill: !!this.options.spillDir } satisfies ProbeRequest);
          } catch {
            break; // the child is gone; its exit handler re-queues what it held
          }
        }
        armTimer(slot);
        if (slot.inFlight.length === 0) {
          this.stopChild(slot.child);
          if (todo.length > 0) start();
        }
      };

      const start = () => {
        if (this.live.size >= this.jobs) return;
        const spillFile = this.nextSpillFile++;
        const env: NodeJS.ProcessEnv = childEnvironment({ WFLO_PROBE_CHILD: '1' });
        if (this.options.spillDir) env.WFLO_SPILL_PATH = this.spillPath(spillFile);
        else delete env.WFLO_SPILL_PATH;
        const child = fork(WORKER_PATH, [], { env, execArgv: [], stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
        this.started++;
        this.live.add(child);
        const slot: Slot = { child, spillFile, stderrTail: '', inFlight: [], retiring: false };
        slots.add(slot);
        child.stderr!.on('data', (chunk: Buffer) => {
          slot.stderrTail = (slot.stderrTail + chunk.toString()).slice(-2000);
        });
        let ready = false;
        child.on('message', (msg: ProbeResponse & { ready?: boolean; retry?: boolean }) => {
          if (msg.ready) {
            ready = true;
            feed(slot);
            return;
          }
          const k = slot.inFlight.findIndex((r) => r.id === msg.id);
          if (k === -1) return;
          const [request] = slot.inFlight.splice(k, 1);
          if (msg.retry) {
            todo.unshift(request.fileIndex);
          } else {
            for (const record of msg.result.records) if (record.spill) record.spill.file = spillFile;
            if (msg.result.hdf5Errors) slot.retiring = true;
            finishFile(request.fileIndex, msg.result);
          }
          if (slot.retiring && slot.inFlight.length === 0) replace(slot);
          else if (!slot.retiring) feed(slot);
          else armTimer(slot);
        });
        child.once('exit', (code, exitSignal) => {
          this.live.delete(child);
          if (!ready) {
            // A start can fail transiently (e.g. out of memory, or dist/ being rebuilt): retry twice.
            if (++startFailures <= 2 && !failure) {
              if (todo.length > 0 || slot.inFlight.length > 0) start();
              return;
            }
            const lines = slot.stderrTail.trim().split('\n').filter(Boolean);
            const reason = lines.find((l) => /Error/.test(l)) ?? lines.pop() ?? '';
            failure = new Error(`probe process failed to start (exit ${code ?? exitSignal}): ${reason.trim()}`);
            for (const c of this.live) this.stopChild(c);
            signal?.removeEventListener('abort', abort);
            reject(failure);
            return;
          }
          const head = slot.inFlight.shift();
          if (head) {
            const last = slot.stderrTail.trim().split('\n').filter(Boolean).pop();
            finishFile(
              head.fileIndex,
              unreadable(`the HDF5 reader process died on this file (${exitSignal ?? `exit code ${code}`})${last ? `: ${last.slice(0, 200)}` : ''}`),
            );
          }
          replace(slot);
        });
      };

      for (let i = 0; i < Math.min(this.jobs, files.length); i++) start();
    });
  }

  /** Stop every child. */
  close(): void {
    for (const child of [...this.live]) this.stopChild(child);
  }
}
