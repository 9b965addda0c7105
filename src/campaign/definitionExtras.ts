/**
 * What a stored farm or farm-type definition (the ledger's `farms` / `farm_types` JSON, the HDF5
 * `/farms/<id>`, `/types/<id>` groups) adds for neighbours and several turbine models, so that a
 * stored result can be evaluated and drawn again (views/caseFromDefinitions.ts) and a reader of
 * `/turbine_type` can name each turbine's model. Nothing is added for a farm without neighbours
 * or a farm type of one model: their definitions stay as they were.
 *
 *   farm:       neighbours: {x, y, type, turbines}   (positions m, each one's model index, the models)
 *               economics: {…}                       (the resolved economics block, io/costFields.ts EconomicsSpec)
 *               directions: {spread: 20} …           (the direction treatment, when not the bins as listed; `wind` is as listed)
 *   farm model: site: {speedup, ti, shear, outside}   (a site that is not uniform as its inline block, io/siteFields.ts siteDocument: never a file's path)
 *   farm type:  turbine_names: [...]                 (the names `/turbine_type` indexes)
 *               models: {turbines, min_spacing_m, counts}   (counts null: chosen by the optimizer)
 *               objective: lcoe | npv                (a cost objective; absent: aep)
 */
import type { FarmSpec, FarmTypeSpec } from './campaign.js';
import { directionsDocument } from '../io/directionsField.js';
import { siteDocument } from '../io/siteFields.js';
import type { FarmModelSpec } from '../physics/farmModel.js';

/** The farm model as stored: a site that is not uniform as its inline block; without one the model as it is. */
export function farmModelDocument(model: FarmModelSpec): Record<string, unknown> {
  return model.site ? { ...model, site: siteDocument(model.site) } : { ...model };
}

export function farmExtras(f: Pick<FarmSpec, 'neighbours' | 'directions' | 'economics'>): Record<string, unknown> {
  const n = f.neighbours;
  // The direction treatment as the field is written (the report says which measure the AEPs are on).
  const directions = f.directions && f.directions.kind !== 'bins' ? { directions: directionsDocument(f.directions) } : {};
  const economics = f.economics ? { economics: f.economics } : {};
  if (!n || n.x.length === 0) return { ...directions, ...economics };
  return { neighbours: { x: n.x, y: n.y, type: n.typeOf, turbines: n.types }, ...directions, ...economics };
}

export function farmTypeExtras(t: Pick<FarmTypeSpec, 'models' | 'objective'>): Record<string, unknown> {
  const m = t.models;
  const objective = t.objective !== undefined && t.objective !== 'aep' ? { objective: t.objective } : {};
  if (!m) return objective;
  return {
    ...objective,
    turbine_names: m.turbines.map((x) => x.name),
    models: { turbines: m.turbines, min_spacing_m: m.minSpacingByType, counts: m.counts },
  };
}
