/**
 * Farm models the engines cannot evaluate, known when the input is read: the combinations the
 * physics refuses at run time (physics/mixedFarm.ts, blockageSolve.ts, wakedAep.ts' weighted sum,
 * the free-stream engine), stated once here so that `wflo validate`, `run --dry-run`, `aep`,
 * `optimize` and every input door (case files, campaign farm × farm type, windIO systems, PyWake
 * reference files, `aep` flags) refuse them in one line naming the field, before anything runs.
 * docs/inputs.md, "What the engines cannot evaluate", lists them; test/io/modelLimits.test.ts
 * checks that this rule and the engines agree on every combination.
 */
import type { FarmModelSpec } from '../physics/farmModel.js';
import type { Turbine } from '../physics/turbine.js';
import type { WindResource } from '../physics/windResource.js';
import { usesFreeStreamEngine } from '../physics/aep.js';

/** The Gaussian-wake models (the weighted sum's momentum-conserving form needs a Gaussian profile). */
const GAUSSIAN_MODELS = new Set(['iea37', 'bastankhah2014', 'niayifar2016', 'turbopark2022', 'zong2020', 'carbajofuertes2018']);

export interface FarmShape {
  /** The farm's own turbine models (one for most farms). */
  turbines: readonly Turbine[];
  /** Fixed neighbouring turbines present. */
  neighbours: boolean;
  wind: WindResource;
}

/** The field a limitation is about (the key that would have to change) and why. */
export interface ModelLimit { field: 'blockage' | 'superposition'; message: string }

/** Why `model` cannot evaluate a farm of this shape, or null. */
export function farmModelLimit(model: FarmModelSpec, shape: FarmShape): ModelLimit | null {
  const several = shape.turbines.length > 1;
  const mixed = several || shape.neighbours;
  const what = several && shape.neighbours ? 'several turbine models and neighbours' : several ? 'several turbine models' : 'neighbouring turbines';
  if (model.blockage) {
    if (mixed) {
      return { field: 'blockage', message: `blockage is solved for farms of one turbine model without neighbours only, and this farm has ${what}: leave blockage out, or give the farm one model and no neighbours` };
    }
    if (model.superposition === 'weighted') return { field: 'superposition', message: 'blockage is solved with the linear, sos or max wake superposition, not weighted' };
  }
  if (model.superposition === 'weighted') {
    const no = (why: string): ModelLimit => ({ field: 'superposition', message: `the weighted sum ${why}; use 'linear' or 'sos'` });
    if (mixed) return no(`evaluates farms of one turbine model without neighbours only, and this farm has ${what}`);
    if (shape.wind.series) return no('does not take a time series yet');
    if (shape.wind.turbulenceIntensityByBin) return no('does not take a turbulence intensity per bin yet');
    if (!GAUSSIAN_MODELS.has(model.wake)) return no(`needs a Gaussian wake model, not ${model.wake}`);
    if (model.rotorAverage !== undefined && model.rotorAverage !== 'center') return no(`is evaluated at the rotor centre only, not with the '${model.rotorAverage}' rotor average`);
    if (model.turbulenceSuperposition !== undefined && model.turbulenceSuperposition !== 'sqrmax') return no(`takes the sqrmax added-turbulence superposition only, not ${model.turbulenceSuperposition}`);
    if (usesFreeStreamEngine(shape.turbines[0]!, model)) {
      return no(`runs in the waked-inflow engine, which ${model.wake} with a constant Ct does not use (give the turbine a Ct_curve, or a model such as niayifar2016)`);
    }
  }
  return null;
}
