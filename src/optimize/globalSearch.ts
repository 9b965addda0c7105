/**
 * Global search ('global' method): find the family of a good layout, then refine it.
 *
 * 1. Seeding: `seedLayouts` starting layouts (the first from `initial`, default `structured`; the
 *    others structured layouts of families chosen by the seed: rings on and inside the boundary,
 *    hexagonal packings, rows facing the dominant wind, greedy sequential placement, random), each
 *    optimized with the gradient method and wake expansion continuation (`wec`); the best is kept.
 * 2. Monotonic basin hopping, `hops` rounds. Each round applies one move (moves.ts) drawn by the seed, then
 *    re-optimizes with the gradient method over `hopWec`, and keeps the result if the AEP rose:
 *    - relocate: one turbine (the least productive or a random one) to the best of `hopCandidates`
 *      spots, half of them on the boundary, half random inside (best by AEP, real wake model);
 *    - relocate several: two or three turbines, one after the other, the same way;
 *    - to boundary: an interior turbine to the best boundary spot;
 *    - to interior: a boundary turbine to the best interior spot;
 *    - shake: every turbine moved by a normal step of `shakeStep` rotor diameters (then projected
 *      inside; the gradient method restores the spacing).
 * 3. Restarts: steps 1–2 run `restarts` times, independently (each restart from new structured
 *    layouts, each with workBudget/restarts), and the best result is kept: a seed then lands in a
 *    good family more often than one longer run does.
 * No further start or hop begins once evaluations × n² × wind conditions reach the budget.
 * Deterministic per seed; every budget counts iterations or evaluations, never time.
 */
import type { Case } from '../case/case.js';
import type { FarmEvaluator } from '../physics/aep.js';
import type { PreparedBoundary } from '../geometry/preparedBoundary.js';
import type { Rng } from '../util/rng.js';
import { gradientStages } from './gradientStages.js';
import { initialLayout } from './initialLayout.js';
import { applyMove } from './moves.js';
import type { ResolvedSettings } from './settings.js';

export const HOP_MOVES = ['relocate', 'relocateMany', 'toBoundary', 'toInterior', 'shake'] as const;
export type HopMove = (typeof HOP_MOVES)[number];
/** How often each move is drawn. */
const MOVE_WEIGHTS: Record<HopMove, number> = { relocate: 0.35, relocateMany: 0.2, toBoundary: 0.15, toInterior: 0.1, shake: 0.2 };

type Layout = { x: Float64Array; y: Float64Array };

/** One step of a search: a seeding start (hop −1) or a hop, and the best AEP so far. */
export interface SearchProgress {
  hop: number;
  move: HopMove | 'seed';
  /** AEP of this step's layout (NaN when the move found no spot or repair failed), MWh. */
  trialAep: number;
  bestAep: number;
  accepted: boolean;
  /** AEP evaluations so far in this search. */
  evaluations: number;
  /** Share of the search's budget used so far, 0 to 1 (its work budget, else its hops); for progress bars. */
  done: number;
}

export interface GlobalSearchContext {
  c: Case;
  s: ResolvedSettings;
  site: PreparedBoundary;
  evaluator: FarmEvaluator;
  rng: Rng;
  aepRef: number;
  /** Feasible version of a layout (repaired if needed) or null. */
  ensureFeasible: (x: Float64Array, y: Float64Array) => Layout | null;
  /** Called after every seeding start and every hop (for progress traces and move statistics). */
  onProgress?: (event: SearchProgress) => void;
}

export interface GlobalSearchResult extends Layout {
  aep: number;
  iterations: number;
  evaluations: number;
  acceptedByMove: Record<HopMove, number>;
  triedByMove: Record<HopMove, number>;
}

export function globalSearch(ctx: GlobalSearchContext, first: Layout): GlobalSearchResult {
  const { c, s, site, evaluator, rng } = ctx;
  const acceptedByMove = Object.fromEntries(HOP_MOVES.map((m) => [m, 0])) as Record<HopMove, number>;
  const triedByMove = Object.fromEntries(HOP_MOVES.map((m) => [m, 0])) as Record<HopMove, number>;
  const n = c.nTurbines;
  const workPerEvaluation = n * n * c.wind.directionsDeg.length * c.wind.speeds.length;
  const restarts = Math.max(1, s.restarts);
  const budgetPerRestart = s.workBudget / restarts;
  let iterations = 0,
    evaluations = 0,
    hopIndex = 0;
  let overall: Layout | null = null;
  let overallAep = -Infinity;
  const done = (hop: number): number =>
    Math.min(1, Number.isFinite(s.workBudget) ? (evaluations * workPerEvaluation) / s.workBudget : Math.max(0, hop + 1) / Math.max(1, s.hops * restarts));
  const report = (hop: number, move: HopMove | 'seed', trialAep: number, bestAep: number, accepted: boolean) => {
    ctx.onProgress?.({ hop, move, trialAep, bestAep: Math.max(bestAep, overallAep), accepted: accepted && bestAep > overallAep, evaluations, done: done(hop) });
  };
  for (let restart = 0; restart < restarts; restart++) {
    const evaluationsAtStart = evaluations;
    const overBudget = () => (evaluations - evaluationsAtStart) * workPerEvaluation >= budgetPerRestart;
    let best: Layout | null = null;
    let bestAep = -Infinity;
    for (let k = 0; k < Math.max(1, s.seedLayouts); k++) {
      if (k > 0 && overBudget()) break;
      const start = k === 0 && restart === 0 ? first : initialLayout('structured', site, c.nTurbines, c.minSpacing, rng, c.layout, evaluator);
      const r = gradientStages(c, s.wec, s, site, start.x, start.y, ctx.aepRef);
      iterations += r.iterations;
      evaluations += r.evaluations;
      const feasible = ctx.ensureFeasible(r.x, r.y);
      const aep = feasible ? evaluator.aep(feasible.x, feasible.y).aepMwh : NaN;
      evaluations++;
      const accepted = aep > bestAep;
      if (accepted) {
        bestAep = aep;
        best = feasible;
      }
      report(-1, 'seed', aep, bestAep, accepted);
    }
    if (!best) {
      best = first;
      bestAep = evaluator.aep(first.x, first.y).aepMwh;
      evaluations++;
    }
    for (let hop = 0; hop < s.hops && !overBudget(); hop++, hopIndex++) {
      const move = drawMove(rng);
      const trial = applyMove(move, { c, site, evaluator, rng, candidates: s.hopCandidates, shakeStep: s.shakeStep }, best);
      evaluations += trial.evaluations;
      let aep = NaN;
      let accepted = false;
      if (trial.layout) {
        triedByMove[move]++;
        const r = gradientStages(c, s.hopWec, s, site, trial.layout.x, trial.layout.y, ctx.aepRef);
        iterations += r.iterations;
        evaluations += r.evaluations;
        const feasible = ctx.ensureFeasible(r.x, r.y);
        if (feasible) {
          aep = evaluator.aep(feasible.x, feasible.y).aepMwh;
          evaluations++;
          if (aep > bestAep) {
            bestAep = aep;
            best = feasible;
            acceptedByMove[move]++;
            accepted = true;
          }
        }
      }
      report(hopIndex, move, aep, bestAep, accepted);
    }
    if (bestAep > overallAep) {
      overallAep = bestAep;
      overall = best;
    }
  }
  return { ...overall!, aep: overallAep, iterations, evaluations, acceptedByMove, triedByMove };
}

function drawMove(rng: Rng): HopMove {
  let u = rng.next();
  for (const m of HOP_MOVES) {
    if (u < MOVE_WEIGHTS[m]) return m;
    u -= MOVE_WEIGHTS[m];
  }
  return 'relocate';
}
