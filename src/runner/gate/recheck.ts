/**
 * Spot checks of queue workers by recomputation. A result that passes the gate is feasible and
 * carries the AEP of its layout, but a dishonest or broken worker could still return a feasible
 * layout that is not the one the task's seed gives. wflo's results are deterministic per task
 * spec and seed, so the coordinator can prove a worker honest by computing the same task itself
 * (a local process pool of one worker) and requiring the bit-identical layout and AEP (and the
 * same turbine models and collection network, where the row has them):
 *
 *   - the first result of every worker (as it names itself) is rechecked, and the worker's
 *     results are held, not committed, until that recheck agrees ("probation");
 *   - after that, a random share `fraction` of its results is rechecked (held until it agrees);
 *   - a mismatch, or a result the gate rejects, quarantines the worker: the recomputed result is
 *     committed instead, every other result it committed in this run is retracted from the ledger,
 *     and everything it returns from then on is recomputed here. Quarantined workers are named in
 *     the audit log, on the terminal and in the ledger (meta `quarantined_workers`, which
 *     `wflo status` prints).
 *
 * A worker that changes its name for every result buys nothing: each new name starts on
 * probation, so each of its results is recomputed before it counts.
 */
import type { Task } from '../../campaign/taskGrid.js';
import type { AuditLog } from '../auditLog.js';
import type { Ledger } from '../ledger.js';
import type { AttemptOutcome, Dispatch, Executor, ExecutorSetup } from '../executors/executor.js';
import { candidateRow } from './candidateRow.js';
import type { RowGate, VerifiedRow } from './rowGate.js';

export const QUARANTINE_META = 'quarantined_workers';

type WorkerState = { kind: 'probation'; held: Held[] } | { kind: 'trusted' } | { kind: 'quarantined' };

interface Held {
  d: Dispatch;
  row: VerifiedRow;
  wallS: number;
}

export interface RecheckHooks {
  /** Commit a verified row (the scheduler's group commit). */
  commit(d: Dispatch, row: VerifiedRow, wallS: number): void;
  /** A local recomputation failed: the attempt fails as any other would. */
  fail(d: Dispatch, message: string): void;
  /** Rows taken back out of the ledger (the scheduler's done count goes down). */
  retracted(taskIds: string[]): void;
  fatal(err: unknown): void;
  log(line: string): void;
  /** Something changed that may let the run finish. */
  changed(): void;
}

export class Rechecker {
  private readonly workers = new Map<string, WorkerState>();
  /** Recomputations queued for the local executor, and those it holds, by task id. */
  private readonly queue: Dispatch[] = [];
  private readonly inFlight = new Map<string, { d: Dispatch; held: Held | null; worker: string | null }>();
  private readonly waiting = new Map<string, { held: Held | null; worker: string | null }>();
  /** Tasks each worker got committed in this run (retracted if it is quarantined later). */
  private readonly committedBy = new Map<string, Task[]>();
  private started = false;
  private stopped = false;
  private checked = 0;
  private mismatches = 0;

  constructor(
    private readonly fraction: number,
    private readonly executor: Executor,
    private readonly gate: RowGate,
    private readonly ledger: Ledger,
    private readonly audit: AuditLog,
    private readonly runId: number,
    private readonly hooks: RecheckHooks,
  ) {}

  async start(setup: ExecutorSetup): Promise<void> {
    await this.executor.start(
      setup,
      {
        onOutcome: (d, o) => this.onLocalOutcome(d, o),
        onReturned: (ds) => {
          for (const d of ds) this.queue.unshift(this.requeue(d));
          this.pump();
        },
        onCapacity: () => this.pump(),
        onFatal: (err) => this.hooks.fatal(err),
      },
      1,
    );
    this.started = true;
    this.pump();
  }

  /** Work outstanding: held results and recomputations (the run waits for them). */
  busy(): number {
    let held = 0;
    for (const s of this.workers.values()) if (s.kind === 'probation') held += s.held.length;
    return held + this.queue.length + this.inFlight.size;
  }

  summary(): { checked: number; mismatches: number; quarantined: string[] } {
    return { checked: this.checked, mismatches: this.mismatches, quarantined: [...this.workers].filter(([, s]) => s.kind === 'quarantined').map(([w]) => w) };
  }

  /**
   * A remote worker's result that passed the gate. Returns true when it may be committed now;
   * false when the rechecker holds it (probation, a sampled recheck) or replaces it (quarantine).
   */
  admit(d: Dispatch, row: VerifiedRow, wallS: number, worker: string): boolean {
    let state = this.workers.get(worker);
    if (!state) {
      state = { kind: 'probation', held: [] };
      this.workers.set(worker, state);
      this.recompute(d, { d, row, wallS }, worker);
      return false;
    }
    if (state.kind === 'quarantined') {
      this.recompute(d, null, worker);
      return false;
    }
    if (state.kind === 'probation') {
      state.held.push({ d, row, wallS });
      return false;
    }
    if (Math.random() < this.fraction) {
      this.recompute(d, { d, row, wallS }, worker);
      return false;
    }
    this.noteCommitted(worker, d.task);
    return true;
  }

  private noteCommitted(worker: string, task: Task): void {
    let list = this.committedBy.get(worker);
    if (!list) this.committedBy.set(worker, (list = []));
    list.push(task);
  }

  /** A remote worker's result the gate rejected: the worker is quarantined, the task computed here. */
  rejected(d: Dispatch, worker: string, reason: string): void {
    this.quarantine(worker, `a result failed verification (${d.task.taskId}: ${reason})`);
    this.recompute(d, null, worker);
  }

  isQuarantined(worker: string): boolean {
    return this.workers.get(worker)?.kind === 'quarantined';
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.queue.length = 0;
    for (const s of this.workers.values()) if (s.kind === 'probation') s.held.length = 0;
    if (this.started) await this.executor.stop();
    this.inFlight.clear();
  }

  async close(): Promise<void> {
    if (this.started && !this.stopped) await this.executor.close();
  }

  // ---- internals ----

  private recompute(d: Dispatch, held: Held | null, worker: string | null): void {
    if (this.stopped) return;
    this.waiting.set(d.task.taskId, { held, worker });
    this.queue.push(this.requeue(d));
    this.pump();
  }

  /** The local attempt of a task: numbered on from the remote one (the audit log tells them apart). */
  private requeue(d: Dispatch): Dispatch {
    return { task: d.task, attempt: d.attempt };
  }

  private pump(): void {
    if (!this.started || this.stopped) return;
    for (let room = this.executor.capacity(); room > 0 && this.queue.length > 0; room--) {
      const d = this.queue.shift()!;
      const w = this.waiting.get(d.task.taskId);
      this.waiting.delete(d.task.taskId);
      this.inFlight.set(d.task.taskId, { d, held: w?.held ?? null, worker: w?.worker ?? null });
      this.executor.submit(d);
    }
  }

  private onLocalOutcome(d: Dispatch, outcome: AttemptOutcome): void {
    const entry = this.inFlight.get(d.task.taskId);
    if (!entry || entry.d !== d) return;
    this.inFlight.delete(d.task.taskId);
    if (outcome.kind !== 'result') {
      if (entry.held) {
        // We could not recompute it here; the worker's row passed the gate, so it stands.
        this.hooks.log(`wflo: warning: could not recheck ${d.task.taskId} locally (${outcome.message}); keeping the worker's verified result`);
        this.clear(entry.worker, entry.held);
      } else {
        this.hooks.fail(d, `recomputed here after a rejected remote result, and that failed: ${outcome.message}`);
      }
      this.pump();
      this.hooks.changed();
      return;
    }
    const verdict = this.gate.checkNow(d.task, candidateRow(d.task, d.attempt, outcome), { kind: 'computed' });
    if (!verdict.ok) {
      this.hooks.fail(d, `local recomputation failed verification: ${verdict.reason}`);
    } else if (entry.held) {
      this.checked++;
      const differs = resultDifference(entry.held.row, verdict.row);
      if (differs === null) {
        this.audit.write({ event: 'recheck', task: d.task.taskId, worker: entry.worker, outcome: 'agreed' });
        this.clear(entry.worker, entry.held);
      } else {
        this.mismatches++;
        this.audit.write({
          event: 'recheck',
          task: d.task.taskId,
          worker: entry.worker,
          outcome: 'mismatch',
          worker_aep: entry.held.row.aep,
          local_aep: verdict.row.aep,
        });
        this.hooks.log(`wflo: rejected ${d.task.taskId} from queue worker ${entry.worker}: its ${differs} not the one the task's seed gives (recomputed here)`);
        this.quarantine(entry.worker!, `a result differed from the recomputation (${d.task.taskId})`);
        this.hooks.commit(d, verdict.row, outcome.wallS);
      }
    } else {
      this.hooks.commit(d, verdict.row, outcome.wallS);
    }
    this.pump();
    this.hooks.changed();
  }

  /** A recheck agreed (or could not run): the held row counts; a worker on probation is trusted. */
  private clear(worker: string | null, held: Held): void {
    this.hooks.commit(held.d, held.row, held.wallS);
    if (worker) this.noteCommitted(worker, held.d.task);
    const state = worker ? this.workers.get(worker) : undefined;
    if (worker && state?.kind === 'probation') {
      this.workers.set(worker, { kind: 'trusted' });
      for (const h of state.held) {
        if (Math.random() < this.fraction) this.recompute(h.d, h, worker);
        else {
          this.hooks.commit(h.d, h.row, h.wallS);
          this.noteCommitted(worker, h.d.task);
        }
      }
    }
  }

  private quarantine(worker: string, why: string): void {
    const state = this.workers.get(worker);
    if (state?.kind === 'quarantined') return;
    this.workers.set(worker, { kind: 'quarantined' });
    this.hooks.log(`wflo: quarantined queue worker ${worker}: ${why}; its results are recomputed here`);
    this.audit.write({ event: 'quarantined', worker, reason: why });
    try {
      const list = JSON.parse(this.ledger.getMeta(QUARANTINE_META) ?? '[]') as unknown[];
      list.push({ worker, reason: why, at: new Date().toISOString(), run_id: this.runId });
      this.ledger.setMeta(QUARANTINE_META, JSON.stringify(list.slice(-100)));
    } catch (err) {
      this.hooks.fatal(err);
      return;
    }
    // What it had waiting, and what it got into the ledger in this run, is computed here instead.
    if (state?.kind === 'probation') for (const h of state.held) this.recompute(h.d, null, worker);
    // Rows the scheduler has queued but not yet committed are written before this retraction
    // (group commits run in order), so the ledger's view is complete; retract by the ledger.
    const tasks = new Map((this.committedBy.get(worker) ?? []).map((t) => [t.taskId, t]));
    this.committedBy.delete(worker);
    let retracted: string[];
    try {
      retracted = this.ledger.retractResults(this.ledger.resultsOfWorker(worker, this.runId));
    } catch (err) {
      this.hooks.fatal(err);
      return;
    }
    if (retracted.length > 0) {
      this.hooks.log(`wflo: retracted ${retracted.length} result${retracted.length === 1 ? '' : 's'} of ${worker} from the ledger; recomputing them here`);
      for (const id of retracted) this.audit.write({ event: 'retracted', task: id, worker });
      this.hooks.retracted(retracted);
      for (const id of retracted) {
        const task = tasks.get(id);
        if (task) this.recompute({ task, attempt: 1 }, null, worker);
      }
    }
  }
}

/** What of a worker's row differs from the recomputation ("layout is", "turbine models are", "collection network is"), or null when nothing does. */
function resultDifference(a: VerifiedRow, b: VerifiedRow): string | null {
  if (!Object.is(a.aep, b.aep) || a.x.length !== b.x.length) return 'layout is';
  for (let i = 0; i < a.x.length; i++) if (!Object.is(a.x[i], b.x[i]) || !Object.is(a.y[i], b.y[i])) return 'layout is';
  // The models and the collection network are results too (a worker could send a valid network the
  // gate accepts that the task's seed does not give): they must agree as well.
  if (!sameInts(a.turbineTypes, b.turbineTypes)) return 'turbine models are';
  if (!sameInts(a.cableTo, b.cableTo) || !sameInts(a.cableType, b.cableType)) return 'collection network is';
  return null;
}

function sameInts(a: Int32Array | undefined, b: Int32Array | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
