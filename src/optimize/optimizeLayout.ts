/**
 * Optimize one layout: the case (turbine, wind, site, turbine count, spacing, wake model), the
 * optimizer settings and a seed give a bit-identical result on any machine (all randomness comes
 * from the seed; stopping is by counts and tolerances only).
 *
 * 'gradient': for each wake-expansion factor ξ (Thomas & Ning 2018; Gaussian wakes only) an
 * augmented-Lagrangian solve with L-BFGS, warm-started from the previous stage with its
 * multipliers (gradientStages.ts). 'global': the global search of globalSearch.ts (structured
 * starting layouts, each optimized by the gradient method, then basin hopping with several kinds
 * of move). 'population': tuned lattice starts and a population evolved by moves and crossover,
 * each child polished by the gradient method (populationSearch.ts). 'basin': one gradient run, then basin hopping with single-turbine relocations.
 * 'random': random search from the initial layout. 'hybrid': gradient, then random search as a
 * polish. Every returned layout passes checkFeasibility (1e-6 m); a method that ends
 * infeasible gets one repair pass (minimize the constraint violation alone), and if that fails the
 * optimization fails with InfeasibleEnd (permanent: it would end there again), naming the worst
 * turbine and where it is: an infeasible layout is never returned as a result.
 * Nor is one worse than a feasible start: then the start itself is returned.
 */
import type { IterationEvent } from './history.js';
import type { Case } from '../case/case.js';
import type { FarmEvaluator } from '../physics/aep.js';
import { pairMinimum, type SpacingRule } from '../geometry/pairSpacing.js';
import { caseEvaluator, caseSpacing } from './caseEvaluator.js';
import { prepareBoundary, type PreparedBoundary } from '../geometry/preparedBoundary.js';
import { checkFeasibility, worstWithPositions } from '../geometry/feasibility.js';
import { InfeasibleEnd } from './infeasibleEnd.js';
import { createRng, type Rng } from '../util/rng.js';
import { signedDistanceAt } from '../geometry/boundaryDistance.js';
import { RuntimeFailure } from '../util/errors.js';
import { gradientStages, repair } from './gradientStages.js';
import { globalSearch, type SearchProgress } from './globalSearch.js';
import { populationSearch, type PopulationProgress } from './populationSearch.js';
import { randomSearch } from './randomSearch.js';
import { initialLayout } from './initialLayout.js';
import { resolveSettings, type OptimizerSettings } from './settings.js';
import { InputError } from '../util/errors.js';
import { caseObjective, economicFigures, isEconomic, type EconomicFigures } from './economicObjective.js';
import { startHubHeight, withHubHeight } from './hubHeight.js';
import { UncablableLayout } from '../geometry/collection/index.js';
import { coincidentProblem } from '../geometry/coincidentPoints.js';

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
  /** Each turbine's model (index into the case's `turbines.types`); absent for a farm of one model. */
  typeOf?: Int32Array;
  /** Under a cost objective (lcoe, npv): the figures of the returned layout (from a final re-route of the cables). */
  economics?: EconomicFigures;
  /** Under a cost objective: the objective's value (LCOE or NPV) at the start layout. */
  objectiveInitial?: number;
  /** A farm that chose its models: why (typeChoice.ts). */
  typeChoice?: TypeChoiceReport;
  /** With the case's hubHeightRange: the hub height chosen (m), and where it started (hubHeight.ts). */
  hubHeight?: number;
  hubHeightInitial?: number;
  /** What the caller must be told about how the result came about (an optimized layout that could not be cabled). */
  notes?: string[];
}

/** Why a turbine_choice farm has the models it has: the objective, and per model figures at the returned positions. */
export interface TypeChoiceReport {
  objective: string;
  /** One line: what the objective compared and what won. */
  reason: string;
  perModel: {
    model: string;
    turbines: number;
    ratedMW: number;
    /** AEP of this model's turbines in the returned farm, MWh. */
    aepMwh: number;
    /** The objective's value (AEP MWh, LCOE or NPV) if every turbine were this model at the returned positions (spacing not checked). */
    objectiveIfAll: number;
  }[];
}

/** The case's minimum spacing as the feasibility tolerance allows. */
const FEASIBILITY_TOLERANCE_M = 1e-6;

/** Optional observers; they never change the result. */
export interface OptimizeHooks {
  /** Every seeding start and hop of the global method (benchmarks sample it with a clock). */
  onProgress?: (event: SearchProgress) => void;
  /** Every start, generation and final polish of the population method. */
  onPopulationProgress?: (event: PopulationProgress) => void;
  /** Each continuation stage of the gradient method (and of basin's first descent). */
  onGradientStage?: (event: { stage: number; stages: number; evaluations: number }) => void;
  /** Every L-BFGS iteration of the descents this function runs (gradient, basin, hybrid; history.ts), counts over the call. */
  onIteration?: (event: IterationEvent) => void;
}

/** Both sets of hooks, each event to both (a progress bar and a history recorder). */
export function combineHooks(a: OptimizeHooks, b: OptimizeHooks): OptimizeHooks {
  const out: OptimizeHooks = {};
  for (const key of ['onProgress', 'onPopulationProgress', 'onGradientStage', 'onIteration'] as const) {
    const f = a[key] as ((e: unknown) => void) | undefined,
      g = b[key] as ((e: unknown) => void) | undefined;
    if (f || g)
      (out as Record<string, (e: unknown) => void>)[key] =
        f && g
          ? (e) => {
              f(e);
              g(e);
            }
          : (f ?? g)!;
  }
  return out;
}

export function optimizeLayout(c: Case, settings: OptimizerSettings, seed: number, hooks: OptimizeHooks = {}): OptimizeResult {
  // The models of a turbine_choice farm are chosen around this function (optimizeCase.ts).
  if (c.turbines?.choice) throw new Error('optimizeLayout optimizes positions for given turbine models; a farm that chooses them goes through optimizeCase');
  const s = resolveSettings(settings);
  const economic = isEconomic(c);
  if (economic && s.method !== 'gradient' && s.method !== 'none') {
    throw new InputError(`optimizer method: '${s.method}' does not optimize objective '${caseObjective(c)}' yet; use method gradient (or none)`);
  }
  // The hub height as a variable (hubHeight.ts): the gradient method only; every evaluation below is at the current height.
  const hubStart = c.hubHeightRange ? startHubHeight(c, c.hubHeightRange) : null;
  if (hubStart !== null && s.method !== 'gradient' && s.method !== 'none') {
    throw new InputError(`optimizer method: '${s.method}' does not optimize the hub height (optimize.hub_height) yet; use method gradient (or none)`);
  }
  // `--objective lcoe` replaces the file's objective after the case file refused it (hubHeight.ts).
  if (hubStart !== null && economic)
    throw new InputError(
      `${c.name}: optimize.hub_height: not with objective '${caseObjective(c)}' yet (the cost model's tower cost depends on the hub height; its derivative is not wired): optimize the AEP`,
    );
  if (economic && !c.economics)
    throw new InputError(`${c.name}: objective: '${caseObjective(c)}' needs the case's economics (cost model, depth, substations, cables)`);
  let hub = hubStart;
  if (hubStart !== null) c = withHubHeight(c, hubStart);
  const site = c.boundary ? prepareBoundary(c.boundary) : null;
  const rng = createRng(seed);
  let evaluator = caseEvaluator(c);
  // One spacing, or with several turbine models each pair's (geometry/pairSpacing.ts); starting
  // layouts keep c.minSpacing, the largest, which every pair's rule accepts.
  const spacing = caseSpacing(c);
  const start = initialLayout(s.initial, site, c.nTurbines, c.minSpacing, rng, c.layout, evaluator);
  // Two given turbines at one point, or one on a substation, are refused, never repaired into a
  // "feasible" layout (coincidentPoints.ts).
  if (s.initial === 'given') {
    const points = coincidentProblem(start.x, start.y, c.economics?.substations ?? []);
    if (points) throw new InputError(`${c.name}: layout: ${points}`);
  }
  const notes: string[] = [];
  const aepInitial = evaluator.aep(start.x, start.y).aepMwh;
  let x: Float64Array = Float64Array.from(start.x),
    y: Float64Array = Float64Array.from(start.y);
  let iterations = 0,
    evaluations = 1;
  /** Descent stages run so far (history rows number them). */
  let stagesRun = 0;
  /** The history's observer of the next gradientStages call: its counts placed after what ran before it. */
  const nextDescent = () => {
    const onIteration = hooks.onIteration;
    if (!onIteration) return undefined;
    const it0 = iterations,
      ev0 = evaluations,
      st0 = stagesRun;
    return (e: IterationEvent) => onIteration({ ...e, iteration: it0 + e.iteration, evaluations: ev0 + e.evaluations, stage: st0 + e.stage });
  };

  /** Make (x, y) feasible or fail; returns the feasible layout. */
  const ensureFeasible = (lx: Float64Array, ly: Float64Array): { x: Float64Array; y: Float64Array } | null => {
    if (checkFeasibility(site, lx, ly, spacing, FEASIBILITY_TOLERANCE_M).feasible) return { x: lx, y: ly };
    const repaired = repair(site, lx, ly, spacing, c.turbine.diameter);
    evaluations += repaired.evaluations;
    return checkFeasibility(site, repaired.x, repaired.y, spacing, FEASIBILITY_TOLERANCE_M).feasible ? repaired : null;
  };
  /** The network the cost stage kept fixed while it moved the turbines (the final figures route from it). */
  let designNetwork: Int32Array | undefined;
  // A layout's economic figures (a routing and an AEP), by the layout's arrays and the network
  // start: the cost stage's comparison computes the final layout's, which are reported.
  const figuresMemo: { x: Float64Array; y: Float64Array; start: Int32Array | undefined; figures: EconomicFigures }[] = [];
  const figuresOf = (fx: Float64Array, fy: Float64Array, fstart?: Int32Array): EconomicFigures => {
    const known = figuresMemo.find((m) => m.x === fx && m.y === fy && m.start === fstart);
    if (known) return known.figures;
    const figures = economicFigures(c, fx, fy, undefined, fstart);
    figuresMemo.push({ x: fx, y: fy, start: fstart, figures });
    return figures;
  };
  /** figuresOf, or the reason the layout cannot be cabled (uncablable.ts). */
  const figuresOrWhy = (fx: Float64Array, fy: Float64Array, fstart?: Int32Array): EconomicFigures | UncablableLayout => {
    try {
      return figuresOf(fx, fy, fstart);
    } catch (err) {
      if (err instanceof UncablableLayout) return err;
      throw err;
    }
  };
  // A cost objective routes its start before any optimization: an uncablable start is reported
  // at once, naming the turbines, instead of after all the work (the figures are kept: the
  // comparison with the start at the end uses them). An AEP run needs no cables to optimize; its
  // report of the economics says at the end when the layout cannot be cabled.
  if (economic) {
    const atStart = figuresOrWhy(start.x, start.y);
    if (atStart instanceof UncablableLayout) {
      const what = s.initial === 'given' ? 'the given layout' : `the start layout (initial ${s.initial}, seed ${seed})`;
      throw new UncablableLayout(`${c.name}: ${what} cannot be cabled, so nothing was optimized: ${atStart.message}`, atStart.turbines);
    }
  }
  if (s.method === 'gradient' || s.method === 'hybrid' || s.method === 'basin') {
    const onStage =
      hooks.onGradientStage && ((stage: number, stages: number, used: number) => hooks.onGradientStage!({ stage, stages, evaluations: evaluations + used }));
    // Energy first, whatever the objective: the stages of wake expansion continuation on AEP (most
    // of LCOE and NPV; measured on the offshore cs4 example, docs/cost.md, the cost objective through
    // these stages alone ended at a higher LCOE than the AEP optimum did), then one restart stage on
    // AEP at the model's own wake (factor 1: the augmented Lagrangian afresh, multipliers zero, first
    // penalty), kept when it gives no less energy (bench section `restart`: a median 0–0.14 % more
    // AEP on cs1-16, cs1-36, cs3 for 10–30 % more time). Under a cost objective the cost stage
    // follows, from that energy optimum, with the cables re-routed per stage, kept when it is no
    // worse by the objective: so an LCOE (NPV) run is the AEP run of the same start and settings
    // plus one stage, and never ends worse by its objective than that AEP run's layout.
    const energyCase = economic ? { ...c, objective: 'aep' as const } : c;
    let r = gradientStages(energyCase, s.wec, s, site, x, y, aepInitial, null, onStage, hub, nextDescent());
    iterations += r.iterations;
    evaluations += r.evaluations;
    stagesRun += r.stages;
    if (r.h !== null) {
      hub = r.h;
      c = withHubHeight(c, hub);
      evaluator = caseEvaluator(c);
    }
    const continued = ensureFeasible(r.x, r.y);
    if (continued) {
      r = { ...r, ...continued };
      const again = gradientStages(
        economic ? { ...c, objective: 'aep' as const } : c,
        [1],
        s,
        site,
        continued.x,
        continued.y,
        aepInitial,
        null,
        onStage,
        hub,
        nextDescent(),
      );
      iterations += again.iterations;
      evaluations += again.evaluations;
      stagesRun += again.stages;
      const restarted = ensureFeasible(again.x, again.y);
      if (restarted) {
        const cAgain = again.h !== null ? withHubHeight(c, again.h) : c;
        const evAgain = again.h !== null ? caseEvaluator(cAgain) : evaluator;
        evaluations += 2;
        if (evAgain.aep(restarted.x, restarted.y).aepMwh >= evaluator.aep(continued.x, continued.y).aepMwh) {
          r = { ...r, ...restarted };
          if (again.h !== null) {
            hub = again.h;
            c = cAgain;
            evaluator = evAgain;
          }
        }
      }
      // The cost stage starts from the energy optimum's network: none when it cannot be cabled.
      const energyFigures = economic ? figuresOrWhy(r.x, r.y) : null;
      if (energyFigures instanceof UncablableLayout) {
        notes.push(`the energy optimum cannot be cabled (${energyFigures.message}); the cost stage did not run`);
      } else if (economic) {
        const energy = { x: r.x, y: r.y };
        const cost = gradientStages(c, [1], s, site, energy.x, energy.y, aepInitial, null, onStage, null, nextDescent());
        iterations += cost.iterations;
        evaluations += cost.evaluations;
        stagesRun += cost.stages;
        const costed = ensureFeasible(cost.x, cost.y);
        if (costed) {
          evaluations += 2;
          // The cost stage moved the turbines with its network fixed: that network (re-checked and
          // polished at the new positions, or the router's own if cheaper) is the design's.
          const stageNetwork = cost.network?.parent;
          const before = figuresOf(energy.x, energy.y).value,
            after = figuresOf(costed.x, costed.y, stageNetwork).value;
          if (caseObjective(c) === 'lcoe' ? after <= before : after >= before) {
            r = { ...r, ...costed };
            designNetwork = stageNetwork;
          }
        }
      }
    }
    const feasible = ensureFeasible(r.x, r.y);
    if (!feasible) {
      const report = checkFeasibility(site, r.x, r.y, spacing, FEASIBILITY_TOLERANCE_M);
      throw new InfeasibleEnd(`optimizer (${s.method}, seed ${seed}) ended with an infeasible layout: ${worstWithPositions(report, r.x, r.y)}`);
    }
    x = feasible.x;
    y = feasible.y;
  }
  if (s.method === 'global') {
    if (!site) throw new RuntimeFailure(`optimizer global needs a site boundary`);
    const r = globalSearch({ c, s, site: site!, evaluator, rng, aepRef: aepInitial, ensureFeasible, onProgress: hooks.onProgress }, { x, y });
    iterations += r.iterations;
    evaluations += r.evaluations;
    x = r.x;
    y = r.y;
  }
  if (s.method === 'population') {
    if (!site) throw new RuntimeFailure(`optimizer population needs a site boundary`);
    const r = populationSearch({ c, s, site, rng, aepRef: aepInitial, ensureFeasible, onProgress: hooks.onPopulationProgress });
    iterations += r.iterations;
    evaluations += r.evaluations;
    x = r.x;
    y = r.y;
  }
  if (s.method === 'basin' && s.hops > 0 && site) {
    let bestAep = evaluator.aep(x, y).aepMwh;
    evaluations++;
    for (let hop = 0; hop < s.hops; hop++) {
      const trial = relocate(site, evaluator, x, y, s.hopTurbines, s.hopCandidates, spacing, rng);
      if (!trial) continue;
      evaluations += trial.evaluations;
      const r = gradientStages(c, s.hopWec, s, site, trial.x, trial.y, aepInitial, null, undefined, null, nextDescent());
      iterations += r.iterations;
      evaluations += r.evaluations;
      stagesRun += r.stages;
      const feasible = ensureFeasible(r.x, r.y);
      if (!feasible) continue;
      const trialAep = evaluator.aep(feasible.x, feasible.y).aepMwh;
      evaluations++;
      const accepted = trialAep > bestAep;
      if (accepted) {
        bestAep = trialAep;
        x = feasible.x;
        y = feasible.y;
      }
      hooks.onProgress?.({ hop, move: 'relocate', trialAep, bestAep, accepted, evaluations, done: (hop + 1) / s.hops });
    }
  }
  let report = checkFeasibility(site, x, y, spacing, FEASIBILITY_TOLERANCE_M);
  if (!report.feasible) {
    const feasible = ensureFeasible(x, y);
    if (!feasible) throw new InfeasibleEnd(`optimizer (${s.method}, seed ${seed}) ended with an infeasible layout: ${worstWithPositions(report, x, y)}`);
    x = feasible.x;
    y = feasible.y;
  }
  if (s.method === 'random' || s.method === 'hybrid') {
    const r = randomSearch(evaluator, site, x, y, rng, {
      iterations: s.randomIterations,
      minSpacing: spacing,
      initialStep: s.randomStep * c.turbine.diameter,
      finalStep: s.randomFinalStep * c.turbine.diameter,
    });
    x = r.x;
    y = r.y;
    iterations += s.randomIterations;
    evaluations += r.evaluations;
  }
  let aep = evaluator.aep(x, y).aepMwh;
  let economics: EconomicFigures | undefined, objectiveInitial: number | undefined;
  const startFeasible = () => checkFeasibility(site, start.x, start.y, spacing, FEASIBILITY_TOLERANCE_M).feasible;
  if (economic) {
    // Never return a worse objective than a feasible start; both from a fresh routing. A layout
    // that cannot be cabled is worse than any that can: then the (cabled) start is the result, said
    // so in a note, or, with an infeasible start, the failure names the turbines.
    const atEnd = figuresOrWhy(x, y, designNetwork);
    const atStart = figuresOf(start.x, start.y);
    objectiveInitial = atStart.value;
    evaluations += 2;
    if (atEnd instanceof UncablableLayout) {
      if (!startFeasible())
        throw new UncablableLayout(
          `${c.name}: the optimized layout (${s.method}, seed ${seed}) cannot be cabled and the start it came from is infeasible: ${atEnd.message}`,
          atEnd.turbines,
        );
      notes.push(`the optimized layout cannot be cabled (${atEnd.message}); the start layout, which can, is returned`);
    }
    economics = atEnd instanceof UncablableLayout ? atStart : atEnd;
    const worse = economics.objective === 'lcoe' ? economics.value > atStart.value : economics.value < atStart.value;
    if ((worse || atEnd instanceof UncablableLayout) && startFeasible()) {
      x = Float64Array.from(start.x);
      y = Float64Array.from(start.y);
      aep = aepInitial;
      economics = atStart;
    }
  } else {
    if (aep < aepInitial && startFeasible()) {
      // Never return less than a feasible start (a short or unconverged run can end below it).
      x = Float64Array.from(start.x);
      y = Float64Array.from(start.y);
      aep = aepInitial;
      hub = hubStart;
    }
    // A case with economics reports them for an AEP-optimized layout too (what the AEP choice costs).
    // A layout that cannot be cabled is still the AEP result: reported without economics, with the reason.
    if (c.economics) {
      const f = figuresOrWhy(x, y);
      if (f instanceof UncablableLayout) notes.push(`no economics: the layout cannot be cabled (${f.message})`);
      else {
        economics = { ...f, value: aep };
        objectiveInitial = aepInitial;
      }
    }
  }
  // The reported AEP is the evaluator's (the cost figures summed it by turbine: the same to the last bits).
  if (economics) economics = { ...economics, aepMwh: aep };
  report = checkFeasibility(site, x, y, spacing, FEASIBILITY_TOLERANCE_M);
  return {
    x,
    y,
    xInitial: start.x,
    yInitial: start.y,
    aep,
    aepInitial,
    iterations,
    evaluations: evaluations + 1,
    feasible: report.feasible,
    maxViolationM: report.maxViolationM,
    ...(c.turbines ? { typeOf: Int32Array.from(c.turbines.typeOf) } : {}),
    ...(economics ? { economics, objectiveInitial } : {}),
    ...(hub !== null ? { hubHeight: hub, hubHeightInitial: hubStart! } : {}),
    ...(notes.length > 0 ? { notes } : {}),
  };
}

/**
 * A basin-hopping move: take `count` turbines (each the least productive one or a random one,
 * even odds) and put each at the best of `candidates` random spots inside the site that keep the
 * minimum spacing (best by AEP with the real wake model). Null when no spot was found.
 */
function relocate(
  site: PreparedBoundary,
  evaluator: FarmEvaluator,
  x0: Float64Array,
  y0: Float64Array,
  count: number,
  candidates: number,
  minSpacing: SpacingRule,
  rng: Rng,
): { x: Float64Array; y: Float64Array; evaluations: number } | null {
  const x = Float64Array.from(x0),
    y = Float64Array.from(y0);
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
    let bestX = NaN,
      bestY = NaN,
      bestAep = -Infinity;
    let found = 0;
    for (let attempt = 0; attempt < 200 * candidates && found < candidates; attempt++) {
      const px = rng.uniform(box.minX, box.maxX),
        py = rng.uniform(box.minY, box.maxY);
      if (signedDistanceAt(site, px, py, grad2) < 0) continue;
      let clear = true;
      for (let j = 0; j < n && clear; j++) {
        if (j === i) continue;
        const sij = pairMinimum(minSpacing, i, j);
        if ((px - x[j]) ** 2 + (py - y[j]) ** 2 < sij * sij) clear = false;
      }
      if (!clear) continue;
      found++;
      const ox = x[i],
        oy = y[i];
      x[i] = px;
      y[i] = py;
      const aep = candidates > 1 ? evaluator.aep(x, y).aepMwh : 0;
      if (candidates > 1) evaluations++;
      x[i] = ox;
      y[i] = oy;
      if (aep > bestAep) {
        bestAep = aep;
        bestX = px;
        bestY = py;
      }
    }
    if (found === 0) return null;
    x[i] = bestX;
    y[i] = bestY;
  }
  return { x, y, evaluations };
}
