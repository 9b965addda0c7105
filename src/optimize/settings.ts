/**
 * Optimizer settings, their defaults and validation. The same object is part of a campaign task's
 * spec hash, so every field that changes a result lives here.
 */
import { InputError } from '../util/errors.js';
import { MOVES, type Move } from './moves.js';

export const OPTIMIZER_METHODS = ['gradient', 'random', 'hybrid', 'basin', 'global', 'population', 'none'] as const;
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
   * (globalSearch.ts); population: tuned lattice and boundary-grid starts plus structured ones,
   * each polished by the gradient method, evolved by moves and crossover (populationSearch.ts);
   * none: evaluate the initial layout only.
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
  /**
   * population: the starting layouts, one family each (the population's size is the list's
   * length): `lattice` and `boundary-grid` (tuned by a derivative-free search, populationSearch.ts),
   * or any `initial` kind. Default [lattice ×3, boundary-grid ×2, structured].
   */
  startFamilies?: string[];
  /** population: random lattice parameter vectors tried per lattice family (default 2000). */
  latticeSamples?: number;
  /** population: the best sampled lattices refined by Nelder–Mead (default 8). */
  latticeRefineCount?: number;
  /** population: AEP evaluations of each Nelder–Mead refinement (default 300). */
  latticeRefineEvaluations?: number;
  /** population: wake expansion factors of the polish of lattice starts (default [1]: wider wakes undo the lattice). */
  polishWec?: number[];
  /** population: how often each move is drawn (moves.ts names, plus `crossover`); relative weights. */
  moveWeights?: Record<string, number>;
  /**
   * population: search on the wind rose merged into at most this many direction sectors, then
   * polish the best layouts on the real rose (default 72; 0 = search on the real rose).
   */
  searchDirections?: number;
  /** population: best layouts polished on the real rose at the end when the search rose is merged (default 3). */
  finalPolish?: number;
  /**
   * population: after a move of a few turbines, polish only those and the turbines within this
   * many spacings of them (0: the whole farm; default 0); a new best is then polished whole.
   */
  localRadius?: number;
  /** population: L-BFGS iterations of the short screening polish of each child (0: no screening; default 30). */
  screenIterations?: number;
  /** population: a screened child gets the full polish when within this share of its parent's AEP (default 2e-4). */
  screenSlack?: number;
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
  startFamilies: string[];
  latticeSamples: number;
  latticeRefineCount: number;
  latticeRefineEvaluations: number;
  polishWec: number[];
  moveWeights: Partial<Record<PopulationMove, number>>;
  searchDirections: number;
  finalPolish: number;
  localRadius: number;
  screenIterations: number;
  screenSlack: number;
}

/** Moves of the population method: moves.ts's and crossover (two parents). */
export type PopulationMove = Move | 'crossover';
export const POPULATION_MOVES: readonly PopulationMove[] = [...MOVES, 'crossover'];
const DEFAULT_MOVE_WEIGHTS: Partial<Record<PopulationMove, number>> = {
  relocate: 0.15,
  relocateMany: 0.1,
  toBoundary: 0.05,
  toInterior: 0.05,
  shake: 0.05,
  swap: 0.1,
  transfer: 0.15,
  reseatRow: 0.1,
  shakeLocal: 0.15,
  crossover: 0.1,
};
const START_FAMILIES = ['lattice', 'boundary-grid', ...INITIAL_LAYOUTS.filter((k) => k !== 'given')];

const KNOWN = new Set([
  'method',
  'initial',
  'wec',
  'maxIterations',
  'outerIterations',
  'randomIterations',
  'randomStep',
  'randomFinalStep',
  'hops',
  'hopTurbines',
  'hopCandidates',
  'hopWec',
  'seedLayouts',
  'shakeStep',
  'workBudget',
  'restarts',
  'startFamilies',
  'latticeSamples',
  'latticeRefineCount',
  'latticeRefineEvaluations',
  'polishWec',
  'moveWeights',
  'searchDirections',
  'finalPolish',
  'localRadius',
  'screenIterations',
  'screenSlack',
]);

export function resolveSettings(s: OptimizerSettings): ResolvedSettings {
  if (!OPTIMIZER_METHODS.includes(s.method as OptimizerMethod)) {
    throw new InputError(`optimizer method: unknown '${s.method}' (known: ${OPTIMIZER_METHODS.join(', ')})`);
  }
  for (const key of Object.keys(s)) {
    if (!KNOWN.has(key)) throw new InputError(`optimizer settings: unknown field '${key}' (known: ${[...KNOWN].join(', ')})`);
  }
  const method = s.method as OptimizerMethod;
  const population = method === 'population';
  const searching = method === 'global' || population;
  // population makes its own starts: its `initial` layout is only the reference it never falls below.
  const initial = s.initial ?? (method === 'global' ? 'structured' : 'random');
  if (!INITIAL_LAYOUTS.includes(initial)) throw new InputError(`optimizer initial: unknown '${initial}' (known: ${INITIAL_LAYOUTS.join(', ')})`);
  const count = (name: string, v: unknown, def: number): number => {
    if (v === undefined) return def;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0)
      throw new InputError(`optimizer ${name}: expected a whole number >= 0, got ${JSON.stringify(v)}`);
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
  const startFamilies = s.startFamilies ?? ['lattice', 'lattice', 'lattice', 'boundary-grid', 'boundary-grid', 'structured'];
  if (!Array.isArray(startFamilies) || startFamilies.length === 0 || startFamilies.some((f) => !START_FAMILIES.includes(f))) {
    throw new InputError(`optimizer startFamilies: expected a non-empty list of ${START_FAMILIES.join(' | ')}, got ${JSON.stringify(s.startFamilies)}`);
  }
  const moveWeights = moveWeightsOf(s.moveWeights);
  return {
    method,
    initial,
    wec,
    maxIterations: count('maxIterations', s.maxIterations, 150),
    outerIterations: count('outerIterations', s.outerIterations, 8),
    randomIterations: count('randomIterations', s.randomIterations, method === 'random' ? 3000 : 1000),
    randomStep: positive('randomStep', s.randomStep, 1),
    randomFinalStep: positive('randomFinalStep', s.randomFinalStep, 0.01),
    hops: count('hops', s.hops, method === 'basin' ? 30 : method === 'global' ? 150 : population ? 1e9 : 0),
    hopTurbines: Math.max(1, count('hopTurbines', s.hopTurbines, 1)),
    hopCandidates: Math.max(1, count('hopCandidates', s.hopCandidates, 20)),
    hopWec: factors('hopWec', s.hopWec, population ? [1] : searching ? [1.5, 1] : [2, 1]),
    seedLayouts: Math.max(1, count('seedLayouts', s.seedLayouts, searching ? 4 : 1)),
    shakeStep: positive('shakeStep', s.shakeStep, 0.3),
    // The default global search is sized by work (about 10 s of one core on IEA37 cs1-16); when
    // hops are given, by them.
    workBudget: positive('workBudget', s.workBudget, searching && s.hops === undefined ? 7.5e8 : Infinity),
    restarts: Math.max(1, count('restarts', s.restarts, method === 'global' && s.hops === undefined ? 3 : 1)),
    startFamilies,
    latticeSamples: count('latticeSamples', s.latticeSamples, 2000),
    latticeRefineCount: count('latticeRefineCount', s.latticeRefineCount, 8),
    latticeRefineEvaluations: count('latticeRefineEvaluations', s.latticeRefineEvaluations, 300),
    polishWec: factors('polishWec', s.polishWec, [1]),
    moveWeights,
    searchDirections: count('searchDirections', s.searchDirections, population ? 72 : 0),
    finalPolish: Math.max(1, count('finalPolish', s.finalPolish, 3)),
    localRadius: s.localRadius === 0 ? 0 : positive('localRadius', s.localRadius, 0),
    screenIterations: count('screenIterations', s.screenIterations, 30),
    screenSlack: s.screenSlack === 0 ? 0 : positive('screenSlack', s.screenSlack, 2e-4),
  };
  function moveWeightsOf(v: unknown): Partial<Record<PopulationMove, number>> {
    if (v === undefined) return DEFAULT_MOVE_WEIGHTS;
    if (typeof v !== 'object' || v === null || Array.isArray(v))
      throw new InputError(`optimizer moveWeights: expected a mapping move → weight, got ${JSON.stringify(v)}`);
    const out: Partial<Record<PopulationMove, number>> = {};
    let total = 0;
    for (const [key, w] of Object.entries(v)) {
      const name = key.replace(/_([a-z])/g, (_m, ch: string) => ch.toUpperCase()) as PopulationMove;
      if (!POPULATION_MOVES.includes(name)) throw new InputError(`optimizer moveWeights: unknown move '${key}' (known: ${POPULATION_MOVES.join(', ')})`);
      if (typeof w !== 'number' || !(w >= 0) || !Number.isFinite(w))
        throw new InputError(`optimizer moveWeights.${key}: expected a number >= 0, got ${JSON.stringify(w)}`);
      out[name] = w;
      total += w;
    }
    if (!(total > 0)) throw new InputError(`optimizer moveWeights: at least one move needs a weight > 0`);
    return out;
  }
}
