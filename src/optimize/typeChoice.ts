/**
 * Choosing each turbine's model (a farm type with `turbine_choice`): the model of every turbine is a
 * discrete design variable beside its continuous position. The search alternates the two, and is
 * deterministic per seed:
 *
 *  1. Start: turbine i gets model i mod K (K models listed), so both directions of change are open.
 *  2. Layout stage: positions optimized for the current models with the campaign's method and seed
 *     (optimizeLayout); later rounds continue from the current layout with the gradient method (the
 *     campaign's own method when it is a gradient-free one: random, hybrid, none).
 *  3. Assignment stage: sweeps over the turbines, least productive first; for each, every other
 *     model is tried at the current positions (one AEP evaluation each) and the best is kept when it
 *     raises the farm's AEP and the layout keeps every pair's spacing with it (the larger of the two
 *     turbines' spacings, geometry/pairSpacing.ts). Sweeps repeat until one changes nothing (at most
 *     ASSIGNMENT_SWEEPS).
 *  4. Rounds 2–3 repeat until the assignment no longer changes (at most TYPE_ROUNDS rounds); the best
 *     feasible (layout, models) seen is returned.
 *
 * The objective is the farm's AEP: with nothing else in it, a model with more rated power usually
 * wins wherever its spacing fits, so the choice matters where the site, the spacing or the wakes
 * make a smaller or lower turbine produce more. Fix the counts (`turbines: [{turbine, n}]`) to
 * compare given mixes instead.
 */
import type { Case } from './case.js';
import { checkFeasibility } from '../geometry/feasibility.js';
import { prepareBoundary } from '../geometry/preparedBoundary.js';
import { caseMixedEvaluator, caseSpacing } from './caseEvaluator.js';
import { optimizeLayout, type OptimizeHooks, type OptimizeResult, type OptimizerSettings } from './optimizeLayout.js';

/** Rounds of (layout stage, assignment stage), at most. */
export const TYPE_ROUNDS = 3;
/** Sweeps over the turbines per assignment stage, at most. */
export const ASSIGNMENT_SWEEPS = 3;
const FEASIBILITY_TOLERANCE_M = 1e-6;

/** The starting assignment of n turbines over k models: i mod k. */
export function startingAssignment(n: number, k: number): Int32Array {
  return Int32Array.from({ length: n }, (_, i) => i % k);
}

/** A case with its models fixed to `typeOf` (and optionally a given layout to start from). */
function withTypes(c: Case, typeOf: Int32Array, layout?: { x: Float64Array; y: Float64Array }): Case {
  return { ...c, turbines: { ...c.turbines!, typeOf: Int32Array.from(typeOf), choice: false }, ...(layout ? { layout } : {}) };
}

/** One assignment stage at fixed positions: returns the improved models, the AEP and the evaluations spent. */
export function improveAssignment(c: Case, x: Float64Array, y: Float64Array, typeOf0: Int32Array): { typeOf: Int32Array; aep: number; evaluations: number; changed: number } {
  const models = c.turbines!.types.length;
  const site = c.boundary ? prepareBoundary(c.boundary) : null;
  const typeOf = Int32Array.from(typeOf0);
  // One evaluator for the stage (its setup is the same for every assignment tried).
  const evaluator = caseMixedEvaluator(c);
  const aepOf = (t: Int32Array) => evaluator.aep(x, y, t);
  let current = aepOf(typeOf);
  let aep = current.aepMwh;
  let evaluations = 1, changed = 0;
  for (let sweep = 0; sweep < ASSIGNMENT_SWEEPS; sweep++) {
    const order = Array.from({ length: x.length }, (_, i) => i).sort((a, b) => current.perTurbineMwh[a] - current.perTurbineMwh[b] || a - b);
    let changedThisSweep = 0;
    for (const i of order) {
      const was = typeOf[i];
      let best = was, bestAep = aep;
      for (let m = 0; m < models; m++) {
        if (m === was) continue;
        typeOf[i] = m;
        if (!checkFeasibility(site, x, y, caseSpacing(c, typeOf), FEASIBILITY_TOLERANCE_M).feasible) continue;
        const trial = aepOf(typeOf).aepMwh;
        evaluations++;
        if (trial > bestAep) { bestAep = trial; best = m; }
      }
      typeOf[i] = best;
      if (best !== was) { aep = bestAep; changedThisSweep++; }
    }
    changed += changedThisSweep;
    if (changedThisSweep === 0) break;
    current = aepOf(typeOf);
    evaluations++;
  }
  return { typeOf, aep, evaluations, changed };
}

export function optimizeWithTypeChoice(c: Case, settings: OptimizerSettings, seed: number, hooks: OptimizeHooks = {}): OptimizeResult {
  if (!c.turbines) throw new Error('optimizeWithTypeChoice needs a case with turbine models');
  let typeOf = startingAssignment(c.nTurbines, c.turbines.types.length);
  const first = optimizeLayout(withTypes(c, typeOf), settings, seed, hooks);
  let best: OptimizeResult = { ...first, typeOf: Int32Array.from(typeOf) };
  let iterations = first.iterations, evaluations = first.evaluations;
  let x = first.x, y = first.y;
  const gradientFree = ['random', 'hybrid', 'none'].includes(String(settings.method));
  const later: OptimizerSettings = gradientFree ? { ...settings, initial: 'given' } : { ...settings, method: 'gradient', initial: 'given' };
  for (let round = 0; round < TYPE_ROUNDS; round++) {
    const step = improveAssignment(c, x, y, typeOf);
    evaluations += step.evaluations;
    if (step.aep > best.aep) best = { ...best, x: Float64Array.from(x), y: Float64Array.from(y), aep: step.aep, typeOf: Int32Array.from(step.typeOf) };
    if (step.changed === 0) break;
    typeOf = step.typeOf;
    const r = optimizeLayout(withTypes(c, typeOf, { x, y }), later, seed, hooks);
    iterations += r.iterations; evaluations += r.evaluations;
    x = r.x; y = r.y;
    if (r.feasible && r.aep > best.aep) best = { ...r, typeOf: Int32Array.from(typeOf) };
  }
  const report = checkFeasibility(c.boundary ? prepareBoundary(c.boundary) : null, best.x, best.y, caseSpacing(c, best.typeOf), FEASIBILITY_TOLERANCE_M);
  return {
    ...best,
    xInitial: first.xInitial, yInitial: first.yInitial, aepInitial: first.aepInitial,
    iterations, evaluations, feasible: report.feasible, maxViolationM: report.maxViolationM,
  };
}
