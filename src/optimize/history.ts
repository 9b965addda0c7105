/**
 * An optimization's history (`wflo optimize --history FILE`, Python `result.history`): one row per
 * step the optimizer took, recorded from its hooks (OptimizeHooks.onIteration and the global,
 * population and basin progress events), observing only — a run with a recorder gives the same
 * result as one without.
 *
 * - `descent` rows: every L-BFGS iteration of the gradient descents the method runs itself
 *   (gradient, basin, hybrid; under a cost objective the cost stage too): `objective` is the
 *   stage's own (AEP in MWh of the stage's wake model, widened by `wec` in the continuation stages;
 *   LCOE or NPV in the case's currency under a cost objective), `max_violation_m` the largest
 *   constraint value in metres as the optimizer sees it (it keeps a 1 mm margin; 0 when none is
 *   violated);
 * - `start`, `hop`, `generation` rows (global, population, basin): the best AEP so far (MWh) after
 *   each seeding start, hop or generation, of layouts made feasible (`max_violation_m` 0);
 *   `iteration` and `wec` are null there (those methods count their descents' iterations inside).
 *
 * `stage` of a start row numbers the starts, of a hop or generation row the hops (generations;
 * the population method's final polish is the generation after the last).
 * `evaluations` counts the objective evaluations of the optimization so far, as its result's
 * `evaluations` does; `stage` numbers the descent stages (or the hops) from 0 in the order run.
 * With a fine direction treatment the coarse run's rows come first, then the polish's.
 */
export type HistoryEvent = 'descent' | 'start' | 'hop' | 'generation';

export interface HistoryRow {
  event: HistoryEvent;
  /** L-BFGS iterations of the optimization so far (descent rows), else null. */
  iteration: number | null;
  stage: number;
  /** The stage's wake expansion factor (descent rows), else null. */
  wec: number | null;
  objective: number;
  max_violation_m: number;
  evaluations: number;
}

/** The columns, in the order a file holds them. */
export const HISTORY_COLUMNS = ['event', 'iteration', 'stage', 'wec', 'objective', 'max_violation_m', 'evaluations'] as const;

/** A descent iteration as optimizeLayout reports it (counts over the whole optimization). */
export interface IterationEvent {
  iteration: number;
  stage: number;
  wec: number;
  objective: number;
  maxViolationM: number;
  evaluations: number;
}

/**
 * The rows of one optimization from its hooks. `offset` carries the counts across the separate
 * optimizeLayout calls of one optimization (a direction continuation's coarse run and polish):
 * a call's counts start again from 0, the recorder's rows keep counting.
 */
export class HistoryRecorder {
  readonly rows: HistoryRow[] = [];
  private base = { iteration: 0, stage: 0, evaluations: 0 };
  private last = { iteration: 0, stage: -1, evaluations: 0 };
  private starts = 0;
  private generations = 0;

  /** `onRow`: called with each row as it is recorded (a client's progress frames). */
  constructor(private readonly onRow?: (row: HistoryRow) => void) {}

  private push(row: HistoryRow): void {
    this.rows.push(row);
    this.onRow?.(row);
  }

  private place(iteration: number | null, stage: number, evaluations: number): { iteration: number | null; stage: number; evaluations: number } {
    // A count below the last one seen: a new optimizeLayout call began; continue from the last.
    if (evaluations < this.last.evaluations - this.base.evaluations) {
      this.base = { iteration: this.last.iteration, stage: this.last.stage + 1, evaluations: this.last.evaluations };
    }
    const out = {
      iteration: iteration === null ? null : this.base.iteration + iteration,
      stage: this.base.stage + stage,
      evaluations: this.base.evaluations + evaluations,
    };
    this.last = { iteration: out.iteration ?? this.last.iteration, stage: out.stage, evaluations: out.evaluations };
    return out;
  }

  descent(e: IterationEvent): void {
    const at = this.place(e.iteration, e.stage, e.evaluations);
    this.push({
      event: 'descent',
      iteration: at.iteration,
      stage: at.stage,
      wec: e.wec,
      objective: e.objective,
      max_violation_m: e.maxViolationM,
      evaluations: at.evaluations,
    });
  }

  /** The hooks that feed this recorder (optimizeLayout.ts OptimizeHooks; combineHooks adds a progress bar's). */
  hooks(): {
    onIteration: (e: IterationEvent) => void;
    onProgress: (e: { hop: number; move: string; bestAep: number; evaluations: number }) => void;
    onPopulationProgress: (e: { hop: number; move: string; bestAep: number; evaluations: number }) => void;
  } {
    return {
      onIteration: (e) => this.descent(e),
      onProgress: (e) =>
        e.move === 'seed' ? this.progress('start', this.starts++, e.bestAep, e.evaluations) : this.progress('hop', e.hop, e.bestAep, e.evaluations),
      onPopulationProgress: (e) => {
        if (e.move === 'seed') return this.progress('start', this.starts++, e.bestAep, e.evaluations);
        // The final polish is numbered after the last generation.
        const stage = e.move === 'final' ? this.generations : e.hop;
        this.generations = Math.max(this.generations, stage + 1);
        return this.progress('generation', stage, e.bestAep, e.evaluations);
      },
    };
  }

  progress(event: Exclude<HistoryEvent, 'descent'>, stage: number, bestAepMwh: number, evaluations: number): void {
    const at = this.place(null, stage, evaluations);
    this.push({ event, iteration: null, stage: at.stage, wec: null, objective: bestAepMwh, max_violation_m: 0, evaluations: at.evaluations });
  }
}

/** The event names by code, as the engine session's history arrays hold them (`history_event`). */
export const HISTORY_EVENTS: HistoryEvent[] = ['descent', 'start', 'hop', 'generation'];

/** The rows as one float64 array per column (NaN where a value does not apply; events by code). */
export function historyArrays(rows: HistoryRow[]): Record<string, Float64Array> {
  const out: Record<string, Float64Array> = {};
  for (const k of HISTORY_COLUMNS) {
    out[`history_${k}`] = Float64Array.from(rows, (r) => (k === 'event' ? HISTORY_EVENTS.indexOf(r.event) : (r[k] ?? NaN)));
  }
  return out;
}
