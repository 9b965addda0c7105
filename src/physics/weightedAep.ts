/**
 * The gradient of a per-turbine weighted AEP, Σ_i w_i · AEP_i, for any weights: the waked solve
 * (engine/solveWaked.ts) with the weighted term (engine/weightedAepTerm.ts) over the farm's own
 * turbines followed by its fixed neighbours, each with its type (turbineMix.ts) — the solve the
 * mixed-farm engine (mixedFarm.ts) runs, from the same solve plan's model (solvePlan.ts), so
 * its per-turbine energy is that engine's. An economic objective whose ∂J/∂AEP_i differs between
 * turbines takes its energy term's gradient from here (optimize/economicObjective.ts). The weighted
 * sum and blockage are one-model engines of their own their declarations refuse the need. Where
 * the plan names the native kernel (one turbine model, no neighbours, options it covers) the kernel
 * takes the weights (wakedNative.ts: its adjoint seeded with w_i·P·∂power/∂u) and gives the same
 * gradient to rounding; the weighted energy is then Σ_i w_i·AEP_i of its energies by turbine.
 */
import type { Turbine } from './turbine.js';
import type { WindResource } from './windResource.js';
import type { FarmModelSpec } from './farmModel.js';
import { solvePlan, wakedKernelOf } from './solvePlan.js';
import type { KernelKind } from './solvePlanTypes.js';
import { wakedSetup } from './engine/wakedSetup.js';
import { createWakedWorkspace, type Workspace } from './engine/workspace.js';
import { solveWaked } from './engine/solveWaked.js';
import { WeightedAepTerm } from './engine/weightedAepTerm.js';
import type { NeighbourTurbines } from './mixedFarm.js';
import { createNativeWakedRunner, type NativeWakedRunner } from './wakedNative.js';
import { allocateByDirection, sumByDirection } from './nativeKernel.js';

export interface WeightedAepResult {
  /** Σ_i w_i · AEP_i over the own turbines. */
  weightedMwh: number;
  /** AEP by own turbine, MWh. */
  perTurbineMwh: Float64Array;
  /** ∂(Σ w_i AEP_i)/∂x_i, ∂/∂y_i of the own turbines, per metre. */
  gradX: Float64Array;
  gradY: Float64Array;
}

export type WeightedAepEvaluator = (x: Float64Array, y: Float64Array, typeOf: Int32Array, weights: Float64Array) => WeightedAepResult;

/** `kernel`: the one asked for (default the environment's, WFLO_KERNEL); the plan may still choose JavaScript. */
export function createWeightedAepEvaluator(
  types: readonly Turbine[],
  wind: WindResource,
  model: FarmModelSpec,
  neighbours: NeighbourTurbines | null = null,
  kernel?: KernelKind,
): WeightedAepEvaluator {
  const nb = neighbours && neighbours.x.length > 0 ? neighbours : null;
  // The weighted sum and blockage, one-model solvers, refuse a per-turbine weighted gradient (their declarations).
  const farm = { types, neighbours: nb !== null, wind };
  const plan = solvePlan(farm, model, { perTurbineWeights: true, kernel });
  const setup = wakedSetup(types, wind, plan.model);
  // The waked solve whichever solver the plan names (a free-stream farm's too, its inflow resolved by the plan), on the kernel the plan gives the waked solve.
  const native = wakedKernelOf(plan, farm) === 'native' ? createNativeWakedRunner(types[0], wind, plan.model, setup) : null;
  if (native !== null) return nativeWeighted(native, wind.directionsDeg.length);
  const nNb = nb ? nb.x.length : 0;
  let ws: Workspace | null = null;
  return (x, y, typeOf, weights) => {
    const own = x.length;
    const n = own + nNb;
    const xAll = new Float64Array(n),
      yAll = new Float64Array(n),
      tAll = new Int32Array(n);
    xAll.set(x);
    yAll.set(y);
    tAll.set(typeOf);
    if (nb) {
      xAll.set(nb.x, own);
      yAll.set(nb.y, own);
      tAll.set(nb.typeOf, own);
    }
    if (!ws || ws.n !== n) ws = createWakedWorkspace(setup, n);
    const term = new WeightedAepTerm(weights, wind.hoursPerYear);
    const r = solveWaked(setup, xAll, yAll, ws, { withGradient: true, mix: { typeOf: tAll, own } }, term);
    return { weightedMwh: term.weightedMwh, perTurbineMwh: term.perTurbineMwh.slice(0, own), gradX: r.gradX.slice(0, own), gradY: r.gradY.slice(0, own) };
  };
}

/** The weighted evaluator on the native kernel (one turbine model, no neighbours: typeOf is all 0). */
function nativeWeighted(runner: NativeWakedRunner, nDir: number): WeightedAepEvaluator {
  return (x, y, _typeOf, weights) => {
    const n = x.length;
    const out = allocateByDirection(nDir, n, true);
    runner.run(x, y, true, out, 0, nDir, weights);
    const r = sumByDirection(out, n, true);
    let weightedMwh = 0;
    for (let i = 0; i < n; i++) weightedMwh += weights[i] * r.perTurbineMwh[i];
    return { weightedMwh, perTurbineMwh: r.perTurbineMwh, gradX: r.gradX, gradY: r.gradY };
  };
}
