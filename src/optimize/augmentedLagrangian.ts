/**
 * Augmented Lagrangian method for  min f(x)  subject to  g_i(x) ≤ 0,  with L-BFGS as the inner
 * solver (Powell–Hestenes–Rockafellar form for inequalities; Nocedal & Wright §17.4):
 *
 *   Φ(x; λ, ρ) = f(x) + (1/2ρ) Σ_i [ max(0, λ_i + ρ g_i(x))² − λ_i² ]
 *   ∇Φ         = ∇f + Σ_i max(0, λ_i + ρ g_i) ∇g_i
 *   after each inner solve:  λ_i ← max(0, λ_i + ρ g_i),  ρ ← 10ρ when the violation did not fall
 *   to a quarter.
 *
 * Deterministic; stops on counts and tolerances only. The multipliers can be carried from one call
 * to the next (continuation over a sequence of related problems).
 */
import type { ObjectiveWithGradient } from './objective.js';
import { lbfgs, type LbfgsOptions } from './lbfgs.js';

/** Inequality constraints g_i(x) ≤ 0. */
export interface InequalityConstraints {
  readonly count: number;
  /** Write every g_i(x) into `out`. */
  values(x: Float64Array, out: Float64Array): void;
  /** grad += Σ_i weight_i ∇g_i(x). */
  addWeightedGradient(x: Float64Array, weights: Float64Array, grad: Float64Array): void;
}

export interface AugmentedLagrangianOptions {
  maxOuterIterations?: number;
  /** Feasibility target: max_i g_i ≤ this. */
  constraintTolerance?: number;
  initialPenalty?: number;
  maxPenalty?: number;
  inner?: LbfgsOptions;
  /** Stop when feasible and a round changes Φ by less than this (relative; default 1e-7). */
  stationarityTolerance?: number;
  /** Multipliers to start from (length = constraint count); updated in place. */
  multipliers?: Float64Array;
  /**
   * Called after every inner (L-BFGS) iteration, observing only: the iteration's number over this
   * call (from 1), f at the new point (Φ less its penalty term) and max(0, max_i g_i) there.
   */
  onIteration?: (e: { iteration: number; f: number; maxViolation: number }) => void;
}

export interface AugmentedLagrangianResult {
  x: Float64Array;
  f: number;
  maxViolation: number;
  outerIterations: number;
  innerIterations: number;
  evaluations: number;
  multipliers: Float64Array;
  penalty: number;
}

export function augmentedLagrangian(
  f: ObjectiveWithGradient,
  constraints: InequalityConstraints,
  x0: Float64Array,
  opts: AugmentedLagrangianOptions = {},
): AugmentedLagrangianResult {
  const m = constraints.count;
  const maxOuter = opts.maxOuterIterations ?? 20;
  const tol = opts.constraintTolerance ?? 1e-7;
  const maxPenalty = opts.maxPenalty ?? 1e8;
  const lambda = opts.multipliers ?? new Float64Array(m);
  let rho = opts.initialPenalty ?? 10;
  const g = new Float64Array(m);
  const weights = new Float64Array(m);
  let evaluations = 0,
    innerIterations = 0;

  const phi: ObjectiveWithGradient = (x, grad) => {
    const value = f(x, grad);
    evaluations++;
    constraints.values(x, g);
    let penalty = 0;
    let any = false;
    for (let i = 0; i < m; i++) {
      const shifted = lambda[i] + rho * g[i];
      if (shifted > 0) {
        weights[i] = shifted;
        penalty += shifted * shifted - lambda[i] * lambda[i];
        any = true;
      } else {
        weights[i] = 0;
        penalty -= lambda[i] * lambda[i];
      }
    }
    if (any) constraints.addWeightedGradient(x, weights, grad);
    return value + penalty / (2 * rho);
  };

  let x: Float64Array = Float64Array.from(x0);
  constraints.values(x, g);
  let violation = maxOf(g);
  const stationarityTolerance = opts.stationarityTolerance ?? 1e-7;
  let outer = 0;
  let previousF = Infinity;
  const observe = opts.onIteration;
  const gSeen = observe ? new Float64Array(m) : g;
  // f at an inner iterate from Φ there: the constraint values are cheap beside f (no extra f call).
  const inner = observe
    ? {
        ...opts.inner,
        onIteration: (z: Float64Array, phiValue: number, it: number) => {
          constraints.values(z, gSeen);
          let penalty = 0;
          for (let i = 0; i < m; i++) {
            const shifted = lambda[i] + rho * gSeen[i];
            penalty += shifted > 0 ? shifted * shifted - lambda[i] * lambda[i] : -lambda[i] * lambda[i];
          }
          observe({ iteration: innerIterations + it, f: phiValue - penalty / (2 * rho), maxViolation: Math.max(0, maxOf(gSeen)) });
        },
      }
    : opts.inner;
  for (; outer < maxOuter; outer++) {
    const r = lbfgs(phi, x, inner);
    innerIterations += r.iterations;
    x = r.x;
    constraints.values(x, g);
    const newViolation = maxOf(g);
    for (let i = 0; i < m; i++) lambda[i] = Math.max(0, lambda[i] + rho * g[i]);
    // Converged: feasible, and this round no longer changed the objective.
    const converged = newViolation <= tol && Math.abs(previousF - r.f) <= stationarityTolerance * Math.max(1, Math.abs(r.f));
    previousF = r.f;
    if (newViolation > tol && newViolation > 0.25 * violation) rho = Math.min(rho * 10, maxPenalty);
    violation = newViolation;
    if (converged) {
      outer++;
      break;
    }
  }
  const gradScratch = new Float64Array(x.length);
  const fx = f(x, gradScratch);
  evaluations++;
  return { x, f: fx, maxViolation: Math.max(0, violation), outerIterations: outer, innerIterations, evaluations, multipliers: lambda, penalty: rho };
}

function maxOf(a: Float64Array): number {
  let m = -Infinity;
  for (let i = 0; i < a.length; i++) if (a[i] > m) m = a[i];
  return a.length === 0 ? 0 : m;
}
