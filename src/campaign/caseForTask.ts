/**
 * The optimization problem of one task: its farm's site and wind with its farm type's turbine
 * and count (and its direction treatment). No baseline layout: the optimizer draws its start from the task's seed.
 */
import type { Case } from '../case/case.js';
import type { FarmSpec, FarmTypeSpec } from './campaign.js';
import { typeOfCounts } from '../io/farmTurbines.js';
import { startingAssignment } from '../optimize/typeChoice.js';
import { withDirections } from '../optimize/caseDirections.js';
import { economicsForTurbines } from '../io/costFields.js';
import { InputError } from '../util/errors.js';

/** The task's case; with the farm's direction treatment its wind is the treated one (optimize/caseDirections.ts). */
export function caseForTask(farm: FarmSpec, type: FarmTypeSpec): Case {
  const c = listedCase(farm, type);
  return farm.directions && farm.directions.kind !== 'bins' ? withDirections(c, farm.directions) : c;
}

function listedCase(farm: FarmSpec, type: FarmTypeSpec): Case {
  const m = type.models;
  return {
    ...(m
      ? {
          turbines: {
            types: m.turbines,
            minSpacingByType: Float64Array.from(m.minSpacingByType),
            choice: m.counts === null,
            typeOf: m.counts ? typeOfCounts(m.counts) : startingAssignment(type.nTurbines, m.turbines.length),
          },
        }
      : {}),
    ...(farm.neighbours && farm.neighbours.x.length > 0 ? { neighbours: farm.neighbours } : {}),
    name: `farm_${farm.id}_type_${type.id}`,
    turbine: type.turbine,
    wind: farm.wind,
    boundary: farm.boundary,
    nTurbines: type.nTurbines,
    minSpacing: type.minSpacingM,
    model: farm.model,
    layout: null,
    // Checked when the campaign was loaded (every farm × farm type); a worker's payload could still disagree.
    ...(farm.economics
      ? {
          economics: economicsForTurbines(
            farm.economics,
            m ? m.turbines : [type.turbine],
            ['economics'],
            (p, message) => {
              throw new InputError(`farm ${farm.id} × farm type ${type.id}: ${p.join('.')}: ${message}`);
            },
            null,
          ),
        }
      : {}),
    ...(type.objective !== undefined ? { objective: type.objective } : {}),
  };
}
