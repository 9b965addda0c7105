/**
 * What the waked solve (engine/solveWaked.ts, PyWake's PropagateDownwind) covers, declared for the
 * solve plan (solvePlan.ts, its only reader): every wake model, superposition linear, sos or max,
 * several turbine models and neighbours (mixedFarm.ts), roses, time series, TI per bin, sites that
 * are not uniform, the ground mirror, every rotor average the wake model has — with the refusals
 * below. The native kernel (wakedNative.ts) takes one turbine model without neighbours — a rose,
 * a TI per bin, a time series (each sample its direction, speed and TI), sites that are not uniform
 * with a per-point Weibull — a model with a native form at the rotor centre (or Jensen's area
 * overlap), no ground, the mom1d added-turbulence Ct→a; the rest runs in JavaScript.
 */
import type { FarmModelSpec } from '../farmModel.js';
import { deficitModel } from '../wake/registry.js';
import { parameterDefaults } from '../wake/deficitModel.js';
import type { CoverRule, FarmShape, SolveNeeds, SolverDeclaration } from '../solvePlanTypes.js';
import { freeStreamDeclinesFarm } from './freeStreamCovers.js';

/** A rotor average over the rotor's area needs a top-hat wake (jensen); the Gaussian ones are sampled at points. */
export const AREA_OVERLAP_RULE: CoverRule = {
  field: 'rotorAverage', setup: true,
  refuses(model) {
    const wake = deficitModel(model.wake);
    if (!wake) return null;
    const rotorAverage = model.rotorAverage ?? wake.wakedDefaults.rotorAverage;
    return rotorAverage === 'area-overlap' && wake.profile !== 'top-hat' ? `the area-overlap rotor average needs a top-hat wake model (jensen), not ${model.wake}` : null;
  },
};

/** Why the native waked kernel (nativeKernel.ts wakedConfig) does not take a farm of one model, or null. */
function nativeWakedDeclines(model: FarmModelSpec, farm: FarmShape, needs: SolveNeeds): string | null {
  if (needs.hubHeightGradient) return '∂AEP/∂h through the shear is computed by the JavaScript kernel only';
  if (needs.perTurbineWeights) return 'a per-turbine weighted energy gradient is computed by the JavaScript kernel only';
  if (farm.types.length > 1 || farm.neighbours) return `the native kernel takes one turbine model without neighbours, and this farm has ${farm.types.length > 1 ? 'several turbine models' : 'neighbours'}`;
  const wake = deficitModel(model.wake);
  if (!wake || !wake.native) return `${model.wake} has no native form`;
  if (model.blockage) return 'blockage is solved in JavaScript';
  if ((model.ground ?? 'none') !== 'none') return `the ground '${model.ground}' is computed in JavaScript only`;
  if (model.site && model.inflow === 'free-stream') return 'a site needs the waked inflow';
  const rotorAverage = model.rotorAverage ?? wake.wakedDefaults.rotorAverage;
  const native = wake.native({ ...parameterDefaults(wake), ...(model.params ?? {}) });
  if (!(rotorAverage === 'center' || (native.kind === 'top-hat' && rotorAverage === 'area-overlap'))) return `the rotor average '${rotorAverage}' is computed in JavaScript only`;
  if (!['linear', 'sos', 'max'].includes(model.superposition)) return `the superposition '${model.superposition}' is computed in JavaScript only`;
  if ((model.turbulenceCt2a ?? 'mom1d') !== 'mom1d') return `the added-turbulence ct2a '${model.turbulenceCt2a}' is computed in JavaScript only`;
  return null;
}

export const WAKED_SOLVER: SolverDeclaration = {
  solver: 'waked',
  summary: 'the waked solve (engine/solveWaked.ts): turbines in downstream order, each wake from its source\'s effective speed',
  takes(model, farm) {
    if (!farm) return 'the model is not one the free-stream engine evaluates without a farm';
    const no = freeStreamDeclinesFarm(model, farm);
    return no ? `the free-stream engine does not take it: ${no}` : 'the free-stream engine does not take it';
  },
  refuses: [
    // PyWake's TurbOPark scales its deficit by the target's free stream (WS_jlk), which the site engine does not distinguish from the source's yet.
    { field: 'site', refuses: (m) => m.site && m.wake === 'turbopark2022' ? "a site that is not uniform is not supported with turbopark2022 yet (its deficit is scaled by the target's free stream, not the source's)" : null },
    // The free-stream engine's Ct(U) has no per-turbine free stream.
    { field: 'site', setup: true, refuses: (m) => m.site && m.inflow === 'free-stream' ? "a site that is not uniform needs the waked inflow (inflow: 'waked'), not free-stream" : null },
    {
      field: 'site', needsFarm: true, setup: true,
      refuses: (m, f) => m.site?.weibull && f.wind.series ? "a per-point Weibull site gives each turbine's probability of each (direction, speed): give `wind` as a rose (directions and speeds), not a time series" : null,
    },
    AREA_OVERLAP_RULE,
  ],
  nativeDeclines: nativeWakedDeclines,
};
