/**
 * What the free-stream engine (engine/freeStream.ts, the IEA37 case-study engine) covers, declared
 * for the solve plan (solvePlan.ts, its only reader): a model with a free-stream form, inflow
 * free-stream, every other option at the model's default, one turbine model without neighbours,
 * a rose. The native kernel takes the Gaussian free-stream kernels (not Jensen's top hat).
 */
import { thrustCoefficientAt, type Turbine } from '../turbine.js';
import { hasFreeStreamForm, type FarmModelSpec, type InflowName } from '../farmModel.js';
import { deficitModel } from '../wake/registry.js';
import { GaussianKernel } from '../wake/gaussianKernel.js';
import type { FarmShape, SolverDeclaration } from '../solvePlanTypes.js';

/**
 * The inflow solve a model uses for these turbine models: its `inflow` if given, else `waked` for
 * a tabulated-Ct turbine or a model only the waked engine has, else `free-stream` (constant Ct:
 * the two agree up to the deficit reference, and the free-stream engine is the IEA37 reference one);
 * `waked` on a site and with the weighted sum.
 */
export function inflowOf(types: Turbine | readonly Turbine[], model: FarmModelSpec): InflowName {
  if (model.inflow) return model.inflow;
  // The weighted sum is a waked-inflow solve (PyWake's PropagateDownwind + WeightedSum), whatever the turbine's Ct.
  if (model.site || model.superposition === 'weighted') return 'waked';
  const list: readonly Turbine[] = Array.isArray(types) ? types : [types as Turbine];
  return list.some((t) => t.thrust.kind === 'table') || !hasFreeStreamForm(model.wake) ? 'waked' : 'free-stream';
}

/** Why the free-stream engine does not evaluate the model for this turbine, or null when it does. */
export function freeStreamDeclines(turbine: Turbine, model: FarmModelSpec): string | null {
  if (!hasFreeStreamForm(model.wake)) return `the wake model ${model.wake} has no free-stream form`;
  if (model.site) return 'the site is not uniform (each turbine has its own free stream)';
  if (inflowOf(turbine, model) !== 'free-stream')
    return model.inflow ? `the model asks for inflow '${model.inflow}'` : `the turbine ${turbine.name} has a tabulated Ct`;
  if (model.ct2a !== undefined) return `the model sets ct2a '${model.ct2a}'`;
  if (model.deficitReference !== undefined) return `the model sets deficitReference '${model.deficitReference}'`;
  if (model.turbulence !== undefined) return `the model sets turbulence '${model.turbulence}'`;
  if ((model.ground ?? 'none') !== 'none') return `the model has the ground '${model.ground}'`;
  if (!(model.rotorAverage === undefined || model.rotorAverage === deficitModel(model.wake)?.wakedDefaults.rotorAverage))
    return `the model asks for the rotor average '${model.rotorAverage}'`;
  return null;
}

/** True when the free-stream engine (engine/freeStream.ts) evaluates the model for this turbine. */
export function usesFreeStreamEngine(turbine: Turbine, model: FarmModelSpec): boolean {
  return freeStreamDeclines(turbine, model) === null;
}

/** Why the free-stream engine does not take the farm (farm shape first, then the model), or null. */
export function freeStreamDeclinesFarm(model: FarmModelSpec, farm: FarmShape): string | null {
  if (farm.types.length > 1) return 'the farm has several turbine models';
  if (farm.neighbours) return 'the farm has neighbouring turbines';
  if (farm.wind.series) return 'the wind is a time series';
  return freeStreamDeclines(farm.types[0], model);
}

export const FREE_STREAM_SOLVER: SolverDeclaration = {
  solver: 'free-stream',
  summary: "IEA37's free-stream engine (engine/freeStream.ts): each wake from its source's free-stream Ct",
  takes(model, farm) {
    if (!farm || freeStreamDeclinesFarm(model, farm) !== null) return null;
    return `${model.wake} has a free-stream form and the turbine a constant Ct (inflow free-stream), every other option at the model's default, one turbine model, a rose`;
  },
  refuses: [],
  nativeDeclines(model, farm, needs) {
    if (needs.hubHeightGradient) return '∂AEP/∂h is computed by the JavaScript kernel only';
    const wake = deficitModel(model.wake)?.freeStream;
    const turbine = farm.types[0];
    if (
      !wake ||
      !(
        wake.prepare(thrustCoefficientAt(turbine, Math.max(turbine.cutIn, 1)), turbine.diameter, { ...wake.defaults, ...(model.params ?? {}) }) instanceof
        GaussianKernel
      )
    ) {
      return `the native free-stream kernel is Gaussian, and ${model.wake}'s free-stream form is not`;
    }
    return null;
  },
};
