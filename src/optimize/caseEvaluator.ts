/**
 * The AEP evaluator of a case: the one-type engines of physics/aep.ts for a farm of one turbine
 * model without neighbours (unchanged), else the mixed-farm engine (physics/mixedFarm.ts) over the
 * case's turbine models followed by its neighbours' models, bound to the case's (or a given)
 * assignment of models to turbines.
 */
import { createFarmEvaluator, type FarmEvaluator } from '../physics/aep.js';
import { createMixedFarmEvaluator, neighbourLoss, type MixedFarmEvaluator } from '../physics/mixedFarm.js';
import type { FarmModelSpec } from '../physics/farmModel.js';
import { solvePlan } from '../physics/solvePlan.js';
import type { SolveNeeds, SolvePlan } from '../physics/solvePlanTypes.js';
import type { Turbine } from '../physics/turbine.js';
import type { Case } from '../case/case.js';
import { spacingByTurbine, type SpacingRule } from '../geometry/pairSpacing.js';

/** True when the case needs the mixed-farm engine (several models or neighbours). */
export function isMixedCase(c: Pick<Case, 'turbines' | 'neighbours'>): boolean {
  return c.turbines !== undefined || (c.neighbours !== undefined && c.neighbours.x.length > 0);
}

/** The case's own models, then its neighbours' (what a mixed evaluator's type indices mean). */
export function caseTypes(c: Pick<Case, 'turbine' | 'turbines' | 'neighbours'>): { types: Turbine[]; ownTypes: number } {
  const own = c.turbines ? c.turbines.types : [c.turbine];
  return { types: [...own, ...(c.neighbours?.types ?? [])], ownTypes: own.length };
}

/** Every own turbine's model index: the case's assignment, or all 0 for a one-model farm. */
export function caseTypeOf(c: Pick<Case, 'turbines' | 'nTurbines'>): Int32Array {
  return c.turbines ? Int32Array.from(c.turbines.typeOf) : new Int32Array(c.nTurbines);
}

/** What an evaluator needs of a case: physics, models and neighbours. */
export type CasePhysics = Pick<Case, 'turbine' | 'wind' | 'model' | 'turbines' | 'neighbours'>;

/** The mixed-farm evaluator of a case (types: own models, then the neighbours'). */
export function caseMixedEvaluator(c: CasePhysics, model: FarmModelSpec = c.model, needs: SolveNeeds = {}): MixedFarmEvaluator {
  const { types, ownTypes } = caseTypes(c);
  const nb =
    c.neighbours && c.neighbours.x.length > 0
      ? { x: c.neighbours.x, y: c.neighbours.y, typeOf: Int32Array.from(c.neighbours.typeOf, (t) => t + ownTypes) }
      : null;
  return createMixedFarmEvaluator(types, c.wind, model, nb, needs);
}

/** The solve plan of a case (physics/solvePlan.ts): solver, kernel and why; a refused combination is an InputError. */
export function casePlan(c: CasePhysics, model: FarmModelSpec = c.model, needs: SolveNeeds = {}): SolvePlan {
  return solvePlan({ types: c.turbines ? c.turbines.types : [c.turbine], neighbours: !!c.neighbours && c.neighbours.x.length > 0, wind: c.wind }, model, needs);
}

/**
 * The case's evaluator with its model (or `model`) and its assignment (or `typeOf`), carrying its
 * solve plan (evaluator.plan: solver, kernel and why, for what the caller `needs`); a farm of
 * several models or with neighbours runs the mixed-farm form of the waked solve.
 */
export function caseEvaluator(c: CasePhysics, model: FarmModelSpec = c.model, typeOf?: Int32Array, needs: SolveNeeds = {}): FarmEvaluator {
  if (!isMixedCase(c)) return createFarmEvaluator(c.turbine, c.wind, model, undefined, 'best', needs);
  return caseMixedEvaluator(c, model, needs).bind(typeOf ?? (c.turbines ? c.turbines.typeOf : null));
}

/** Energy the case's neighbours lose to the farm at (x, y), MWh (null without neighbours). */
export function caseNeighbourLoss(
  c: CasePhysics & Pick<Case, 'nTurbines'>,
  x: Float64Array,
  y: Float64Array,
  typeOf?: Int32Array,
): { totalMwh: number; aloneMwh: number; byNeighbourMwh: Float64Array } | null {
  if (!c.neighbours || c.neighbours.x.length === 0) return null;
  const ev = caseMixedEvaluator(c);
  const loss = neighbourLoss(ev, x, y, typeOf ?? caseTypeOf(c));
  const aloneMwh = ev.neighboursAlone().reduce((s, v) => s + v, 0);
  return { ...loss, aloneMwh };
}

/** The spacing rule of a case: its one spacing, or each turbine's model's (for `typeOf`, default the case's). */
export function caseSpacing(c: Pick<Case, 'turbines' | 'minSpacing'>, typeOf?: Int32Array): SpacingRule {
  if (!c.turbines) return c.minSpacing;
  return spacingByTurbine(c.turbines.minSpacingByType, typeOf ?? c.turbines.typeOf);
}
