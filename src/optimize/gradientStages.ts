/**
 * The gradient method's building blocks, shared by every method that uses it:
 * - gradientStages: for each wake-expansion factor ξ (Thomas & Ning 2018; Gaussian wakes only) an
 *   augmented-Lagrangian solve with L-BFGS on the exact AEP gradient, warm-started from the
 *   previous stage with its multipliers;
 *   With `free` (1 = may move, by turbine) only those turbines move: the gradient of the others
 *   is zeroed, so L-BFGS never changes them (a local polish after a local move);
 *   Under a cost objective (`objective: lcoe | npv`, economicObjective.ts) the objective is
 *   1000·J/J_scale instead of the AEP's: the collection network is routed at the start of every
 *   stage (from the previous stage's network: the router keeps it when valid and no dearer) and
 *   kept fixed within it (its cable-cost gradient is exact for that topology); the last one is
 *   returned (`network`), the start of the design's own network;
 *   With `hub` (the case's hubHeightRange; hubHeight.ts) one more variable, the farm's hub height,
 *   with its exact gradient and two bound constraints (AEP objective only);
 * - repair: move an infeasible layout to a feasible one nearby (projection, then minimizing the
 *   squared constraint violation alone).
 */
import type { Case } from '../case/case.js';
import type { FarmEvaluator } from '../physics/aep.js';
import type { SpacingRule } from '../geometry/pairSpacing.js';
import { caseEvaluator, caseSpacing } from './caseEvaluator.js';
import type { PreparedBoundary } from '../geometry/preparedBoundary.js';
import { projectInside } from '../geometry/projectInside.js';
import { augmentedLagrangian, type InequalityConstraints } from './augmentedLagrangian.js';
import { lbfgs } from './lbfgs.js';
import type { ObjectiveWithGradient } from './objective.js';
import { deficitModel } from '../physics/wake/registry.js';
import { aepObjective, fromScaled, layoutConstraints, toScaled } from './layoutProblem.js';
import type { ResolvedSettings } from './settings.js';
import { createEconomicObjective, economicStageObjective, isEconomic, objectiveScale } from './economicObjective.js';
import { aepHubObjective, HUB_SCALE_M, withHubBounds } from './hubHeight.js';
import type { CollectionNetwork } from '../geometry/collection/index.js';
import type { IterationEvent } from './history.js';

export function gradientStages(
  c: Case,
  stages0: number[],
  s: ResolvedSettings,
  site: PreparedBoundary | null,
  x0: Float64Array,
  y0: Float64Array,
  aepRef: number,
  free: Uint8Array | null = null,
  /** Called after each stage (progress only; never changes the result). */
  onStage?: (stage: number, stages: number, evaluations: number) => void,
  /** The hub height's start (m) when the case has a hubHeightRange: it is optimized too. */
  h0: number | null = null,
  /** Called after every L-BFGS iteration (history only; never changes the result): counts over this call. */
  onIteration?: (e: IterationEvent) => void,
) {
  const scale = c.turbine.diameter;
  const n = c.nTurbines;
  const hub = h0 !== null ? c.hubHeightRange! : null;
  const layout = free ? maskedConstraints(layoutConstraints(site, n, caseSpacing(c), scale), free) : layoutConstraints(site, n, caseSpacing(c), scale);
  const constraints = hub ? withHubBounds(layout, n, hub) : layout;
  const multipliers = new Float64Array(constraints.count);
  const widens = deficitModel(c.model.wake)?.wakeExpansionContinuation === true;
  const stages = widens ? stages0 : [1];
  const counter = { evaluations: 0 };
  let z = toScaled(x0, y0, scale);
  if (hub) {
    const zh = new Float64Array(2 * n + 1);
    zh.set(z);
    zh[2 * n] = h0! / HUB_SCALE_M;
    z = zh;
  }
  let iterations = 0;
  let penalty = 10;
  const economic = isEconomic(c);
  /** The collection network of the last cost stage (routed at its start, kept fixed through it). */
  let network: CollectionNetwork | null = null;
  // A cost objective's scale, fixed for every stage (the multipliers carry over): J at the start.
  let jScale = 1;
  if (economic) {
    const eo = createEconomicObjective(c);
    jScale = objectiveScale(eo.evaluate(x0, y0, eo.route(x0, y0), false), eo.name);
    counter.evaluations++;
  }
  for (let stage = 0; stage < stages.length; stage++) {
    const xi = stages[stage];
    const last = stage === stages.length - 1;
    const stageModel = { ...c.model, params: { ...c.model.params, wec: xi } };
    let inner: ObjectiveWithGradient;
    if (economic) {
      // Re-route at the stage's start; the topology stays fixed within the stage.
      const eo = createEconomicObjective(c, undefined, stageModel);
      const { x, y } = fromScaled(z, scale);
      network = eo.route(x, y, network?.parent);
      inner = economicStageObjective(eo, network, scale, jScale, counter);
    } else if (hub) {
      inner = aepHubObjective(c, hub, stageModel, scale, aepRef, counter);
    } else {
      const evaluator: FarmEvaluator = caseEvaluator(c, stageModel);
      inner = aepObjective(evaluator, scale, aepRef, counter);
    }
    const objective = free ? maskedObjective(inner, free) : inner;
    // Widened stages only steer the layout: a loose feasibility target (≈1 cm) keeps the penalty,
    // and so the conditioning, moderate. The last stage tightens to 1e-6·D, well inside the 1 mm
    // margin of the constraints.
    // The objective in its own unit for the history: AEP (MWh) from −1000·AEP/aepRef, or the cost
    // objective's value from 1000·J/J_scale (J = LCOE, or −NPV).
    const before = iterations;
    const observe =
      onIteration &&
      ((e: { iteration: number; f: number; maxViolation: number }) =>
        onIteration({
          iteration: before + e.iteration,
          stage,
          wec: xi,
          evaluations: counter.evaluations,
          maxViolationM: e.maxViolation * scale,
          objective: economic ? ((c.objective === 'npv' ? -1 : 1) * e.f * jScale) / 1000 : (-e.f * aepRef) / 1000,
        }));
    const r = augmentedLagrangian(objective, constraints, z, {
      maxOuterIterations: s.outerIterations,
      constraintTolerance: last ? 1e-6 : 1e-4,
      initialPenalty: penalty,
      maxPenalty: 1e5,
      multipliers,
      inner: { maxIterations: s.maxIterations, gradientTolerance: 1e-6, functionTolerance: 1e-10 },
      ...(observe ? { onIteration: observe } : {}),
    });
    z = r.x;
    iterations += r.innerIterations;
    penalty = r.penalty;
    onStage?.(stage, stages.length, counter.evaluations);
  }
  const { x, y } = fromScaled(hub ? z.subarray(0, 2 * n) : z, scale);
  // The bounds hold to the constraint tolerance: the height is kept inside them exactly.
  const h = hub ? Math.min(Math.max(z[2 * n] * HUB_SCALE_M, hub.min), hub.max) : null;
  return { x, y, h, iterations, evaluations: counter.evaluations, network, stages: stages.length };
}

/** The objective with the gradient of fixed turbines (free[i] = 0) zeroed. */
function maskedObjective(f: ObjectiveWithGradient, free: Uint8Array): ObjectiveWithGradient {
  const n = free.length;
  return (z, grad) => {
    const value = f(z, grad);
    for (let i = 0; i < n; i++)
      if (!free[i]) {
        grad[i] = 0;
        grad[n + i] = 0;
      }
    return value;
  };
}

/** Constraints whose gradient leaves fixed turbines (free[i] = 0) alone. */
function maskedConstraints(inner: InequalityConstraints, free: Uint8Array): InequalityConstraints {
  const n = free.length;
  return {
    count: inner.count,
    values: (z, out) => inner.values(z, out),
    addWeightedGradient(z, w, grad) {
      const saved = new Float64Array(2 * n);
      for (let i = 0; i < n; i++)
        if (!free[i]) {
          saved[i] = grad[i]!;
          saved[n + i] = grad[n + i]!;
        }
      inner.addWeightedGradient(z, w, grad);
      for (let i = 0; i < n; i++)
        if (!free[i]) {
          grad[i] = saved[i]!;
          grad[n + i] = saved[n + i]!;
        }
    },
  };
}

/**
 * Move an infeasible layout to a feasible one nearby: project outside turbines in, then minimize
 * Σ max(0, g_i)² with a wider margin, which pushes too-close pairs apart.
 */
export function repair(site: PreparedBoundary | null, x0: Float64Array, y0: Float64Array, minSpacing: SpacingRule, scale: number) {
  const x = Float64Array.from(x0),
    y = Float64Array.from(y0);
  if (site) projectInside(site, x, y, 1e-2);
  const constraints: InequalityConstraints = layoutConstraints(site, x.length, minSpacing, scale, 1e-2);
  const g = new Float64Array(constraints.count);
  const w = new Float64Array(constraints.count);
  let evaluations = 0;
  const r = lbfgs(
    (z, grad) => {
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
    },
    toScaled(x, y, scale),
    { maxIterations: 500, gradientTolerance: 1e-14, functionTolerance: 0 },
  );
  return { ...fromScaled(r.x, scale), evaluations };
}
