/**
 * Optimizer settings, their defaults and validation. The same object is part of a campaign task's
 * spec hash, so every field that changes a result lives here.
 */
import { InputError } from '../util/errors.js';

export const OPTIMIZER_METHODS = ['gradient', 'random', 'hybrid', 'basin', 'global', 'none'] as const;
export type OptimizerMethod = (typeof OPTIMIZER_METHODS)[number];
export const INITIAL_LAYOUTS = ['random', 'grid', 'given', 'rings', 'hex', 'rows', 'greedy', 'structured'] as const;
export type InitialLayoutKind = (typeof INITIAL_LAYOUTS)[number];

export interface OptimizerSettings {
  /**
   * gradient: augmented Lagrangian + L-BFGS on the exact AEP gradient, with wake expansion
   * continuation; random: random search; hybrid: gradient, then random-search polish;
   * basin: gradient, then monotonic basin hopping (relocate turbines at random, re-optimize with
   * the gradient method, keep the result if the AEP rose); global: structured seeding (rings,
   * hexagonal, rows, greedy), the gradient method, then basin hopping with several kinds of move
   * (globalSearch.ts); none: evaluate the initial layout only.
   */
  method: OptimizerMethod | string;
  /**
   * Initial layout: random feasible from the seed (default; `structured` for method global), a
   * grid, the case's layout, a structured layout (rings, hex, rows), greedy sequential placement,
   * or `structured` (a family chosen by the seed).
   */
  initial?: InitialLayoutKind;
  /** Wake expansion factors, one stage each, ending at 1 (default [3, 2, 1.5, 1.25, 1]; Gaussian wakes only). */
  wec?: number[];
  /** L-BFGS iterations per augmented-Lagrangian round (default 150). */
  maxIterations?: number;
  /** Augmented-Lagrangian rounds per continuation stage, at most (default 8). */
  outerIterations?: number;
  /** Random-search proposals (default 3000 for random, 1000 for the hybrid polish). */
  randomIterations?: number;
  /** Random-search initial and final step, rotor diameters (defaults 1 and 0.01). */
  randomStep?: number;
  randomFinalStep?: number;
  /** Basin-hopping rounds (default 30). */
  hops?: number;
  /** Turbines relocated per hop (default 1). */
  hopTurbines?: number;
  /** Random spots tried per relocated turbine; the best by AEP is taken (default 20). */
  hopCandidates?: number;
  /** Wake expansion factors for each hop's re-optimization (default [2, 1]). */
  hopWec?: number[];
  /** global: starting layouts optimized before hopping, the best kept (default 4). */
  seedLayouts?: number;
  /** global: standard deviation of the shake move, rotor diameters (default 0.3). */
  shakeStep?: number;
  /**
   * global: work budget of the search: no further starting layout or hop begins once AEP
   * evaluations × turbines² × wind conditions reach it, so the default costs about the same time
   * on small and large farms. Default 7.5e8 (about 180 000 evaluations on IEA37 cs1-16, under 10 s
   * of one core; on cs1-64 or cs4 about one start per restart) when `hops` is not given, unlimited
   * when it is.
   */
  workBudget?: number;
  /** global: independent searches (seeding + hops), each with workBudget/restarts, the best kept (default 3 when `hops` is not given, else 1). */
  restarts?: number;
  [extra: string]: unknown;
}

export interface ResolvedSettings {
  method: OptimizerMethod;
  initial: InitialLayoutKind;
  wec: number[];
  maxIterations: number;
  outerIterations: number;
  randomIterations: number;
  randomStep: number;
  randomFinalStep: number;
  hops: number;
  hopTurbines: number;
  hopCandidates: number;
  hopWec: number[];
  seedLayouts: number;
  shakeStep: number;
  workBudget: number;
  restarts: number;
}

const KNOWN = new Set(['method', 'initial', 'wec', 'maxIterations', 'outerIterations', 'randomIterations', 'randomStep', 'randomFinalStep', 'hops', 'hopTurbines', 'hopCandidates', 'hopWec', 'seedLayouts', 'shakeStep', 'workBudget', 'restarts']);

export function resolveSettings(s: OptimizerSettings): ResolvedSettings {
  if (!OPTIMIZER_METHODS.includes(s.method as OptimizerMethod)) {
    throw new InputError(`optimizer method: unknown '${s.method}' (known: ${OPTIMIZER_METHODS.join(', ')})`);
  }
  for (const key of Object.keys(s)) {
    if (!KNOWN.has(key)) throw new InputError(`optimizer settings: unknown field '${key}' (known: ${[...KNOWN].join(', ')})`);
  }
  const method = s.method as OptimizerMethod;
  const searching = method === 'global';
  const initial = s.initial ?? (searching ? 'structured' : 'random');
  if (!INITIAL_LAYOUTS.includes(initial)) throw new InputError(`optimizer initial: unknown '${initial}' (known: ${INITIAL_LAYOUTS.join(', ')})`);
  const count = (name: string, v: unknown, def: number): number => {
    if (v === undefined) return def;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) throw new InputError(`optimizer ${name}: expected a whole number >= 0, got ${JSON.stringify(v)}`);
    return v;
  };
  const positive = (name: string, v: unknown, def: number): number => {
    if (v === undefined) return def;
    if (typeof v !== 'number' || !(v > 0) || !Number.isFinite(v)) throw new InputError(`optimizer ${name}: expected a number > 0, got ${JSON.stringify(v)}`);
    return v;
  };
  const factors = (name: string, v: unknown, def: number[]): number[] => {
    const list = v ?? def;
    if (!Array.isArray(list) || list.length === 0 || list.some((f) => typeof f !== 'number' || !(f >= 1) || !Number.isFinite(f))) {
      throw new InputError(`optimizer ${name}: expected a list of factors >= 1, got ${JSON.stringify(v)}`);
    }
    if (list[list.length - 1] !== 1) throw new InputError(`optimizer ${name}: the last factor must be 1 (the real wake model), got ${list[list.length - 1]}`);
    return list as number[];
  };
  const wec = factors('wec', s.wec, [3, 2, 1.5, 1.25, 1]);
  return {
    method, initial, wec,
    maxIterations: count('maxIterations', s.maxIterations, 150),
    outerIterations: count('outerIterations', s.outerIterations, 8),
    randomIterations: count('randomIterations', s.randomIterations, method === 'random' ? 3000 : 1000),
    randomStep: positive('randomStep', s.randomStep, 1),
    randomFinalStep: positive('randomFinalStep', s.randomFinalStep, 0.01),
    hops: count('hops', s.hops, method === 'basin' ? 30 : method === 'global' ? 150 : 0),
    hopTurbines: Math.max(1, count('hopTurbines', s.hopTurbines, 1)),
    hopCandidates: Math.max(1, count('hopCandidates', s.hopCandidates, 20)),
    hopWec: factors('hopWec', s.hopWec, searching ? [1.5, 1] : [2, 1]),
    seedLayouts: Math.max(1, count('seedLayouts', s.seedLayouts, searching ? 4 : 1)),
    shakeStep: positive('shakeStep', s.shakeStep, 0.3),
    // The default global search is sized by work (about 10 s of one core on IEA37 cs1-16); when
    // hops are given, by them.
    workBudget: positive('workBudget', s.workBudget, searching && s.hops === undefined ? 7.5e8 : Infinity),
    restarts: Math.max(1, count('restarts', s.restarts, searching && s.hops === undefined ? 3 : 1)),
  };
}
