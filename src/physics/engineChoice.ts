/**
 * Which solve computes a farm model, decided in this one place, with the rules that say which
 * combinations of models a farm may use (every input reader and every engine asks `farmConflict`):
 *
 * - `blockage`: wakes and induction to a fixed point (blockageSolve.ts) — one turbine model, no
 *   neighbours, no ground mirror, superposition linear, sos or max.
 * - `weighted-sum`: Zong & Porté-Agel's momentum-conserving sum (superposition/weightedSum.ts) — one
 *   turbine model, no neighbours, no ground mirror, a rose with one TI (no time series or per-bin TI).
 * - `free-stream`: the IEA37 case-study engine (engine/freeStream.ts) — a model with a free-stream
 *   form, inflow free-stream, every other option at the model's default, one model, a rose.
 * - `waked`: the waked solve (engine/solveWaked.ts) — everything else, and every site that is not
 *   uniform (`site`: speed-up and TI fields, shear; waked inflow, not with blockage or the weighted
 *   sum). The native kernel takes a site (wakedNative.ts samples the fields at every turbine and
 *   direction; the kernel takes each turbine's free stream and ambient TI); farms of several
 *   turbine models (mixedFarm.ts) run on the JavaScript kernel, site or not.
 *
 * The kernel (native or JavaScript) is then the engine's: each native runner declines what it
 * does not cover (nativeKernel.ts), and WFLO_KERNEL=js selects JavaScript everywhere.
 */
import type { Turbine } from './turbine.js';
import type { WindResource } from './windResource.js';
import { hasFreeStreamForm, type FarmModelSpec, type InflowName } from './farmModel.js';
import { deficitModel } from './wake/registry.js';
import { InputError } from '../util/errors.js';

export type EngineKind = 'free-stream' | 'waked' | 'weighted-sum' | 'blockage';

/** What, beyond the model, decides the engine: the farm's own turbine models, fixed neighbours, the wind. */
export interface FarmShape {
  types: readonly Turbine[];
  neighbours: boolean;
  wind: Pick<WindResource, 'series' | 'turbulenceIntensityByBin'>;
}

/** A combination a farm cannot use: the model field to name (the key that would have to change), and why. */
export interface FarmConflict {
  field: 'ground' | 'superposition' | 'blockage' | 'site';
  message: string;
}

/**
 * The first combination of the model's options (and, when given, the farm's shape) that no engine
 * computes, or null. Every input reader refuses it when the file is read (one line naming the
 * field), and the evaluators refuse it at run time with the same words; docs/inputs.md ("What the
 * engines cannot evaluate") lists them, and test/physics/farmConflict.test.ts checks the rule
 * against the engines on every combination.
 */
export function farmConflict(model: FarmModelSpec, farm?: FarmShape): FarmConflict | null {
  const ground = (model.ground ?? 'none') !== 'none';
  if (ground && model.blockage) return { field: 'ground', message: 'the ground mirror is not supported with blockage' };
  if (ground && model.superposition === 'weighted') return { field: 'ground', message: "the ground mirror is not supported with the weighted sum (use 'linear' or 'sos')" };
  if (model.blockage && model.superposition === 'weighted') return { field: 'superposition', message: 'blockage is solved with the linear, sos or max wake superposition, not weighted' };
  if (model.site && model.blockage) return { field: 'site', message: 'a site that is not uniform is not supported with blockage yet (leave blockage out)' };
  if (model.site && model.superposition === 'weighted') return { field: 'site', message: "a site that is not uniform is not supported with the weighted sum yet (use 'linear' or 'sos')" };
  // PyWake's TurbOPark scales its deficit by the target's free stream (WS_jlk), which the site engine does not distinguish from the source's yet.
  if (model.site && model.wake === 'turbopark2022') return { field: 'site', message: "a site that is not uniform is not supported with turbopark2022 yet (its deficit is scaled by the target's free stream, not the source's)" };
  if (model.site && model.inflow === 'free-stream') return { field: 'site', message: "a site that is not uniform needs the waked inflow (inflow: 'waked'), not free-stream" };
  if (!farm) return null;
  if (model.site?.weibull && farm.wind.series) return { field: 'site', message: "a per-point Weibull site gives each turbine's probability of each (direction, speed): give `wind` as a rose (directions and speeds), not a time series" };
  const several = farm.types.length > 1;
  const mixed = several || farm.neighbours;
  const what = several && farm.neighbours ? 'several turbine models and neighbours' : several ? 'several turbine models' : 'neighbouring turbines';
  if (model.blockage && mixed) {
    return { field: 'blockage', message: `blockage is solved for farms of one turbine model without neighbours only, and this farm has ${what}: leave blockage out, or give the farm one model and no neighbours` };
  }
  if (model.superposition === 'weighted') {
    const no = (why: string): FarmConflict => ({ field: 'superposition', message: `the weighted sum ${why}; use 'linear' or 'sos'` });
    if (mixed) return no(`evaluates farms of one turbine model without neighbours only, and this farm has ${what}`);
    if (farm.wind.series) return no('does not take a time series yet');
    if (farm.wind.turbulenceIntensityByBin) return no('does not take a turbulence intensity per bin yet');
    if (deficitModel(model.wake)?.profile !== 'gaussian') return no(`needs a Gaussian wake model, not ${model.wake}`);
    if (model.rotorAverage !== undefined && model.rotorAverage !== 'center') return no(`is evaluated at the rotor centre only, not with the '${model.rotorAverage}' rotor average`);
    if (model.turbulenceSuperposition !== undefined && model.turbulenceSuperposition !== 'sqrmax') return no(`takes the sqrmax added-turbulence superposition only, not ${model.turbulenceSuperposition}`);
    if (usesFreeStreamEngine(farm.types[0], model)) {
      return no(`runs in the waked-inflow engine, which ${model.wake} with a constant Ct does not use (give the turbine a Ct_curve, or a model such as niayifar2016)`);
    }
  }
  return null;
}

/** Why a model's ground cannot be computed with its other options, or null (the `ground` field's line). */
export function groundConflict(model: FarmModelSpec): string | null {
  const conflict = farmConflict(model);
  return conflict && conflict.field === 'ground' ? conflict.message : null;
}

/**
 * The inflow solve a model uses for these turbine models: its `inflow` if given, else `waked` for
 * a tabulated-Ct turbine or a model only the waked engine has, else `free-stream` (constant Ct:
 * the two agree up to the deficit reference, and the free-stream engine is the IEA37 reference one).
 */
export function inflowOf(types: Turbine | readonly Turbine[], model: FarmModelSpec): InflowName {
  if (model.inflow) return model.inflow;
  if (model.site) return 'waked';
  const list: readonly Turbine[] = Array.isArray(types) ? types : [types as Turbine];
  return list.some((t) => t.thrust.kind === 'table') || !hasFreeStreamForm(model.wake) ? 'waked' : 'free-stream';
}

/** True when the free-stream engine (engine/freeStream.ts) evaluates the model for this turbine. */
export function usesFreeStreamEngine(turbine: Turbine, model: FarmModelSpec): boolean {
  return inflowOf(turbine, model) === 'free-stream' && hasFreeStreamForm(model.wake) && !model.site
    && model.ct2a === undefined && model.deficitReference === undefined && model.turbulence === undefined && (model.ground ?? 'none') === 'none'
    && (model.rotorAverage === undefined || model.rotorAverage === deficitModel(model.wake)?.wakedDefaults.rotorAverage);
}

/** The engine of a farm, and the model with its inflow resolved; a conflict is an Error naming the field. */
export function engineFor(farm: FarmShape, model: FarmModelSpec): { engine: EngineKind; model: FarmModelSpec } {
  const conflict = farmConflict(model, farm);
  if (conflict) throw new FarmConflictError(conflict, model);
  const resolved = { ...model, inflow: inflowOf(farm.types, model) };
  if (model.blockage) return { engine: 'blockage', model: resolved };
  if (model.superposition === 'weighted') return { engine: 'weighted-sum', model: resolved };
  const oneModel = farm.types.length === 1 && !farm.neighbours;
  if (oneModel && !farm.wind.series && usesFreeStreamEngine(farm.types[0], model)) return { engine: 'free-stream', model };
  return { engine: 'waked', model: resolved };
}

/** A combination no engine computes, as an input error (exit 2): `<field> '<value>': message`. */
export class FarmConflictError extends InputError {
  readonly conflict: FarmConflict;
  constructor(conflict: FarmConflict, model: FarmModelSpec) {
    const value = conflict.field === 'ground' ? model.ground : conflict.field === 'blockage' ? model.blockage : conflict.field === 'site' ? model.site?.source : model.superposition;
    super(`${conflict.field} '${value}': ${conflict.message}`);
    this.conflict = conflict;
  }
}

/** The conflict of a farm of one turbine model (no neighbours) over `wind`, as its evaluators see it. */
export function oneModelFarm(turbine: Turbine, wind: FarmShape['wind']): FarmShape {
  return { types: [turbine], neighbours: false, wind };
}
