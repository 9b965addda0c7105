/**
 * One optimization as a plain, serializable record: what the CLI prints, what a worker process
 * sends back, what a result file stores. Wraps optimizeLayout with the wall time and the
 * per-direction AEP of the result.
 */
import type { Case } from './case.js';
import type { OptimizeHooks, OptimizerSettings } from './optimizeLayout.js';
import { optimizeCase } from './optimizeCase.js';
import { caseEvaluator } from './caseEvaluator.js';

export interface OptimizationRecord {
  seed: number;
  aep_mwh: number;
  aep_initial_mwh: number;
  per_direction_mwh: number[];
  x: number[];
  y: number[];
  x_initial: number[];
  y_initial: number[];
  feasible: boolean;
  max_violation_m: number;
  iterations: number;
  evaluations: number;
  wall_s: number;
  /** Each turbine's model (index into the case's turbine models), for a farm of several. */
  turbine_types?: number[];
}

export function runOptimization(c: Case, settings: OptimizerSettings, seed: number, hooks: OptimizeHooks = {}): OptimizationRecord {
  const t0 = process.hrtime.bigint();
  const r = optimizeCase(c, settings, seed, hooks);
  const wallS = Number(process.hrtime.bigint() - t0) / 1e9;
  const perDirection = caseEvaluator(c, c.model, r.typeOf).aep(r.x, r.y).perDirectionMwh;
  return {
    seed, aep_mwh: r.aep, aep_initial_mwh: r.aepInitial, per_direction_mwh: Array.from(perDirection),
    x: Array.from(r.x), y: Array.from(r.y), x_initial: Array.from(r.xInitial), y_initial: Array.from(r.yInitial),
    feasible: r.feasible, max_violation_m: r.maxViolationM, iterations: r.iterations, evaluations: r.evaluations, wall_s: wallS,
    ...(r.typeOf ? { turbine_types: Array.from(r.typeOf) } : {}),
  };
}
