/**
 * AEP of a farm whose turbines are not all one model, or which has fixed neighbouring turbines:
 * the waked-inflow engine (wakedAep.ts) over the farm's own turbines followed by the neighbours,
 * with each turbine's type (turbineMix.ts).
 *
 * - Own turbines: positions are the layout (and the gradient's variables); their energy is the AEP.
 * - Neighbours: fixed positions given once; they wake the farm and are waked by it (their Ct, and
 *   so their wake, follows the speed they see), but their energy is not the AEP and their
 *   positions have no gradient. The loss the farm causes them is their energy alone minus their
 *   energy beside the farm (`neighbourLoss`).
 *
 *   AEP_own = 8760 h · 1e-6 · Σ_d Σ_s p_ds Σ_{j own} P_type(j)(u_j)      [MWh]
 *
 * The exact gradient of AEP_own with respect to the own turbines' coordinates comes from the same
 * reverse pass as the one-type engine's: neighbours seed no adjoint of their own but carry the
 * adjoints of the own turbines they wake back to the own turbines that wake them.
 *
 * The inflow solve is the one the model resolves to for these types (any tabulated-Ct type, or a
 * model only the waked engine has, gives `waked`; else `free-stream`: solvePlan.ts; engine/freeStreamCovers.ts inflowOf).
 * Farms of several models or with neighbours run on the JavaScript waked engine
 * (wakedAep.ts's evaluateWaked), or with a blockage model on the blockage solve over the same
 * turbines (blockageSolve.ts: neighbours solved in its fixed point, left out of the AEP); the
 * native kernel (nativeKernel.ts) keeps the one-model, no-neighbour farms.
 */
import type { Turbine } from './turbine.js';
import type { WindResource } from './windResource.js';
import type { FarmModelSpec } from './farmModel.js';
import { solvePlan } from './solvePlan.js';
import type { SolveNeeds, SolvePlan } from './solvePlanTypes.js';
import { wakedSetup, type WakedSetup } from './engine/wakedSetup.js';
import { createWakedWorkspace, type Workspace } from './engine/workspace.js';
import { evaluateWaked } from './engine/solveWaked.js';
import { turbineMixProblem, type TurbineMix } from './turbineMix.js';
import { blockageSetup, createBlockageMixSolve } from './blockageSolve.js';

/** Fixed turbines of neighbouring farms; `typeOf` indexes the evaluator's types. */
export interface NeighbourTurbines {
  x: Float64Array;
  y: Float64Array;
  typeOf: Int32Array;
}

export interface MixedAepResult {
  /** AEP of the farm's own turbines, MWh. */
  aepMwh: number;
  perDirectionMwh: Float64Array;
  /** By own turbine, MWh. */
  perTurbineMwh: Float64Array;
  /** ∂AEP/∂x_i, ∂AEP/∂y_i of the own turbines, MWh per metre (empty without the gradient). */
  gradX: Float64Array;
  gradY: Float64Array;
  /** Energy of each neighbour beside the farm, MWh (not part of aepMwh). */
  neighbourMwh: Float64Array;
  pairEvaluations: number;
}

/** The one-type FarmEvaluator shape of aep.ts (repeated here: aep.ts imports this file). */
export interface BoundEvaluator {
  readonly turbine: Turbine;
  readonly wind: WindResource;
  readonly plan: SolvePlan;
  aep(x: Float64Array, y: Float64Array): MixedAepResult;
  aepWithGradient(x: Float64Array, y: Float64Array): MixedAepResult;
}

export interface MixedFarmEvaluator {
  readonly types: readonly Turbine[];
  readonly wind: WindResource;
  /** The solve plan (solvePlan.ts): the waked solve over the types, on the kernel it names. */
  readonly plan: SolvePlan;
  readonly neighbours: NeighbourTurbines | null;
  /** AEP of own turbines at (x, y) whose types are `typeOf` (indices into `types`). */
  aep(x: Float64Array, y: Float64Array, typeOf: Int32Array): MixedAepResult;
  aepWithGradient(x: Float64Array, y: Float64Array, typeOf: Int32Array): MixedAepResult;
  /** The same evaluator with the own turbines' types fixed (null: every turbine of type 0): what optimizers take. */
  bind(typeOf: Int32Array | null): BoundEvaluator;
  /** Energy of each neighbour with no farm beside it, MWh (empty without neighbours). */
  neighboursAlone(): Float64Array;
}

export function createMixedFarmEvaluator(
  types: readonly Turbine[],
  wind: WindResource,
  model: FarmModelSpec,
  neighbours: NeighbourTurbines | null = null,
  needs: SolveNeeds = {},
): MixedFarmEvaluator {
  if (types.length === 0) throw new Error('a mixed farm needs at least one turbine type');
  // The waked solve over the types, or the blockage solve (blockageSolve.ts) when the plan picks it; the weighted sum (alone or
  // with blockage), a one-model solver, refuses the mixed form (the solve plan, solvePlan.ts).
  const plan = solvePlan({ types, neighbours: neighbours !== null && neighbours.x.length > 0, wind }, model, { ...needs, mixedForm: true });
  const nb = neighbours && neighbours.x.length > 0 ? neighbours : null;
  if (nb && (nb.y.length !== nb.x.length || nb.typeOf.length !== nb.x.length)) {
    throw new Error(`neighbours: ${nb.x.length} x, ${nb.y.length} y and ${nb.typeOf.length} types`);
  }
  const blockage = plan.solver === 'blockage';
  const setup: WakedSetup = blockage ? blockageSetup(types, wind, plan.model) : wakedSetup(types, wind, plan.model);
  const solveBlockage = blockage ? createBlockageMixSolve(setup) : null;
  const nNb = nb ? nb.x.length : 0;
  let scratch: Workspace | null = null;
  let all = { x: new Float64Array(0), y: new Float64Array(0), typeOf: new Int32Array(0) };

  /** The engine on turbines [0, own) of the farm followed by neighbours [own, n). */
  const run = (xAll: Float64Array, yAll: Float64Array, mix: TurbineMix, withGradient: boolean) => {
    const n = xAll.length;
    const problem = turbineMixProblem(mix, n, types.length);
    if (problem) throw new Error(problem);
    if (solveBlockage) return solveBlockage(xAll, yAll, withGradient, mix);
    if (!scratch || scratch.n !== n) scratch = createWakedWorkspace(setup, n);
    return evaluateWaked(setup, xAll, yAll, withGradient, scratch, 0, setup.conditions.directionsDeg.length, mix);
  };
  const evaluate = (x: Float64Array, y: Float64Array, typeOf: Int32Array, withGradient: boolean): MixedAepResult => {
    const own = x.length;
    if (y.length !== own) throw new Error(`layout has ${own} x but ${y.length} y coordinates`);
    const n = own + nNb;
    if (all.x.length !== n) {
      all = { x: new Float64Array(n), y: new Float64Array(n), typeOf: new Int32Array(n) };
      if (nb) {
        all.x.set(nb.x, own);
        all.y.set(nb.y, own);
        all.typeOf.set(nb.typeOf, own);
      }
    }
    all.x.set(x);
    all.y.set(y);
    all.typeOf.set(typeOf);
    const r = run(all.x, all.y, { typeOf: all.typeOf, own }, withGradient);
    return {
      aepMwh: r.aepMwh,
      perDirectionMwh: r.perDirectionMwh,
      perTurbineMwh: r.perTurbineMwh.slice(0, own),
      neighbourMwh: r.perTurbineMwh.slice(own),
      gradX: withGradient ? r.gradX.slice(0, own) : r.gradX,
      gradY: withGradient ? r.gradY.slice(0, own) : r.gradY,
      pairEvaluations: r.pairEvaluations,
    };
  };
  let alone: Float64Array | null = null;
  return {
    types,
    wind,
    plan,
    neighbours: nb,
    aep: (x, y, typeOf) => evaluate(x, y, typeOf, false),
    aepWithGradient: (x, y, typeOf) => evaluate(x, y, typeOf, true),
    bind(typeOf) {
      let fixed = typeOf ? Int32Array.from(typeOf) : new Int32Array(0);
      // A partial farm (greedy placement adds turbines in index order) has the first types.
      const typesFor = (n: number): Int32Array => {
        if (!typeOf && fixed.length < n) fixed = new Int32Array(n);
        return n < fixed.length ? fixed.subarray(0, n) : fixed;
      };
      return {
        turbine: types[fixed.length > 0 ? fixed[0] : 0],
        wind,
        plan,
        aep: (x, y) => evaluate(x, y, typesFor(x.length), false),
        aepWithGradient: (x, y) => evaluate(x, y, typesFor(x.length), true),
      };
    },
    neighboursAlone() {
      if (!nb) return new Float64Array(0);
      alone ??= run(nb.x, nb.y, { typeOf: nb.typeOf, own: nb.x.length }, false).perTurbineMwh;
      return alone.slice();
    },
  };
}

/** What the farm costs its neighbours: their energy alone minus beside the farm, MWh (total and by neighbour). */
export function neighbourLoss(
  evaluator: MixedFarmEvaluator,
  x: Float64Array,
  y: Float64Array,
  typeOf: Int32Array,
): { totalMwh: number; byNeighbourMwh: Float64Array } {
  const alone = evaluator.neighboursAlone();
  const beside = evaluator.aep(x, y, typeOf).neighbourMwh;
  const byNeighbourMwh = new Float64Array(alone.length);
  let totalMwh = 0;
  for (let i = 0; i < alone.length; i++) {
    byNeighbourMwh[i] = alone[i] - beside[i];
    totalMwh += byNeighbourMwh[i];
  }
  return { totalMwh, byNeighbourMwh };
}
