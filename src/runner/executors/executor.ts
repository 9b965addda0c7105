/**
 * The executor seam: where a task runs. The scheduler (runner/scheduler.ts) decides what the
 * campaign means (which task next, attempts and backoff, max_failures, commits, exports, audit,
 * progress); an executor only runs the attempts it is given and reports how each ended. It knows
 * nothing of ledgers, attempt limits or exports.
 *
 * Executors: `localPool.ts` (forked worker processes on this machine) and `bullmq/` (jobs on a
 * Redis queue, run by `wflo worker` processes on any machine).
 *
 * Contract, checked by the contract test suite for every executor:
 * - Every submitted dispatch ends in exactly one `onOutcome` or is handed back by `onReturned`
 *   (taken back unrun, not charged) or by `stop()`; never both, never twice.
 * - An outcome for a dispatch the scheduler no longer expects (a duplicate delivery) is harmless:
 *   the scheduler ignores it, and the ledger commit is idempotent anyway.
 * - The executor enforces `setup.timeoutS` per attempt (end the process that runs it with its
 *   whole process group, so what the attempt started goes too: runner/processGroup.ts) and
 *   reports `timeout`; the scheduler decides whether to retry.
 * - `capacity()` says how many more dispatches the executor wants now; the scheduler calls
 *   `submit` at most that many times, and again after `onCapacity`.
 */
import type { Task } from '../../campaign/taskGrid.js';
import type { FarmSpec, FarmTypeSpec, OptimizerSettings } from '../../campaign/campaign.js';
import type { TaskOutput } from '../taskOutput.js';

/** What every attempt of a campaign needs besides the task itself. */
export interface ExecutorSetup {
  farms: FarmSpec[];
  farmTypes: FarmTypeSpec[];
  optimizer: OptimizerSettings;
  /** Per-attempt wall-clock limit, seconds. */
  timeoutS: number;
  /** Campaign name and hash (an executor shared between campaigns keeps them apart). */
  campaignName: string;
  campaignHash: string;
}

/** One attempt of one task. */
export interface Dispatch {
  task: Task;
  /** 1-based attempt number (continues across runs). */
  attempt: number;
}

/** Who ran an attempt (for status and the audit log). */
export interface WorkerRef {
  host: string;
  pid: number;
}

export type AttemptOutcome =
  | { kind: 'result'; output: TaskOutput; wallS: number; worker?: WorkerRef }
  /**
   * The optimizer threw or returned an invalid output. `permanent`: retrying cannot help.
   * `invalid`: a remote worker's answer was not a well-formed result at all (treated like a result
   * the gate refused: the worker is suspect).
   */
  | { kind: 'error'; message: string; wallS?: number; permanent?: boolean; invalid?: boolean; worker?: WorkerRef }
  /** The process running it died. */
  | { kind: 'crash'; message: string; worker?: WorkerRef }
  /** It ran over `timeoutS` and was killed. */
  | { kind: 'timeout'; message: string; worker?: WorkerRef };

/** An attempt that is running now, for the heartbeat and `wflo status`. */
export interface RunningAttempt {
  taskId: string;
  attempt: number;
  workerPid: number;
  host?: string;
  /** Unix seconds. */
  startedAt: number;
}

export interface ExecutorListener {
  onOutcome(d: Dispatch, outcome: AttemptOutcome): void;
  /** Dispatches taken back unrun (their worker died with them queued): resubmit, uncharged. */
  onReturned(ds: Dispatch[]): void;
  /** The executor can take more work (a worker became ready or free). */
  onCapacity(): void;
  /** Something the executor cannot recover from (workers die before they start, transport lost for good). */
  onFatal(err: Error): void;
  /** A line for the user (lost connection, reconnect): printed by the progress reporter. */
  onNotice?(message: string): void;
}

export interface Executor {
  /** 'local', 'bullmq', … (audit log, status). */
  readonly kind: string;
  /**
   * Whether results come from processes this coordinator did not start (queue workers on other
   * machines): the scheduler names their workers on rows and spot-checks them by recomputation.
   */
  readonly remote?: boolean;
  /** Start workers / connect. `expectedWork` is how many dispatches the run has (sizing only). */
  start(setup: ExecutorSetup, listener: ExecutorListener, expectedWork: number): Promise<void>;
  /** How many more dispatches it wants now (0: wait for onCapacity). */
  capacity(): number;
  submit(d: Dispatch): void;
  /**
   * These results are committed to the ledger: transport state kept for them (a queue's finished
   * job, kept so a coordinator killed before its commit finds the result again) may go now.
   */
  committed?(ds: readonly Dispatch[]): void;
  /** Dispatches submitted and not yet ended (outcome, returned). */
  inFlight(): number;
  /** Attempts running now. */
  running(): RunningAttempt[];
  /** Stop at once: cancel what runs; resolves with the dispatches that had not ended (uncharged). */
  stop(): Promise<Dispatch[]>;
  /** No more work is coming: let in-flight attempts end, then release resources. */
  close(): Promise<void>;
}
