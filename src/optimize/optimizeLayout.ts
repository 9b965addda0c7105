/**
 * Optimize one layout: the case (turbine, wind, site, turbine count, spacing, wake model), the
 * optimizer settings and a seed give a bit-identical result on any machine (all randomness comes
 * from the seed; stopping is by counts and tolerances only).
 *
 * 'gradient': for each wake-expansion factor ξ (Thomas & Ning 2018; Gaussian wakes only) an
 * augmented-Lagrangian solve with L-BFGS, warm-started from the previous stage with its
 * multipliers. 'random': random search from the initial layout. 'hybrid': gradient, then random
 * search as a polish. Every returned layout passes checkFeasibility (1e-6 m); a method that ends
 * infeasible gets one repair pass (minimize the constraint violation alone), and if that fails the
 * optimization fails with RuntimeFailure: an infeasible layout is never returned as a result.
 * Nor is one worse than a feasible start: then the start itself is returned.
 */
import type { Case } from '../io/case.js';
import { createFarmEvaluator, type FarmEvaluator } from '../physics/aep.js';
import { prepareBoundary, type PreparedBoundary } from '../geometry/preparedBoundary.js';
import { checkFeasibility } from '../geometry/feasibility.js';
import { projectInside } from '../geometry/projectInside.js';
import { createRng, type Rng } from '../util/rng.js';
import { signedDistanceAt } from '../geometry/boundaryDistance.js';
import { RuntimeFailure } from '../util/errors.js';
import { augmentedLagrangian, type InequalityConstraints } from './augmentedLagrangian.js';
import { lbfgs } from './lbfgs.js';
import { aepObjective, fromScaled, layoutConstraints, toScaled } from './layoutProblem.js';
import { randomSearch } from './randomSearch.js';
import { initialLayout } from './initialLayout.js';
import { resolveSettings, type OptimizerSettings, type ResolvedSettings } from './settings.js';

export type { OptimizerSettings } from './settings.js';

export interface OptimizeResult {
  x: Float64Array;
  y: Float64Array;
  xInitial: Float64Array;
  yInitial: Float64Array;
  /** AEP of the returned layout with the real (unwidened) wake model, MWh. */
  aep: number;
  aepInitial: number;
  /** Optimizer iterations (L-BFGS iterations plus random-search proposals). */
  iterations: number;
  /** AEP evaluations (with or without gradient). */
  evaluations: number;
  feasible: boolean;
  maxViolationM: number;
}

/** The case's minimum spacing as the feasibility tolerance allows. */
const FEASIBILITY_TOLERANCE_M = 1e-6;

export function optimizeLayout(c: Case, settings: OptimizerSettings, seed: number): OptimizeResult {
  const s = resolveSettings(settings);
  const site = c.boundary ? prepareBoundary(c.boundary) : null;
  const rng = createRng(seed);
  const start = initialLayout(s.initial, site, c.nTurbines, c.minSpacing, rng, c.layout);
  const evaluator = createFarmEvaluator(c.turbine, c.wind, c.model);
  const aepInitial = evaluator.aep(start.x, start.y).aepMwh;
  let x: Float64Array = Float64Array.from(start.x), y: Float64Array = Float64Array.from(start.y);
  let iterations = 0, evaluations = 1;

  /** Make (x, y) feasible or fail; returns the feasible layout. */
  const ensureFeasible = (lx: Float64Array, ly: Float64Array): { x: Float64Array; y: Float64Array } | null => {
    if (checkFeasibility(site, lx, ly, c.minSpacing, FEASIBILITY_TOLERANCE_M).feasible) return { x: lx, y: ly };
    const repaired = repair(site, lx, ly, c.minSpacing, c.turbine.diameter);
    evaluations += repaired.evaluations;
    return checkFeasibility(site, repaired.x, repaired.y, c.minSpacing, FEASIBILITY_TOLERANCE_M).feasible ? repaired : null;
  };
  if (s.method === 'gradient' || s.method === 'hybrid' || s.method === 'basin') {
    const r = gradientStages(c, s.wec, s, site, x, y, aepInitial);
    iterations += r.iterations; evaluations += r.evaluations;
    const feasible = ensureFeasible(r.x, r.y);
    if (!feasible) {
      const report = checkFeasibility(site, r.x, r.y, c.minSpacing, FEASIBILITY_TOLERANCE_M);
      throw new RuntimeFailure(`optimizer (${s.method}, seed ${seed}) ended with an infeasible layout: ${report.worst}`);
    }
    x = feasible.x; y = feasible.y;
  }
  if (s.method === 'basin' && s.hops > 0 && site) {
    let bestAep = evaluator.aep(x, y).aepMwh;
    evaluations++;
    for (let hop = 0; hop < s.hops; hop++) {
      const trial = relocate(site, evaluator, x, y, s.hopTurbines, s.hopCandidates, c.minSpacing, rng);
      if (!trial) continue;
      evaluations += trial.evaluations;
      const r = gradientStages(c, s.hopWec, s, site, trial.x, trial.y, aepInitial);
      iterations += r.iterations; evaluations += r.evaluations;
      const feasible = ensureFeasible(r.x, r.y);
      if (!feasible) continue;
      const trialAep = evaluator.aep(feasible.x, feasible.y).aepMwh;
      evaluations++;
      if (trialAep > bestAep) { bestAep = trialAep; x = feasible.x; y = feasible.y; }
    }
  }
  let report = checkFeasibility(site, x, y, c.minSpacing, FEASIBILITY_TOLERANCE_M);
  if (!report.feasible) {
    const feasible = ensureFeasible(x, y);
    if (!feasible) throw new RuntimeFailure(`optimizer (${s.method}, seed ${seed}) ended with an infeasible layout: ${report.worst}`);
    x = feasible.x; y = feasible.y;
  }
  if (s.method === 'random' || s.method === 'hybrid') {
    const r = randomSearch(evaluator, site, x, y, rng, {
      iterations: s.randomIterations, minSpacing: c.minSpacing,
      initialStep: s.randomStep * c.turbine.diameter, finalStep: s.randomFinalStep * c.turbine.diameter,
    });
    x = r.x; y = r.y; iterations += s.randomIterations; evaluations += r.evaluations;
  }
  let aep = evaluator.aep(x, y).aepMwh;
  // Never return less than a feasible start (a short or unconverged run can end below it).
  if (aep < aepInitial && checkFeasibility(site, start.x, start.y, c.minSpacing, FEASIBILITY_TOLERANCE_M).feasible) {
    x = Float64Array.from(start.x); y = Float64Array.from(start.y); aep = aepInitial;
  }
  report = checkFeasibility(site, x, y, c.minSpacing, FEASIBILITY_TOLERANCE_M);
  return {
    x, y, xInitial: start.x, yInitial: start.y, aep, aepInitial,
    iterations, evaluations: evaluations + 1, feasible: report.feasible, maxViolationM: report.maxViolationM,
  };
}

/**
 * A basin-hopping move: take `count` turbines (each the least productive one or a random one,
 * even odds) and put each at the best of `candidates` random spots inside the site that keep the
 * minimum spacing (best by AEP with the real wake model). Null when no spot was found.
 */
function relocate(
  site: PreparedBoundary, evaluator: FarmEvaluator, x0: Float64Array, y0: Float64Array,
  count: number, candidates: number, minSpacing: number, rng: Rng,
): { x: Float64Array; y: Float64Array; evaluations: number } | null {
  const x = Float64Array.from(x0), y = Float64Array.from(y0);
  const n = x.length;
  const grad2 = new Float64Array(2);
  const box = site.box;
  let evaluations = 0;
  for (let moved = 0; moved < count; moved++) {
    let i: number;
    if (rng.next() < 0.5) {
      const perTurbine = evaluator.aep(x, y).perTurbineMwh;
      evaluations++;
      i = 0;
      for (let j = 1; j < n; j++) if (perTurbine[j] < perTurbine[i]) i = j;
    } else {
      i = rng.int(n);
    }
    let bestX = NaN, bestY = NaN, bestAep = -Infinity;
    let found = 0;
    for (let attempt = 0; attempt < 200 * candidates && found < candidates; attempt++) {
      const px = rng.uniform(box.minX, box.maxX), py = rng.uniform(box.minY, box.maxY);
      if (signedDistanceAt(site, px, py, grad2) < 0) continue;
      let clear = true;
      for (let j = 0; j < n && clear; j++) {
        if (j !== i && (px - x[j]) ** 2 + (py - y[j]) ** 2 < minSpacing * minSpacing) clear = false;
      }
      if (!clear) continue;
      found++;
      const ox = x[i], oy = y[i];
      x[i] = px; y[i] = py;
      const aep = candidates > 1 ? evaluator.aep(x, y).aepMwh : 0;
      if (candidates > 1) evaluations++;
      x[i] = ox; y[i] = oy;
      if (aep > bestAep) { bestAep = aep; bestX = px; bestY = py; }
    }
    if (found === 0) return null;
    x[i] = bestX; y[i] = bestY;
  }
  return { x, y, evaluations };
}

function gradientStages(c: Case, stages0: number[], s: ResolvedSettings, site: PreparedBoundary | null, x0: Float64Array, y0: Float64Array, aepRef: number) {
  const scale = c.turbine.diameter;
  const n = c.nTurbines;
  const constraints = layoutConstraints(site, n, c.minSpacing, scale);
  const multipliers = new Float64Array(constraints.count);
  const gaussian = c.model.wake === 'iea37' || c.model.wake === 'bastankhah2014';
  const stages = gaussian ? stages0 : [1];
  const counter = { evaluations: 0 };
  let z = toScaled(x0, y0, scale);
  let iterations = 0;
  let penalty = 10;
  for (let stage = 0; stage < stages.length; stage++) {
    const xi = stages[stage];
    const last = stage === stages.length - 1;
    const evaluator: FarmEvaluator = createFarmEvaluator(c.turbine, c.wind, { ...c.model, params: { ...c.model.params, wec: xi } });
    const objective = aepObjective(evaluator, scale, aepRef, counter);
    // Widened stages only steer the layout: a loose feasibility target (≈1 cm) keeps the penalty,
    // and so the conditioning, moderate. The last stage tightens to 1e-6·D, well inside the 1 mm
    // margin of the constraints.
    const r = augmentedLagrangian(objective, constraints, z, {
      maxOuterIterations: s.outerIterations, constraintTolerance: last ? 1e-6 : 1e-4, initialPenalty: penalty,
      maxPenalty: 1e5, multipliers,
      inner: { maxIterations: s.maxIterations, gradientTolerance: 1e-6, functionTolerance: 1e-10 },
    });
    z = r.x;
    iterations += r.innerIterations;
    penalty = r.penalty;
  }
  const { x, y } = fromScaled(z, scale);
  return { x, y, iterations, evaluations: counter.evaluations };
}

/**
 * Move an infeasible layout to a feasible one nearby: project outside turbines in, then minimize
 * Σ max(0, g_i)² with a wider margin, which pushes too-close pairs apart.
 */
function repair(site: PreparedBoundary | null, x0: Float64Array, y0: Float64Array, minSpacing: number, scale: number) {
  const x = Float64Array.from(x0), y = Float64Array.from(y0);
  if (site) projectInside(site, x, y, 1e-2);
  const constraints: InequalityConstraints = layoutConstraints(site, x.length, minSpacing, scale, 1e-2);
  const g = new Float64Array(constraints.count);
  const w = new Float64Array(constraints.count);
  let evaluations = 0;
  const r = lbfgs((z, grad) => {
    grad.fill(0);
    constraints.values(z, g);
    let sum = 0;
    for (let i = 0; i < g.length; i++) {
      const v = g[i] > 0 ? g[i] : 0;
      w[i] = 2 * v;
      sum += v * v;
    }
    constraints.addWeightedGradient(z, w, grad);
    evaluations++;
    return sum;
  }, toScaled(x, y, scale), { maxIterations: 500, gradientTolerance: 1e-14, functionTolerance: 0 });
  return { ...fromScaled(r.x, scale), evaluations };
}
