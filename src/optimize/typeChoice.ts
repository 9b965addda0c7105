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
 * The objective is the case's: the farm's AEP by default — with nothing else in it, a model with
 * more rated power usually wins wherever its spacing fits, so the choice matters where the site, the
 * spacing or the wakes make a smaller or lower turbine produce more. Under a cost objective
 * (`objective: lcoe | npv`, economicObjective.ts) the assignment stage compares LCOE (lower) or NPV
 * (higher) at the current positions, with the cable network routed once per stage there, and the
 * best (layout, models) is the best by that objective; the result says why (TypeChoiceReport: per
 * model its turbines, their AEP, and the objective if every turbine were that model).
 * Fix the counts (`turbines: [{turbine, n}]`) to compare given mixes instead.
 */
import type { Case } from '../case/case.js';
import { objectiveText } from '../cost/currency.js';
import { checkFeasibility } from '../geometry/feasibility.js';
import { prepareBoundary } from '../geometry/preparedBoundary.js';
import { caseMixedEvaluator, caseSpacing } from './caseEvaluator.js';
import { optimizeLayout, type OptimizeHooks, type OptimizeResult, type OptimizerSettings, type TypeChoiceReport } from './optimizeLayout.js';
import { assignmentObjective, caseObjective, economicFigures, isEconomic, parentOfCableTo } from './economicObjective.js';

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

/**
 * One assignment stage at fixed positions: returns the improved models, their AEP, their score (the
 * objective, higher is better: AEP, −LCOE or NPV) and the evaluations spent.
 */
export function improveAssignment(
  c: Case,
  x: Float64Array,
  y: Float64Array,
  typeOf0: Int32Array,
): { typeOf: Int32Array; aep: number; score: number; evaluations: number; changed: number } {
  const models = c.turbines!.types.length;
  const site = c.boundary ? prepareBoundary(c.boundary) : null;
  const typeOf = Int32Array.from(typeOf0);
  // One evaluator for the stage (its setup is the same for every assignment tried).
  const evaluator = caseMixedEvaluator(c);
  const aepOf = (t: Int32Array) => evaluator.aep(x, y, t);
  const economic = isEconomic(c) ? assignmentObjective(c, x, y) : null;
  const scoreOf = (t: Int32Array, r: { aepMwh: number; perTurbineMwh: Float64Array }) => (economic ? -economic(t, r.perTurbineMwh).j : r.aepMwh);
  let current = aepOf(typeOf);
  let aep = current.aepMwh;
  let score = scoreOf(typeOf, current);
  let evaluations = 1,
    changed = 0;
  for (let sweep = 0; sweep < ASSIGNMENT_SWEEPS; sweep++) {
    const order = Array.from({ length: x.length }, (_, i) => i).sort((a, b) => current.perTurbineMwh[a] - current.perTurbineMwh[b] || a - b);
    let changedThisSweep = 0;
    for (const i of order) {
      const was = typeOf[i];
      let best = was,
        bestAep = aep,
        bestScore = score;
      for (let m = 0; m < models; m++) {
        if (m === was) continue;
        typeOf[i] = m;
        if (!checkFeasibility(site, x, y, caseSpacing(c, typeOf), FEASIBILITY_TOLERANCE_M).feasible) continue;
        const trial = aepOf(typeOf);
        const trialScore = scoreOf(typeOf, trial);
        evaluations++;
        if (trialScore > bestScore) {
          bestScore = trialScore;
          bestAep = trial.aepMwh;
          best = m;
        }
      }
      typeOf[i] = best;
      if (best !== was) {
        aep = bestAep;
        score = bestScore;
        changedThisSweep++;
      }
    }
    changed += changedThisSweep;
    if (changedThisSweep === 0) break;
    current = aepOf(typeOf);
    evaluations++;
  }
  return { typeOf, aep, score, evaluations, changed };
}

/** A result's score: its objective, higher is better (AEP, −LCOE or NPV). */
function scoreOfResult(r: OptimizeResult): number {
  if (!r.economics) return r.aep;
  return r.economics.objective === 'lcoe' ? -r.economics.value : r.economics.value;
}

/** Why the farm has its models: per model at the returned positions, and the objective if every turbine were that model. */
export function typeChoiceReport(c: Case, r: OptimizeResult): TypeChoiceReport {
  const models = c.turbines!.types;
  const typeOf = r.typeOf!;
  const evaluator = caseMixedEvaluator(c);
  const perTurbine = evaluator.aep(r.x, r.y, typeOf).perTurbineMwh;
  const name = caseObjective(c);
  const economic = isEconomic(c) ? assignmentObjective(c, r.x, r.y) : null;
  const objectiveOfChoice = (t: Int32Array) => {
    const e = evaluator.aep(r.x, r.y, t);
    return economic ? economic(t, e.perTurbineMwh).value : e.aepMwh;
  };
  const perModel = models.map((m, k) => {
    let turbines = 0,
      aepMwh = 0;
    for (let i = 0; i < typeOf.length; i++)
      if (typeOf[i] === k) {
        turbines++;
        aepMwh += perTurbine[i];
      }
    return { model: m.name, turbines, ratedMW: m.ratedPowerW * 1e-6, aepMwh, objectiveIfAll: objectiveOfChoice(new Int32Array(typeOf.length).fill(k)) };
  });
  const chosen = economic ? r.economics!.value : r.aep;
  const cur = c.economics?.model.currency ?? '';
  const fmt = (v: number) => (name === 'aep' ? `${v.toFixed(1)} MWh` : objectiveText(name, v, cur, 4));
  const mix = perModel
    .filter((m) => m.turbines > 0)
    .map((m) => `${m.turbines} × ${m.model}`)
    .join(' + ');
  const alternatives = perModel.map((m) => `all ${m.model} ${fmt(m.objectiveIfAll)}`).join(', ');
  const direction = name === 'lcoe' ? 'lowest' : 'highest';
  return {
    objective: name,
    reason: `${name.toUpperCase()} (${direction} wins): chosen ${mix} ${fmt(chosen)}; at the same positions ${alternatives}`,
    perModel,
  };
}

export function optimizeWithTypeChoice(c: Case, settings: OptimizerSettings, seed: number, hooks: OptimizeHooks = {}): OptimizeResult {
  if (!c.turbines) throw new Error('optimizeWithTypeChoice needs a case with turbine models');
  let typeOf = startingAssignment(c.nTurbines, c.turbines.types.length);
  const first = optimizeLayout(withTypes(c, typeOf), settings, seed, hooks);
  let best: OptimizeResult = { ...first, typeOf: Int32Array.from(typeOf) };
  let iterations = first.iterations,
    evaluations = first.evaluations;
  let x = first.x,
    y = first.y;
  // The network the optimizer designed for (x, y), the router's start for the figures there.
  let network = first.economics ? parentOfCableTo(first.economics.cableTo) : undefined;
  const gradientFree = ['random', 'hybrid', 'none'].includes(String(settings.method));
  const later: OptimizerSettings = gradientFree ? { ...settings, initial: 'given' } : { ...settings, method: 'gradient', initial: 'given' };
  for (let round = 0; round < TYPE_ROUNDS; round++) {
    const step = improveAssignment(c, x, y, typeOf);
    evaluations += step.evaluations;
    if (step.score > scoreOfResult(best)) {
      const t = Int32Array.from(step.typeOf);
      best = {
        ...best,
        x: Float64Array.from(x),
        y: Float64Array.from(y),
        aep: step.aep,
        typeOf: t,
        ...(best.economics ? { economics: economicFigures(withTypes(c, t), x, y, t, network) } : {}),
      };
    }
    if (step.changed === 0) break;
    typeOf = step.typeOf;
    const r = optimizeLayout(withTypes(c, typeOf, { x, y }), later, seed, hooks);
    iterations += r.iterations;
    evaluations += r.evaluations;
    x = r.x;
    y = r.y;
    network = r.economics ? parentOfCableTo(r.economics.cableTo) : undefined;
    if (r.feasible && scoreOfResult(r) > scoreOfResult(best)) best = { ...r, typeOf: Int32Array.from(typeOf) };
  }
  const report = checkFeasibility(c.boundary ? prepareBoundary(c.boundary) : null, best.x, best.y, caseSpacing(c, best.typeOf), FEASIBILITY_TOLERANCE_M);
  const result: OptimizeResult = {
    ...best,
    xInitial: first.xInitial,
    yInitial: first.yInitial,
    aepInitial: first.aepInitial,
    ...(first.objectiveInitial !== undefined ? { objectiveInitial: first.objectiveInitial } : {}),
    iterations,
    evaluations,
    feasible: report.feasible,
    maxViolationM: report.maxViolationM,
  };
  return { ...result, typeChoice: typeChoiceReport(c, result) };
}
