/**
 * Global search ('global' method): find the family of a good layout, then refine it.
 *
 * 1. Seeding: `seedLayouts` starting layouts (the first from `initial`, default `structured`; the
 *    others structured layouts of families chosen by the seed: rings on and inside the boundary,
 *    hexagonal packings, rows facing the dominant wind, greedy sequential placement, random), each
 *    optimized with the gradient method and wake expansion continuation (`wec`); the best is kept.
 * 2. Monotonic basin hopping, `hops` rounds. Each round applies one move drawn by the seed, then
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
import type { Case } from './case.js';
import type { FarmEvaluator } from '../physics/aep.js';
import type { PreparedBoundary } from '../geometry/preparedBoundary.js';
import { signedDistanceAt } from '../geometry/boundaryDistance.js';
import { projectInside } from '../geometry/projectInside.js';
import { perimeterLength, perimeterPoint } from '../geometry/structuredLayouts.js';
import type { Rng } from '../util/rng.js';
import { gradientStages } from './gradientStages.js';
import { caseSpacing } from './caseEvaluator.js';
import { pairMinimum } from '../geometry/pairSpacing.js';
import { initialLayout } from './initialLayout.js';
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

/** A point within 0.5 m of the boundary counts as on it. */
const ON_BOUNDARY_M = 0.5;
const MARGIN_M = 1e-3;

export function globalSearch(ctx: GlobalSearchContext, first: Layout): GlobalSearchResult {
  const { c, s, site, evaluator, rng } = ctx;
  const acceptedByMove = Object.fromEntries(HOP_MOVES.map((m) => [m, 0])) as Record<HopMove, number>;
  const triedByMove = Object.fromEntries(HOP_MOVES.map((m) => [m, 0])) as Record<HopMove, number>;
  const n = c.nTurbines;
  const workPerEvaluation = n * n * c.wind.directionsDeg.length * c.wind.speeds.length;
  const restarts = Math.max(1, s.restarts);
  const budgetPerRestart = s.workBudget / restarts;
  let iterations = 0, evaluations = 0, hopIndex = 0;
  let overall: Layout | null = null;
  let overallAep = -Infinity;
  const report = (hop: number, move: HopMove | 'seed', trialAep: number, bestAep: number, accepted: boolean) => {
    ctx.onProgress?.({ hop, move, trialAep, bestAep: Math.max(bestAep, overallAep), accepted: accepted && bestAep > overallAep, evaluations });
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
      iterations += r.iterations; evaluations += r.evaluations;
      const feasible = ctx.ensureFeasible(r.x, r.y);
      const aep = feasible ? evaluator.aep(feasible.x, feasible.y).aepMwh : NaN;
      evaluations++;
      const accepted = aep > bestAep;
      if (accepted) { bestAep = aep; best = feasible; }
      report(-1, 'seed', aep, bestAep, accepted);
    }
    if (!best) { best = first; bestAep = evaluator.aep(first.x, first.y).aepMwh; evaluations++; }
    for (let hop = 0; hop < s.hops && !overBudget(); hop++, hopIndex++) {
      const move = drawMove(rng);
      const trial = applyMove(move, ctx, best);
      evaluations += trial.evaluations;
      let aep = NaN;
      let accepted = false;
      if (trial.layout) {
        triedByMove[move]++;
        const r = gradientStages(c, s.hopWec, s, site, trial.layout.x, trial.layout.y, ctx.aepRef);
        iterations += r.iterations; evaluations += r.evaluations;
        const feasible = ctx.ensureFeasible(r.x, r.y);
        if (feasible) {
          aep = evaluator.aep(feasible.x, feasible.y).aepMwh;
          evaluations++;
          if (aep > bestAep) { bestAep = aep; best = feasible; acceptedByMove[move]++; accepted = true; }
        }
      }
      report(hopIndex, move, aep, bestAep, accepted);
    }
    if (bestAep > overallAep) { overallAep = bestAep; overall = best; }
  }
  return { ...overall!, aep: overallAep, iterations, evaluations, acceptedByMove, triedByMove };
}

function drawMove(rng: Rng): HopMove {
  let u = rng.next();
  for (const m of HOP_MOVES) { if (u < MOVE_WEIGHTS[m]) return m; u -= MOVE_WEIGHTS[m]; }
  return 'relocate';
}

function applyMove(move: HopMove, ctx: GlobalSearchContext, from: Layout): { layout: Layout | null; evaluations: number } {
  const { site, rng, c, s } = ctx;
  const x = Float64Array.from(from.x), y = Float64Array.from(from.y);
  const n = x.length;
  const grad = new Float64Array(2);
  let evaluations = 0;
  const onBoundary = (i: number) => signedDistanceAt(site, x[i]!, y[i]!, grad) < ON_BOUNDARY_M;
  const pickWhere = (want: (i: number) => boolean): number => {
    const pool: number[] = [];
    for (let i = 0; i < n; i++) if (want(i)) pool.push(i);
    return pool.length === 0 ? -1 : pool[rng.int(pool.length)]!;
  };
  const leastProductive = (): number => {
    const perTurbine = ctx.evaluator.aep(x, y).perTurbineMwh;
    evaluations++;
    let i = 0;
    for (let j = 1; j < n; j++) if (perTurbine[j]! < perTurbine[i]!) i = j;
    return i;
  };
  const place = (i: number, where: 'any' | 'boundary' | 'interior'): boolean => {
    const r = bestSpot(ctx, x, y, i, s.hopCandidates, where);
    evaluations += r.evaluations;
    if (!r.found) return false;
    x[i] = r.x; y[i] = r.y;
    return true;
  };
  switch (move) {
    case 'relocate': {
      const i = rng.next() < 0.5 ? leastProductive() : rng.int(n);
      return { layout: place(i, 'any') ? { x, y } : null, evaluations };
    }
    case 'relocateMany': {
      const count = 2 + rng.int(2);
      for (let k = 0; k < count; k++) {
        const i = k === 0 && rng.next() < 0.5 ? leastProductive() : rng.int(n);
        if (!place(i, 'any')) return { layout: null, evaluations };
      }
      return { layout: { x, y }, evaluations };
    }
    case 'toBoundary': {
      const i = pickWhere((j) => !onBoundary(j));
      return { layout: i >= 0 && place(i, 'boundary') ? { x, y } : null, evaluations };
    }
    case 'toInterior': {
      const i = pickWhere(onBoundary);
      return { layout: i >= 0 && place(i, 'interior') ? { x, y } : null, evaluations };
    }
    case 'shake': {
      const step = s.shakeStep * c.turbine.diameter;
      for (let i = 0; i < n; i++) { x[i] += step * rng.normal(); y[i] += step * rng.normal(); }
      projectInside(site, x, y, MARGIN_M);
      return { layout: { x, y }, evaluations };
    }
  }
}

/**
 * The best of `candidates` spots for turbine i (others fixed) that are inside the site and keep
 * the spacing: on the boundary, strictly inside (≥ one spacing from the boundary), or either
 * (half each).
 */
function bestSpot(
  ctx: GlobalSearchContext, x: Float64Array, y: Float64Array, i: number, candidates: number, where: 'any' | 'boundary' | 'interior',
): { found: boolean; x: number; y: number; evaluations: number } {
  const { site, rng, c } = ctx;
  const n = x.length;
  const grad = new Float64Array(2), point = new Float64Array(2);
  const perimeter = perimeterLength(site);
  const rule = caseSpacing(c);
  const box = site.box;
  let bestX = NaN, bestY = NaN, bestAep = -Infinity, found = 0, evaluations = 0;
  const ox = x[i]!, oy = y[i]!;
  for (let attempt = 0; attempt < 200 * candidates && found < candidates; attempt++) {
    const onEdge = where === 'boundary' || (where === 'any' && attempt % 2 === 0);
    let px: number, py: number;
    if (onEdge) {
      perimeterPoint(site, rng.next() * perimeter, MARGIN_M, point);
      px = point[0]!; py = point[1]!;
    } else {
      px = rng.uniform(box.minX, box.maxX); py = rng.uniform(box.minY, box.maxY);
    }
    const depth = signedDistanceAt(site, px, py, grad);
    if (depth < MARGIN_M * 0.999) continue;
    if (where === 'interior' && depth < c.minSpacing) continue;
    let clear = true;
    for (let j = 0; j < n && clear; j++) if (j !== i && (px - x[j]!) ** 2 + (py - y[j]!) ** 2 < (pairMinimum(rule, i, j) + MARGIN_M) ** 2) clear = false;
    if (!clear) continue;
    found++;
    x[i] = px; y[i] = py;
    const aep = ctx.evaluator.aep(x, y).aepMwh;
    evaluations++;
    x[i] = ox; y[i] = oy;
    if (aep > bestAep) { bestAep = aep; bestX = px; bestY = py; }
  }
  return { found: found > 0, x: bestX, y: bestY, evaluations };
}
