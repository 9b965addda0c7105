/**
 * Continuation over the direction treatment: a case whose AEP is on a finely treated rose (each
 * bin spread over n sub-directions, a Gaussian on n points, a rose refined to a small step) costs
 * about n times a benchmark evaluation. Its optimization runs on a coarse treatment first (spread
 * over 4, a Gaussian on 5 points, a 5° refinement: the same wind, blurred less finely) with the
 * settings given, then polishes that layout on the case's own treatment with the gradient method
 * (ξ = 1, no wake widening) from it. The polish never returns a layout worse than its start on
 * the fine measure (optimizeLayout), the result's AEP and its initial AEP are on the case's own
 * measure, and the work of both stages is counted. Deterministic per seed like every stage.
 */
import type { DirectionTreatment } from '../physics/directionTreatment.js';
import type { Case } from '../case/case.js';
import { caseTreatment, withDirections } from './caseDirections.js';
import { caseEvaluator } from './caseEvaluator.js';
import { resolveSettings, type OptimizerSettings } from './settings.js';
import type { OptimizeResult } from './optimizeLayout.js';
import { economicFigures } from './economicObjective.js';

/** Sub-directions per bin of the coarse stage of a spread, points of a Gaussian, step of a refinement. */
export const COARSE_SPREAD = 4;
export const COARSE_GAUSSIAN_POINTS = 5;
export const COARSE_REFINE_DEG = 5;

/** The coarse treatment a case's optimization starts on, or null when its own is already coarse. */
export function coarseTreatment(t: DirectionTreatment): DirectionTreatment | null {
  if (t.kind === 'spread' && t.n > COARSE_SPREAD) return { kind: 'spread', n: COARSE_SPREAD };
  if (t.kind === 'gaussian' && t.n > COARSE_GAUSSIAN_POINTS) return { kind: 'gaussian', sigmaDeg: t.sigmaDeg, n: COARSE_GAUSSIAN_POINTS };
  if (t.kind === 'refine' && t.stepDeg < COARSE_REFINE_DEG && Number.isInteger(360 / COARSE_REFINE_DEG)) return { kind: 'refine', stepDeg: COARSE_REFINE_DEG };
  return null;
}

/**
 * Optimize `c` by `optimize` with continuation over its direction treatment when it has a fine
 * one (else `optimize` as is). `optimize` is the whole optimization of a case (optimizeCase).
 */
export function withDirectionContinuation(
  c: Case,
  settings: OptimizerSettings,
  seed: number,
  optimize: (c: Case, settings: OptimizerSettings, seed: number) => OptimizeResult,
): OptimizeResult {
  const coarse = c.directions ? coarseTreatment(caseTreatment(c)) : null;
  const method = resolveSettings(settings).method;
  // Nothing to continue from: no fine treatment, or a method that evaluates its start only.
  if (!coarse || method === 'none') return optimize(c, settings, seed);
  const first = optimize(withDirections(c, coarse), settings, seed);
  // The polish keeps the first stage's turbine models (a choosing farm's are fixed from here).
  const fine: Case = {
    ...c,
    ...(c.turbines && first.typeOf ? { turbines: { ...c.turbines, typeOf: first.typeOf, choice: false } } : {}),
    layout: { x: first.x, y: first.y },
    // A chosen hub height: the polish starts from it (optimize/hubHeight.ts).
    ...(first.hubHeight !== undefined ? { turbine: { ...c.turbine, hubHeight: first.hubHeight } } : {}),
  };
  const polish = optimize(
    fine,
    { method: 'gradient', initial: 'given', wec: [1], ...(settings.maxIterations !== undefined ? { maxIterations: settings.maxIterations } : {}) },
    seed,
  );
  const evaluator = caseEvaluator(
    first.hubHeightInitial !== undefined ? { ...c, turbine: { ...c.turbine, hubHeight: first.hubHeightInitial } } : c,
    c.model,
    first.typeOf,
  );
  return {
    ...polish,
    xInitial: first.xInitial,
    yInitial: first.yInitial,
    aepInitial: evaluator.aep(first.xInitial, first.yInitial).aepMwh,
    // A cost objective's start on the case's own measure too (the polish started from the coarse result).
    ...(polish.economics
      ? {
          objectiveInitial: economicFigures(
            { ...c, ...(first.typeOf && c.turbines ? { turbines: { ...c.turbines, typeOf: first.typeOf, choice: false } } : {}) },
            first.xInitial,
            first.yInitial,
          ).value,
        }
      : {}),
    iterations: first.iterations + polish.iterations,
    evaluations: first.evaluations + polish.evaluations + 1,
    ...(first.typeOf ? { typeOf: first.typeOf } : {}),
    ...(first.hubHeightInitial !== undefined ? { hubHeightInitial: first.hubHeightInitial } : {}),
  };
}
