/**
 * The waked-inflow engine as a farm evaluator: AEP and its exact gradient with respect to every
 * turbine coordinate from the waked solve (engine/solveWaked.ts: PyWake's PropagateDownwind), on
 * the native kernel (wakedNative.ts) where it covers the model's options, else in JavaScript; the
 * weighted-sum superposition (superposition/weightedSum.ts), which is a solve of its own; and the
 * flow of one condition for checks against other tools.
 *
 * For each wind direction the layout is rotated into the wind frame and the turbines are sorted by
 * downstream distance. For each speed U with probability p, turbines are solved in that order;
 * turbine j sees
 *
 *   u_j  = U − S_i( r_i · δ_i(dx_ij, dy_ij; Ct_i, TI_i) )       over the turbines i before j
 *   TI_j = TI₀ ⊕ added turbulence I₊_ij                          (turbulence/crespoHernandez.ts)
 *   Ct_j = Ct(u_j),   P_j = P(u_j)
 *
 *   AEP = 8760 h · 1e-6 · Σ_d Σ_s p_ds Σ_j P(u_j)    [MWh]   (engine/objective.ts AepTerm)
 *
 * Several turbine types (turbineMix.ts): one wake model per (source type, target type) pair, built
 * with the source's diameter and the target's rotor radius; hub heights enter as PyWake's: a pair's
 * crosswind distance is cw = √(dy² + dz²) with dz = h_target − h_source. Turbines past `mix.own`
 * are fixed neighbours: they see and cast wakes like any other, but their power is not part of the
 * AEP (it is reported per neighbour) and they seed no adjoint.
 */
import { powerAt, type Turbine } from './turbine.js';
import type { WindResource } from './windResource.js';
import { windConditions } from './windConditions.js';
import type { FarmModelSpec } from './farmModel.js';
import type { GaussianLocalWake } from './wake/gaussianLocal.js';
import type { TurbineMix } from './turbineMix.js';
import { allocateByDirection, sumByDirection, type ByDirection, type IsaChoice } from './nativeKernel.js';
import { createNativeWakedRunner, type NativeWakedRunner } from './wakedNative.js';
import { evaluateWeightedSum, type WeightedSumSetup } from './superposition/weightedSum.js';
import { weightedSumGradient } from './superposition/weightedSumGradient.js';
import { farmConflict, oneModelFarm, solvePlan } from './solvePlan.js';
import type { SolvePlan } from './solvePlanTypes.js';
import { FarmConflictError } from './farmConflictError.js';
import { wakedSetup, type WakedSetup } from './engine/wakedSetup.js';
import { createWorkspace, type Workspace } from './engine/workspace.js';
import { evaluateWaked, type WakedResult } from './engine/solveWaked.js';

/** A FarmEvaluator of aep.ts (same shape) with the pair count. */
export interface WakedEvaluator {
  readonly turbine: Turbine;
  readonly wind: WindResource;
  /** The solve plan the evaluator was built from (solvePlan.ts). */
  readonly plan: SolvePlan;
  aep(x: Float64Array, y: Float64Array): WakedResult;
  aepWithGradient(x: Float64Array, y: Float64Array): WakedResult;
  /** Pair evaluations of the last call. */
  last(): number;
  /** The evaluator of the same farm with the turbine at hub height h (the native kernel's shares its configuration: wakedNative.ts). */
  atHubHeight?(h: number): WakedEvaluator;
}

/**
 * The waked engine for a plan whose solver is the waked solve: the native kernel (wakedNative.ts)
 * when the plan names it, else evaluateWaked above.
 */
export function createWakedEvaluator(turbine: Turbine, wind: WindResource, plan: SolvePlan, isa: IsaChoice = 'best'): WakedEvaluator {
  const spec = plan.model;
  const setup = wakedSetup(turbine, wind, spec);
  const native = plan.kernel === 'native' ? createNativeWakedRunner(turbine, wind, spec, setup, isa) : null;
  if (native) return nativeWakedEvaluator(turbine, wind, plan, native, setup.site !== null);
  let scratch: Workspace | null = null;
  let lastPairs = 0;
  const evaluate = (x: Float64Array, y: Float64Array, withGradient: boolean): WakedResult => {
    const n = x.length;
    if (y.length !== n) throw new Error(`layout has ${n} x but ${y.length} y coordinates`);
    if (!scratch || scratch.n !== n) scratch = createWorkspace(n, setup.model.coefficientCount, setup.turbulence !== null, setup.site !== null);
    const r = evaluateWaked(setup, x, y, withGradient, scratch);
    lastPairs = r.pairEvaluations;
    return r;
  };
  return {
    turbine,
    wind,
    plan,
    aep: (x, y) => evaluate(x, y, false),
    aepWithGradient: (x, y) => evaluate(x, y, true),
    last: () => lastPairs,
    // The setup holds the turbine's hub height (the site is sampled at it): a new one.
    atHubHeight: (h) => createWakedEvaluator({ ...turbine, hubHeight: h }, wind, plan, isa),
  };
}

/** Rows by direction of a native waked evaluator: scratch (summed into fresh arrays), reused from call to call and by its evaluators at other hub heights. */
interface NativeRows {
  rows: ByDirection | null;
  gradient: boolean;
}

const NO_ROWS = new Float64Array(0);

/** The waked evaluator over a native runner: every direction, summed in direction order (nativeKernel.ts sumByDirection). */
function nativeWakedEvaluator(
  turbine: Turbine,
  wind: WindResource,
  plan: SolvePlan,
  native: NativeWakedRunner,
  onSite: boolean,
  scratch: NativeRows = { rows: null, gradient: false },
): WakedEvaluator {
  let lastPairs = 0;
  const nDir = wind.directionsDeg.length;
  const evaluate = (x: Float64Array, y: Float64Array, withGradient: boolean): WakedResult => {
    const n = x.length;
    if (y.length !== n) throw new Error(`layout has ${n} x but ${y.length} y coordinates`);
    // A time series: a row per sample direction (native.rows), summed into the summary rose's directions.
    const nRows = native.rows?.count ?? nDir;
    if (!scratch.rows || scratch.rows.perTurbineByDir.length !== nRows * n || (withGradient && !scratch.gradient)) {
      // On a site the gradient includes ∂AEP/∂h_i, as the JavaScript engine's does (engine/siteWork.ts).
      scratch.rows = allocateByDirection(nRows, n, withGradient, onSite);
      scratch.gradient = withGradient;
    }
    const rows = scratch.rows;
    // Without the gradient the kernel neither reads nor writes the gradient rows: empty ones, shared.
    const out: ByDirection = {
      perDirectionMwh: rows.perDirectionMwh,
      perTurbineByDir: rows.perTurbineByDir,
      gradXByDir: withGradient ? rows.gradXByDir : NO_ROWS,
      gradYByDir: withGradient ? rows.gradYByDir : NO_ROWS,
      ...(withGradient && rows.gradHByDir ? { gradHByDir: rows.gradHByDir } : {}),
    };
    lastPairs = native.run(x, y, withGradient, out);
    // The energy by direction is a copy: the rows are the next call's.
    const sums = sumByDirection(out, n, withGradient, native.rows, nDir);
    return { ...sums, perDirectionMwh: native.rows ? sums.perDirectionMwh : rows.perDirectionMwh.slice(), pairEvaluations: lastPairs };
  };
  return {
    turbine,
    wind,
    plan,
    aep: (x, y) => evaluate(x, y, false),
    aepWithGradient: (x, y) => evaluate(x, y, true),
    last: () => lastPairs,
    atHubHeight: (h) => nativeWakedEvaluator({ ...turbine, hubHeight: h }, wind, plan, native.atHubHeight(h), onSite, scratch),
  };
}

/** The weighted-sum setup (superposition/weightedSum.ts): a Gaussian model and the options of wakedSetup. */
export function weightedSumSetup(turbine: Turbine, windGiven: WindResource, spec: FarmModelSpec): WeightedSumSetup {
  const conflict = farmConflict(spec, oneModelFarm(turbine, windGiven));
  if (conflict) throw new FarmConflictError(conflict, spec);
  const { wind, speedOf } = weightedSumWind(windGiven);
  const setup = wakedSetup(turbine, wind, { ...spec, superposition: 'linear' });
  // A Gaussian model at the rotor centre with the sqrmax added turbulence: the weighted sum's declaration
  // (superposition/weightedSumCovers.ts), refused above by the solve plan, gives every Gaussian profile a GaussianLocalWake.
  return {
    turbine,
    wind,
    model: setup.model as GaussianLocalWake,
    turbulence: setup.turbulence,
    referenceIsEffective: setup.referenceIsEffective,
    useEffectiveTi: setup.useEffectiveTi,
    invWec: setup.invWec,
    cosByDir: setup.cosByDir,
    sinByDir: setup.sinByDir,
    site: setup.site,
    weibullBins: setup.weibullBins,
    speedOf,
  };
}

/**
 * The wind as the weighted sum takes it: a rose as it is; a time series as a rose of one "speed"
 * whose directions are its samples (in the solve's order, windConditions.ts: by direction, then time),
 * each with its weight as probability and its TI as the bin's, and the samples' speeds beside
 * (WeightedSumSetup.speedOf). Every sample is solved in lockstep with the others, as PyWake's
 * `time=True` call solves them together (the U_c iteration count shared). `resultDirection` maps
 * each sample to the series' summary rose direction (perDirectionMwh).
 */
export function weightedSumWind(wind: WindResource): { wind: WindResource; speedOf: Float64Array | null; resultDirection: Int32Array | null } {
  if (!wind.series) return { wind, speedOf: null, resultDirection: null };
  const c = windConditions(wind);
  const directionsDeg = new Float64Array(c.count),
    resultDirection = new Int32Array(c.count);
  for (let d = 0; d < c.directionsDeg.length; d++) {
    for (let k = c.start[d]; k < c.start[d + 1]; k++) {
      directionsDeg[k] = c.directionsDeg[d];
      resultDirection[k] = c.resultDirection[d];
    }
  }
  const rose: WindResource = {
    directionsDeg,
    speeds: Float64Array.of(0),
    probability: Float64Array.from(c.weight),
    turbulenceIntensity: wind.turbulenceIntensity,
    turbulenceIntensityByBin: Float64Array.from(c.turbulenceIntensity),
    hoursPerYear: wind.hoursPerYear,
  };
  return { wind: rose, speedOf: Float64Array.from(c.speed), resultDirection };
}

/** The weighted-sum solve (superposition/weightedSum.ts) for a plan whose solver is the weighted sum. */
export function createWeightedSumEvaluator(turbine: Turbine, wind: WindResource, plan: SolvePlan): WakedEvaluator {
  const setup = weightedSumSetup(turbine, wind, plan.model);
  // A time series: the samples' energies summed into the series' summary rose directions.
  const { resultDirection } = weightedSumWind(wind);
  const byDirection = (perSample: Float64Array): Float64Array => {
    if (resultDirection === null) return perSample;
    const out = new Float64Array(wind.directionsDeg.length);
    perSample.forEach((v, k) => {
      out[resultDirection[k]] += v;
    });
    return out;
  };
  const evaluate = (x: Float64Array, y: Float64Array): WakedResult => {
    const r = evaluateWeightedSum(setup, x, y);
    return {
      aepMwh: r.aepMwh,
      perDirectionMwh: byDirection(r.perDirectionMwh),
      perTurbineMwh: r.perTurbineMwh,
      gradX: new Float64Array(0),
      gradY: new Float64Array(0),
      pairEvaluations: 0,
    };
  };
  return {
    turbine,
    wind,
    plan,
    aep: evaluate,
    // The AEP is the solve's own; the gradient replays it condition by condition (weightedSumGradient.ts).
    aepWithGradient: (x, y) => {
      const r = evaluateWeightedSum(setup, x, y);
      const g = weightedSumGradient(setup, x, y, r.iterations);
      return {
        aepMwh: r.aepMwh,
        perDirectionMwh: byDirection(r.perDirectionMwh),
        perTurbineMwh: r.perTurbineMwh,
        gradX: g.gradX,
        gradY: g.gradY,
        pairEvaluations: 0,
      };
    },
    last: () => 0,
    atHubHeight: (h) => createWeightedSumEvaluator({ ...turbine, hubHeight: h }, wind, plan),
  };
}

/** Flow at every turbine for one wind direction and speed (for checks against other tools). */
export interface TurbineFlow {
  wsEff: Float64Array;
  ct: Float64Array;
  ti: Float64Array;
  powerW: Float64Array;
}

export function wakedFlow(
  turbines: Turbine | readonly Turbine[],
  spec: FarmModelSpec,
  x: Float64Array,
  y: Float64Array,
  directionDeg: number,
  speed: number,
  turbulenceIntensity: number,
  mix?: TurbineMix,
): TurbineFlow {
  const wind: WindResource = {
    directionsDeg: Float64Array.of(directionDeg),
    speeds: Float64Array.of(speed),
    probability: Float64Array.of(1),
    turbulenceIntensity,
  };
  const types: readonly Turbine[] = Array.isArray(turbines) ? turbines : [turbines as Turbine];
  // The weighted sum is a solve of its own; every other plan's flow is the waked solve's with the model as given.
  const plan = solvePlan({ types, neighbours: mix !== undefined && mix.own < x.length, wind }, spec, { conditionFlows: true });
  if (plan.solver === 'weighted-sum') {
    const r = evaluateWeightedSum(weightedSumSetup(types[0], wind, spec), x, y);
    return { wsEff: r.wsEff, ct: r.ct, ti: r.ti, powerW: r.wsEff.map((v) => powerAt(types[0], v)) };
  }
  return wakedFlowOf(wakedSetup(types, wind, spec), x, y, mix);
}

/** wakedFlow for a setup already made (its wind: the one direction and speed). */
export function wakedFlowOf(setup: WakedSetup, x: Float64Array, y: Float64Array, mix?: TurbineMix): TurbineFlow {
  const n = x.length;
  const ws = createWorkspace(n, setup.model.coefficientCount, setup.turbulence !== null, setup.site !== null);
  evaluateWaked(setup, x, y, false, ws, 0, 1, mix);
  const out: TurbineFlow = { wsEff: new Float64Array(n), ct: new Float64Array(n), ti: new Float64Array(n), powerW: new Float64Array(n) };
  for (let p = 0; p < n; p++) {
    const i = ws.order[p];
    out.wsEff[i] = ws.u[p];
    out.ct[i] = ws.ct[p];
    out.ti[i] = ws.ti[p];
    out.powerW[i] = powerAt(setup.types[ws.typeAt[p]], ws.u[p]);
  }
  return out;
}
