/**
 * The scheduler's lifecycle (runner/scheduler.ts) as one value, with its transitions as pure
 * functions: which phase a run is in, why it stops, and whether the executor has started and
 * stopped. The scheduler holds one SchedulerPhase and does the side effects of each transition
 * (cancelling retry timers, stopping the executor, settling the run's promise).
 *
 *   starting ──executor started──▶ running ──nothing left──▶ finished
 *      │                              │                         ▲
 *      └────────stop(mode)───────▶ stopping ──drained──────────┘
 *
 * `stopping` carries why (a StopMode), whether the executor's start has settled (a stop can come
 * before it: a signal already raised, a fatal heartbeat) and whether `executor.stop()` has
 * settled. A stop can be asked for in any phase, `finished` included (finish() is asynchronous: a
 * signal or a fatal error can still arrive while it closes the executor and writes the last
 * export, and changes the outcome); precedence: fatal wins over everything and is never replaced,
 * interrupted beats max_failures, the same mode twice is ignored. A later stop keeps
 * `executorStopped` of the one before it.
 */

export type StopMode = 'max_failures' | 'interrupted' | 'fatal';

export interface StopRequest {
  readonly mode: StopMode;
  /** Whether `executor.stop()` has settled (it is called by every stop but max_failures). */
  readonly executorStopped: boolean;
  /** The error a fatal stop rejects the run with. */
  readonly error?: unknown;
}

export type SchedulerPhase =
  /** `executor.start()` has not settled: nothing is dispatched yet. */
  | { readonly kind: 'starting' }
  /** Tasks are handed out while the queue and the retry list have work. */
  | { readonly kind: 'running' }
  /** Nothing new is handed out; outstanding results are still committed. */
  | { readonly kind: 'stopping'; readonly stop: StopRequest; readonly executorStarted: boolean }
  /** finish() runs (once): the executor is closed, the last export written, the run's promise settled. */
  | { readonly kind: 'finished'; readonly stop: StopRequest | null };

export const STARTING: SchedulerPhase = { kind: 'starting' };

/** Why the run stops, or null while nothing asked it to. */
export function stopOf(p: SchedulerPhase): StopRequest | null {
  return p.kind === 'stopping' || p.kind === 'finished' ? p.stop : null;
}

export function stopModeOf(p: SchedulerPhase): StopMode | null {
  return stopOf(p)?.mode ?? null;
}

/** Whether `executor.start()` has settled (resolved or rejected). */
export function executorStartedIn(p: SchedulerPhase): boolean {
  return p.kind === 'running' || p.kind === 'finished' || (p.kind === 'stopping' && p.executorStarted);
}

export function executorStoppedIn(p: SchedulerPhase): boolean {
  return stopOf(p)?.executorStopped ?? false;
}

/** `executor.start()` settled: starting → running, or a stop that came first now knows it. */
export function afterExecutorStarted(p: SchedulerPhase): SchedulerPhase {
  if (p.kind === 'starting') return { kind: 'running' };
  if (p.kind === 'stopping') return { ...p, executorStarted: true };
  return p;
}

/** A stop asked for in `mode`: the next phase, or null when the current stop takes precedence. */
export function afterStop(p: SchedulerPhase, mode: StopMode, error?: unknown): SchedulerPhase | null {
  const prev = stopOf(p);
  if (prev?.mode === 'fatal' || prev?.mode === mode) return null;
  if (prev?.mode === 'interrupted' && mode === 'max_failures') return null;
  const stop: StopRequest = { mode, executorStopped: prev?.executorStopped ?? false, ...(mode === 'fatal' ? { error } : {}) };
  if (p.kind === 'finished') return { kind: 'finished', stop };
  return { kind: 'stopping', stop, executorStarted: executorStartedIn(p) };
}

/** `executor.stop()` settled (resolved or rejected). */
export function afterExecutorStopped(p: SchedulerPhase): SchedulerPhase {
  if (p.kind !== 'stopping' && p.kind !== 'finished') return p; // only a stop stops the executor
  if (p.stop === null) return p;
  const stop: StopRequest = { ...p.stop, executorStopped: true };
  return p.kind === 'finished' ? { kind: 'finished', stop } : { ...p, stop };
}

/** Whether a run in phase `p` may be finished at all (it drained: see Scheduler.checkFinished). */
export function mayFinish(p: SchedulerPhase): boolean {
  return p.kind === 'running' || (p.kind === 'stopping' && p.executorStarted);
}

/** running or stopping → finished (once), keeping why it stopped. */
export function afterFinish(p: SchedulerPhase): SchedulerPhase {
  return { kind: 'finished', stop: stopOf(p) };
}
