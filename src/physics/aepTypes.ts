/**
 * What every farm evaluator returns and is: AEP, by direction and by turbine, and its exact gradient
 * with respect to every turbine coordinate (physics/aep.ts builds them).
 */
import type { Turbine } from './turbine.js';
import type { WindResource } from './windResource.js';
import type { SolvePlan } from './solvePlanTypes.js';

export interface AepResult {
  aepMwh: number;
  /** Energy by wind direction (same order as the resource), MWh. */
  perDirectionMwh: Float64Array;
  /** Energy by turbine, MWh. */
  perTurbineMwh: Float64Array;
}

export interface AepWithGradient extends AepResult {
  /** ∂AEP/∂x_i and ∂AEP/∂y_i, MWh per metre. */
  gradX: Float64Array;
  gradY: Float64Array;
}

/** A farm model bound to a turbine and a resource: everything that does not depend on the layout. */
export interface FarmEvaluator {
  readonly turbine: Turbine;
  readonly wind: WindResource;
  /** Which solver and kernel evaluate it, and why (solvePlan.ts): computed once, when the evaluator is made. */
  readonly plan: SolvePlan;
  aep(x: Float64Array, y: Float64Array): AepResult;
  aepWithGradient(x: Float64Array, y: Float64Array): AepWithGradient;
  /** Where the engine has it: the evaluator of the same farm with the turbine at hub height h, sharing what does not depend on it (optimize/hubHeight.ts). */
  atHubHeight?(h: number): FarmEvaluator;
}
