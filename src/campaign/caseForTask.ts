/**
 * The optimization problem of one task: its farm's site and wind with its farm type's turbine
 * and count. No baseline layout: the optimizer draws its start from the task's seed.
 */
import type { Case } from '../optimize/case.js';
import type { FarmSpec, FarmTypeSpec } from './campaign.js';
import { typeOfCounts } from '../io/farmTurbines.js';
import { startingAssignment } from '../optimize/typeChoice.js';

export function caseForTask(farm: FarmSpec, type: FarmTypeSpec): Case {
  const m = type.models;
  return {
    ...(m ? {
      turbines: {
        types: m.turbines, minSpacingByType: Float64Array.from(m.minSpacingByType), choice: m.counts === null,
        typeOf: m.counts ? typeOfCounts(m.counts) : startingAssignment(type.nTurbines, m.turbines.length),
      },
    } : {}),
    ...(farm.neighbours && farm.neighbours.x.length > 0 ? { neighbours: farm.neighbours } : {}),
    name: `farm_${farm.id}_type_${type.id}`,
    turbine: type.turbine,
    wind: farm.wind,
    boundary: farm.boundary,
    nTurbines: type.nTurbines,
    minSpacing: type.minSpacingM,
    model: farm.model,
    layout: null,
  };
}
