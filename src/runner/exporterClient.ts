/**
 * The coordinator's handle on its exporter process (exporterProcess.ts): started on first use,
 * one export at a time, replaced after any failure, killed at the end of the run.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { ExportReport } from './exporter.js';
import { childEnvironment } from './parentLeaves.js';

export const EXPORTER_ENTRY = fileURLToPath(new URL('./exporterProcess.js', import.meta.url));

/** `damagedLedger`: the export failed because the ledger is damaged, and how (the way out is `wflo ledger rebuild`). */
export type ExportOutcome = { ok: true; report: ExportReport } | { ok: false; message: string; damagedLedger?: string };

export class ExporterClient {
  private child: ChildProcess | null = null;
  private pending: ((o: ExportOutcome) => void) | null = null;
  /** The process the pending export was sent to: only its answer or death settles it. */
  private pendingChild: ChildProcess | null = null;

  private start(): ChildProcess {
    const child = fork(EXPORTER_ENTRY, [], { stdio: ['ignore', 'ignore', 'pipe', 'ipc'], execArgv: [], env: childEnvironment() });
    let stderrTail = '';
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (s: string) => {
      stderrTail = (stderrTail + s).slice(-1000);
    });
    child.on('message', (m: ExportOutcome) => this.settle(child, m));
    child.on('error', () => {
      /* reported through 'exit' */
    });
    child.on('exit', (code, signal) => {
      if (this.child === child) this.child = null;
      // A process we killed after its own failure (close()) dies later; its death is not news
      // for the export now pending on its replacement.
      const last = stderrTail.trim().split('\n').pop();
      this.settle(child, { ok: false, message: `exporter process died (${signal ?? `exit code ${code}`})${last ? `: ${last}` : ''}` });
    });
    this.child = child;
    return child;
  }

  private settle(from: ChildProcess, o: ExportOutcome): void {
    if (from !== this.pendingChild) return;
    const resolve = this.pending;
    this.pending = null;
    this.pendingChild = null;
    resolve?.(o);
  }

  /** Export output folder `dir`; never rejects. */
  export(dir: string): Promise<ExportOutcome> {
    if (this.pending) return Promise.resolve({ ok: false, message: 'an export is already running' });
    const child = this.child ?? this.start();
    this.pendingChild = child;
    return new Promise((resolve) => {
      this.pending = (o) => {
        if (!o.ok) this.close(); // a fresh process (and h5wasm instance) for the next export
        resolve(o);
      };
      child.send({ dir });
    });
  }

  close(): void {
    const child = this.child;
    this.child = null;
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}
