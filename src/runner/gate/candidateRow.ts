/**
 * The candidate row of an attempt's result, exactly as the executor reported it: the identity
 * comes from the dispatched task, everything else from the output. The gate decides whether it
 * may become a ledger row.
 */
import type { Task } from '../../campaign/taskGrid.js';
import type { AttemptOutcome } from '../executors/executor.js';
import type { ResultRow } from '../resultRow.js';

export type ResultOutcome = Extract<AttemptOutcome, { kind: 'result' }>;

export function candidateRow(task: Task, attempt: number, o: ResultOutcome): ResultRow {
  const out = o.output;
  return {
    taskId: task.taskId,
    specHash: task.specHash,
    farmId: task.farmId,
    farmType: task.farmType,
    seed: task.seed,
    nTurbines: out.x.length,
    aep: out.aep,
    aepInitial: out.aepInitial,
    x: out.x,
    y: out.y,
    xInitial: out.xInitial,
    yInitial: out.yInitial,
    iterations: out.iterations,
    evaluations: out.evaluations,
    wallS: o.wallS,
    attempts: attempt,
    ...(out.aepReported !== undefined ? { aepReported: out.aepReported } : {}),
    ...(out.metrics !== undefined ? { metrics: out.metrics } : {}),
    ...(out.typeOf !== undefined ? { turbineTypes: out.typeOf } : {}),
    ...(out.cableTo !== undefined && out.cableType !== undefined ? { cableTo: out.cableTo, cableType: out.cableType } : {}),
  };
}
