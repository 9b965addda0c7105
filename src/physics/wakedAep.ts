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
import type { FarmModelSpec } from './farmModel.js';
import type { GaussianLocalWake } from './wake/gaussianLocal.js';
import type { TurbineMix } from './turbineMix.js';
import { allocateByDirection, defaultKernel, sumByDirection, type IsaChoice, type KernelChoice } from './nativeKernel.js';
import { createNativeWakedRunner } from './wakedNative.js';
import { evaluateWeightedSum, type WeightedSumSetup } from './superposition/weightedSum.js';
import { weightedSumGradient } from './superposition/weightedSumGradient.js';
import { InputError } from '../util/errors.js';
import { farmConflict, oneModelFarm } from './solvePlan.js';
import { FarmConflictError } from './farmConflictError.js';
import { wakedSetup, type WakedSetup } from './engine/wakedSetup.js';
import { createWorkspace, type Workspace } from './engine/workspace.js';
import { evaluateWaked, type WakedResult } from './engine/solveWaked.js';

/** A FarmEvaluator of aep.ts (same shape) with the pair count. */
export interface WakedEvaluator {
  readonly turbine: Turbine;
  readonly wind: WindResource;
  aep(x: Float64Array, y: Float64Array): WakedResult;
  aepWithGradient(x: Float64Array, y: Float64Array): WakedResult;
  /** Pair evaluations of the last call. */
  last(): number;
}

/**
 * The waked engine for a farm model: the native kernel (wakedNative.ts) where it covers the model's
 * options, else (or with kernel 'js') evaluateWaked above.
 */
export function createWakedEvaluator(turbine: Turbine, wind: WindResource, spec: FarmModelSpec, kernel: KernelChoice = defaultKernel(), isa: IsaChoice = 'best'): WakedEvaluator {
  if (spec.superposition === 'weighted') return weightedSumEvaluator(turbine, wind, spec);
  const setup = wakedSetup(turbine, wind, spec);
  const native = kernel === 'native' ? createNativeWakedRunner(turbine, wind, spec, setup, isa) : null;
  let scratch: Workspace | null = null;
  let lastPairs = 0;
  const nDir = wind.directionsDeg.length;
  const evaluate = (x: Float64Array, y: Float64Array, withGradient: boolean): WakedResult => {
    const n = x.length;
    if (y.length !== n) throw new Error(`layout has ${n} x but ${y.length} y coordinates`);
    if (native) {
      const out = allocateByDirection(native.rows?.count ?? nDir, n, withGradient);
      lastPairs = native.run(x, y, withGradient, out);
      return { ...sumByDirection(out, n, withGradient, native.rows, nDir), pairEvaluations: lastPairs };
    }
    if (!scratch || scratch.n !== n) scratch = createWorkspace(n, setup.model.coefficientCount, setup.turbulence !== null, setup.site !== null);
    const r = evaluateWaked(setup, x, y, withGradient, scratch);
    lastPairs = r.pairEvaluations;
    return r;
  };
  return {
    turbine, wind,
    aep: (x, y) => evaluate(x, y, false),
    aepWithGradient: (x, y) => evaluate(x, y, true),
    last: () => lastPairs,
  };
}

/** The weighted-sum setup (superposition/weightedSum.ts): a Gaussian model and the options of wakedSetup. */
export function weightedSumSetup(turbine: Turbine, wind: WindResource, spec: FarmModelSpec): WeightedSumSetup {
  const conflict = farmConflict(spec, oneModelFarm(turbine, wind));
  if (conflict) throw new FarmConflictError(conflict, spec);
  const setup = wakedSetup(turbine, wind, { ...spec, superposition: 'linear' });
  // A Gaussian model at the rotor centre with the sqrmax added turbulence: the weighted sum's declaration
  // (superposition/weightedSumCovers.ts), refused above by the solve plan, gives every Gaussian profile a GaussianLocalWake.
  return {
    turbine, wind, model: setup.model as GaussianLocalWake, turbulence: setup.turbulence, referenceIsEffective: setup.referenceIsEffective,
    useEffectiveTi: setup.useEffectiveTi, invWec: setup.invWec, cosByDir: setup.cosByDir, sinByDir: setup.sinByDir,
  };
}

function weightedSumEvaluator(turbine: Turbine, wind: WindResource, spec: FarmModelSpec): WakedEvaluator {
  const setup = weightedSumSetup(turbine, wind, spec);
  const evaluate = (x: Float64Array, y: Float64Array): WakedResult => {
    const r = evaluateWeightedSum(setup, x, y);
    return { aepMwh: r.aepMwh, perDirectionMwh: r.perDirectionMwh, perTurbineMwh: r.perTurbineMwh, gradX: new Float64Array(0), gradY: new Float64Array(0), pairEvaluations: 0 };
  };
  return {
    turbine, wind,
    aep: evaluate,
    // The AEP is the solve's own; the gradient replays it condition by condition (weightedSumGradient.ts).
    aepWithGradient: (x, y) => {
      const r = evaluateWeightedSum(setup, x, y);
      const g = weightedSumGradient(setup, x, y, r.iterations);
      return { aepMwh: r.aepMwh, perDirectionMwh: r.perDirectionMwh, perTurbineMwh: r.perTurbineMwh, gradX: g.gradX, gradY: g.gradY, pairEvaluations: 0 };
    },
    last: () => 0,
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
  turbines: Turbine | readonly Turbine[], spec: FarmModelSpec, x: Float64Array, y: Float64Array, directionDeg: number, speed: number,
  turbulenceIntensity: number, mix?: TurbineMix,
): TurbineFlow {
  const wind: WindResource = {
    directionsDeg: Float64Array.of(directionDeg), speeds: Float64Array.of(speed), probability: Float64Array.of(1), turbulenceIntensity,
  };
  if (spec.superposition === 'weighted') {
    const turbine = Array.isArray(turbines) ? turbines[0] as Turbine : turbines as Turbine;
    if (Array.isArray(turbines) && turbines.length > 1 || mix) throw new InputError("superposition 'weighted': one turbine model and no neighbours only");
    const r = evaluateWeightedSum(weightedSumSetup(turbine, wind, spec), x, y);
    return { wsEff: r.wsEff, ct: r.ct, ti: r.ti, powerW: r.wsEff.map((v) => powerAt(turbine, v)) };
  }
  return wakedFlowOf(wakedSetup(turbines, wind, spec), x, y, mix);
}

/** wakedFlow for a setup already made (its wind: the one direction and speed). */
export function wakedFlowOf(setup: WakedSetup, x: Float64Array, y: Float64Array, mix?: TurbineMix): TurbineFlow {
  const n = x.length;
  const ws = createWorkspace(n, setup.model.coefficientCount, setup.turbulence !== null, setup.site !== null);
  evaluateWaked(setup, x, y, false, ws, 0, 1, mix);
  const out: TurbineFlow = { wsEff: new Float64Array(n), ct: new Float64Array(n), ti: new Float64Array(n), powerW: new Float64Array(n) };
  for (let p = 0; p < n; p++) {
    const i = ws.order[p];
    out.wsEff[i] = ws.u[p]; out.ct[i] = ws.ct[p]; out.ti[i] = ws.ti[p]; out.powerW[i] = powerAt(setup.types[ws.typeAt[p]], ws.u[p]);
  }
  return out;
}
