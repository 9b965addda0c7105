/**
 * What the waked solve (engine/solveWaked.ts, PyWake's PropagateDownwind) covers, declared for the
 * solve plan (solvePlan.ts, its only reader): every wake model, superposition linear, sos or max,
 * several turbine models and neighbours (mixedFarm.ts), roses, time series, TI per bin, sites that
 * are not uniform, the ground mirror, every rotor average the wake model has — with the refusals
 * below. The native kernel (wakedNative.ts) takes one turbine model without neighbours — a rose,
 * a TI per bin, a time series (each sample its direction, speed and TI), sites that are not uniform
 * with a per-point Weibull — a model with a native form, with every rotor average the model has
 * (the centre, Jensen's area overlap, every quadrature of rotor/rotorPoints.ts), the ground mirror
 * and every added-turbulence Ct→a (mom1d, madsen); the rest runs in JavaScript. It gives the
 * hub-height gradient (∂AEP/∂h through a site's shear and fields; not with the ground mirror, whose
 * image moves with h) and per-turbine weighted energy gradients as the JavaScript kernel does.
 */
import type { FarmModelSpec } from '../farmModel.js';
import { deficitModel } from '../wake/registry.js';
import type { CoverRule, FarmShape, SolveNeeds, SolverDeclaration } from '../solvePlanTypes.js';
import { freeStreamDeclinesFarm } from './freeStreamCovers.js';

/** A rotor average over the rotor's area needs a top-hat wake (jensen); the Gaussian ones are sampled at points. */
export const AREA_OVERLAP_RULE: CoverRule = {
  field: 'rotorAverage',
  setup: true,
  refuses(model) {
    const wake = deficitModel(model.wake);
    if (!wake) return null;
    const rotorAverage = model.rotorAverage ?? wake.wakedDefaults.rotorAverage;
    return rotorAverage === 'area-overlap' && wake.profile !== 'top-hat'
      ? `the area-overlap rotor average needs a top-hat wake model (jensen), not ${model.wake}`
      : null;
  },
};

/** What a site that is not uniform cannot be combined with, in every solver that takes a site (the waked solve, blockage). */
export const SITE_RULES: readonly CoverRule[] = [
  // The free-stream engine's Ct(U) has no per-turbine free stream.
  {
    field: 'site',
    setup: true,
    refuses: (m) => (m.site && m.inflow === 'free-stream' ? "a site that is not uniform needs the waked inflow (inflow: 'waked'), not free-stream" : null),
  },
  {
    field: 'site',
    needsFarm: true,
    setup: true,
    refuses: (m, f) =>
      m.site?.weibull && f.wind.series
        ? "a per-point Weibull site gives each turbine's probability of each (direction, speed): give `wind` as a rose (directions and speeds), not a time series"
        : null,
  },
];

/** Why the native waked kernel (nativeKernel.ts wakedConfig) does not take a farm of one model, or null. */
// Per-turbine weights (the kernel's turbineWeight) do not narrow it, nor does the hub-height gradient (∂AEP/∂h
// through the site, chained in wakedNative.ts from the kernel's site adjoints) but with the ground mirror.
function nativeWakedDeclines(model: FarmModelSpec, farm: FarmShape, needs: SolveNeeds): string | null {
  if (farm.types.length > 1 || farm.neighbours)
    return `the native kernel takes one turbine model without neighbours, and this farm has ${farm.types.length > 1 ? 'several turbine models' : 'neighbours'}`;
  const wake = deficitModel(model.wake);
  if (!wake || !wake.native) return `${model.wake} has no native form`;
  if (model.blockage) return 'blockage is solved in JavaScript';
  if (model.site && model.inflow === 'free-stream') return 'a site needs the waked inflow';
  if (needs.hubHeightGradient && (model.ground ?? 'none') !== 'none')
    return '∂AEP/∂h with the ground mirror (its image is 2·h below) is computed by the JavaScript kernel only';
  if (!['linear', 'sos', 'max'].includes(model.superposition)) return `the superposition '${model.superposition}' is computed in JavaScript only`;
  return null;
}

export const WAKED_SOLVER: SolverDeclaration = {
  solver: 'waked',
  summary: "the waked solve (engine/solveWaked.ts): turbines in downstream order, each wake from its source's effective speed",
  takes(model, farm) {
    if (!farm) return 'the model is not one the free-stream engine evaluates without a farm';
    const no = freeStreamDeclinesFarm(model, farm);
    return no ? `the free-stream engine does not take it: ${no}` : 'the free-stream engine does not take it';
  },
  refuses: [...SITE_RULES, AREA_OVERLAP_RULE],
  // The native kernel's own coverage, then what the caller needs that only the JavaScript solve gives.
  nativeDeclines: (model, farm, needs) =>
    nativeWakedDeclines(model, farm, needs) ??
    (needs.mixedForm
      ? 'the mixed-farm form of the waked solve (types and neighbours: mixedFarm.ts) runs in JavaScript'
      : needs.conditionFlows
        ? 'the flow of each condition is recorded by the JavaScript solve'
        : null),
};
