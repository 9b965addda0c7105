/**
 * The engine session's `cost` and `cables` requests {handle} + x, y (docs/python.md: `Farm.cost`,
 * `Farm.cables`): the economics of the given layout and the collection network routed for it, as
 * `wflo cost --json` and `wflo cables --json` print them (views/layoutEconomics.ts builds both).
 * The cables' per-turbine lists travel as arrays (cable_to, cable_type, cable_load,
 * cable_length_each_m), the rest in the header.
 */
import { layoutCables, layoutCost } from '../views/layoutEconomics.js';
import { coordinates } from './requestFields.js';
import type { FarmTable, OpenFarm, RequestHandler } from './sessionTypes.js';

const farmName = (farm: OpenFarm) => farm.source;

/** The request's farm and its layout, checked against the farm's turbine count. */
function farmLayout(
  farms: FarmTable,
  h: Record<string, unknown>,
  arrays: Map<string, Float64Array>,
  kind: string,
): { farm: OpenFarm; x: Float64Array; y: Float64Array } {
  const farm = farms.farm(kind, h.handle);
  return { farm, x: coordinates(kind, 'x', arrays, farm.n), y: coordinates(kind, 'y', arrays, farm.n) };
}

export const ECONOMICS_REQUESTS: Record<string, RequestHandler> = {
  cost: {
    fields: ['handle'],
    arrays: ['x', 'y'],
    answer(farms, h, arrays, kind) {
      const { farm, x, y } = farmLayout(farms, h, arrays, kind);
      return { fields: { ...layoutCost(farm.c, x, y, farmName(farm)) } };
    },
  },
  cables: {
    fields: ['handle'],
    arrays: ['x', 'y'],
    answer(farms, h, arrays, kind) {
      const { farm, x, y } = farmLayout(farms, h, arrays, kind);
      const { cable_to: to, cable_type: type, cable_load: load, cable_length_each_m: each, ...fields } = layoutCables(farm.c, x, y, farmName(farm));
      return {
        fields,
        arrays: {
          cable_to: Float64Array.from(to),
          cable_type: Float64Array.from(type),
          cable_load: Float64Array.from(load),
          cable_length_each_m: Float64Array.from(each),
        },
      };
    },
  },
};
