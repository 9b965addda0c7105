/**
 * The turbine models and the farms of a windIO `wind_farm` in windIO 2's forms, as a wflo case's
 * several models and neighbours:
 *
 *   wind_farm:
 *     turbine_types: {0: {name, hub_height, rotor_diameter, performance}, 1: {...}}   # the models
 *     layouts:                                   # one layout per farm
 *       - coordinates: {x: [...], y: [...]}
 *         turbine_types: [0, 0, 1, ...]          # each turbine's model
 *       - coordinates: {x: [...], y: [...]}      # a second farm of the same system
 *         turbine_types: [1, 1, ...]
 *
 * - A layout's `turbine_types` value k names the model whose key is `k` (`0`, `1`, … as the
 *   schema's examples write them); with other keys, the k-th model in the order listed.
 * - Without `turbine_types` at the top, every turbine is the `turbines` model (windIO 1).
 * - Several layouts (windIO 2's several farms per system): wflo evaluates and optimizes the FIRST
 *   layout; the turbines of every other layout are its fixed neighbours (their wakes reach it,
 *   their energy is not its AEP). A neighbour standing inside the site is refused by the caller.
 * - Each model's minimum spacing is wflo's default, 2 of its own rotor diameters.
 */
import type { Turbine } from '../../physics/turbine.js';
import type { WindioNode } from './windioTree.js';
import { readTurbine } from './turbine.js';
import { layoutCoordinates } from './windFarmLayout.js';

export interface WindioFarm {
  x: Float64Array;
  y: Float64Array;
  /** Each turbine's model: index into `WindioFarms.types`. */
  typeOf: Int32Array;
}

export interface WindioFarms {
  /** The models, in the order `turbine_types` lists them (or the one `turbines` model). */
  types: Turbine[];
  /** One farm per layout, the first is the farm wflo works on. */
  farms: WindioFarm[];
  /** True when the file uses `turbine_types` (several models possible). */
  typed: boolean;
}

/** Whether a wind_farm uses windIO 2's forms this file reads (`turbine_types`, several layouts). */
export function usesFarmTypes(windFarm: WindioNode): boolean {
  const layouts = windFarm.get('layouts');
  return windFarm.get('turbine_types').exists || (layouts.isSeq && layouts.length > 1);
}

/**
 * The models and farms of `windFarm`; `oneModel` reads the `turbines` model when the file has no
 * `turbine_types` (windioPlant's turbineNode + readTurbine).
 */
export function readWindioFarms(windFarm: WindioNode, oneModel: () => Turbine): WindioFarms {
  const typesNode = windFarm.get('turbine_types');
  const typed = typesNode.exists;
  let types: Turbine[];
  let keys: string[] = [];
  if (typed) {
    if (typesNode.isMap) {
      keys = typesNode.keys();
      types = keys.map((k) => readTurbine(typesNode.get(k)));
    } else if (typesNode.isSeq) {
      types = typesNode.items().map((t) => readTurbine(t));
      keys = types.map((_, i) => String(i));
    } else {
      return typesNode.fail('expected a mapping of turbine models (windIO 2: {0: {...}, 1: {...}})');
    }
    if (types.length === 0) typesNode.fail('no turbine models');
  } else {
    types = [oneModel()];
  }
  const layoutsNode = windFarm.require('layouts', 'coordinates {x, y}');
  const layoutNodes = layoutsNode.isSeq ? layoutsNode.items() : [layoutsNode.get('initial_layout').exists ? layoutsNode.get('initial_layout') : layoutsNode];
  if (layoutNodes.length === 0) layoutsNode.fail('no layouts');
  const modelOf = (value: number, node: WindioNode, i: number): number => {
    if (!Number.isInteger(value)) node.get(i).fail(`${value} is not a turbine type index`);
    const byKey = keys.indexOf(String(value));
    const k = byKey >= 0 ? byKey : value;
    if (!(k >= 0 && k < types.length)) node.get(i).fail(`turbine type ${value} is not one of turbine_types (${keys.join(', ')})`);
    return k;
  };
  const farms = layoutNodes.map((layout) => {
    const { x, y } = layoutCoordinates(layout);
    const given = layout.get('turbine_types');
    if (!given.exists) return { x, y, typeOf: new Int32Array(x.length) };
    if (!typed) given.fail('turbine types without wind_farm.turbine_types (the models they index)');
    const values = given.numbers('turbine type indices');
    if (values.length !== x.length) given.fail(`${values.length} turbine types for ${x.length} turbines`);
    return { x, y, typeOf: Int32Array.from(values, (v, i) => modelOf(v, given, i)) };
  });
  return { types, farms, typed };
}
