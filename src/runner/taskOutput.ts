/**
 * What one optimization task returns (optimize/'s OptimizeResult), and the checks applied to
 * it: right length, finite coordinates, feasible (by the worker, where a failure is permanent and
 * an infeasible layout names its worst turbine; again by a coordinator for a queue worker's).
 * A command task (a user's program) also returns the AEP the program reported (`aepReported`;
 * its `aep` is that AEP or NaN until the gate recomputes it) and named scalar `metrics`.
 */
import type { OptimizeResult } from '../optimize/optimizeLayout.js';
import type { Case } from '../case/case.js';
import { caseSpacing } from '../optimize/caseEvaluator.js';
import { checkFeasibility, worstWithPositions } from '../geometry/feasibility.js';
import { PermanentTaskError } from '../util/errors.js';

export type TaskOutput = OptimizeResult & {
  /** An AEP the task's producer reported that is not wflo's (a user's program); the gate keeps it beside wflo's. */
  aepReported?: number;
  /** Named scalars a user's program wants kept (finite numbers; columns of layouts.h5). */
  metrics?: Record<string, number>;
  /**
   * The collection network wflo's optimizer designed with the layout (a farm with economics; as
   * layouts.h5's cable_to and cable_type): a claim, never trusted: the gate's router starts from it
   * and the row keeps what the router returns, which must be this network (optimize/economicMetrics.ts).
   */
  cableTo?: Int32Array;
  cableType?: Int32Array;
};

/** The first problem with an output for `nTurbines` turbines other than its feasibility, or null. */
function shapeProblem(o: TaskOutput, nTurbines: number): string | null {
  if (!(o.x instanceof Float64Array) || !(o.y instanceof Float64Array)) return 'layout is not a pair of Float64Arrays';
  if (o.x.length !== nTurbines || o.y.length !== nTurbines) return `layout has ${o.x.length}/${o.y.length} coordinates, expected ${nTurbines}`;
  for (let i = 0; i < nTurbines; i++) {
    if (!Number.isFinite(o.x[i]) || !Number.isFinite(o.y[i])) return `turbine ${i} has a non-finite position`;
  }
  if (o.typeOf !== undefined && (!(o.typeOf instanceof Int32Array) || o.typeOf.length !== nTurbines))
    return `turbine models: ${o.typeOf?.length} for ${nTurbines} turbines`;
  if ((o.cableTo === undefined) !== (o.cableType === undefined)) return 'cable network: cable_to and cable_type, one without the other';
  for (const a of [o.cableTo, o.cableType])
    if (a !== undefined && (!(a instanceof Int32Array) || a.length !== nTurbines)) return `cable network: ${a?.length} edges for ${nTurbines} turbines`;
  if (!Number.isInteger(o.iterations) || !Number.isInteger(o.evaluations)) return 'iterations/evaluations are not integers';
  return null;
}

/** The first problem with an output for `nTurbines` turbines, or null (what a coordinator checks of a queue worker's result). */
export function taskOutputProblem(o: TaskOutput, nTurbines: number): string | null {
  return shapeProblem(o, nTurbines) ?? (o.feasible ? null : `optimizer returned an infeasible layout (worst violation ${o.maxViolationM} m)`);
}

/**
 * Where an attempt ends (a worker process): an output that cannot be the task's result fails the
 * attempt permanently, since the same task spec and seed give the same output again. An infeasible
 * layout names its worst turbine (index, position, and the boundary, exclusion zone or spacing
 * pair it violates); `where` ends the message (a command task's log folder).
 */
export function checkTaskOutput(o: TaskOutput, c: Case, where = ''): void {
  const shape = shapeProblem(o, c.nTurbines);
  if (shape) throw new PermanentTaskError(`${shape}${where}`);
  if (o.feasible) return;
  const report = checkFeasibility(c.boundary, o.x, o.y, caseSpacing(c, o.typeOf), 1e-6);
  const worst = worstWithPositions(report, o.x, o.y) ?? `worst violation ${o.maxViolationM} m`;
  throw new PermanentTaskError(`infeasible layout: ${worst}${where}`);
}
