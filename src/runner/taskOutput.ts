import type { OptimizeResult } from '../optimize/optimizeLayout.js';

/**
 * What one optimization task returns (optimize/'s OptimizeResult), and the check
 * the worker applies before sending it: right length, finite coordinates, feasible.
 * A command task (a user's program) also returns the AEP the program reported (`aepReported`;
 * its `aep` is that AEP or NaN until the gate recomputes it) and named scalar `metrics`.
 */
export type TaskOutput = OptimizeResult & {
  /** An AEP the task's producer reported that is not wflo's (a user's program); the gate keeps it beside wflo's. */
  aepReported?: number;
  /** Named scalars a user's program wants kept (finite numbers; columns of layouts.h5). */
  metrics?: Record<string, number>;
};

/** The first problem with an output for `nTurbines` turbines, or null. */
export function taskOutputProblem(o: TaskOutput, nTurbines: number): string | null {
  if (!(o.x instanceof Float64Array) || !(o.y instanceof Float64Array)) return 'layout is not a pair of Float64Arrays';
  if (o.x.length !== nTurbines || o.y.length !== nTurbines) return `layout has ${o.x.length}/${o.y.length} coordinates, expected ${nTurbines}`;
  for (let i = 0; i < nTurbines; i++) {
    if (!Number.isFinite(o.x[i]) || !Number.isFinite(o.y[i])) return `turbine ${i} has a non-finite position`;
  }
  if (!o.feasible) return `optimizer returned an infeasible layout (worst violation ${o.maxViolationM} m)`;
  if (!Number.isInteger(o.iterations) || !Number.isInteger(o.evaluations)) return 'iterations/evaluations are not integers';
  return null;
}
