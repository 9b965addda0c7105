/**
 * The wind a farm's tasks are computed on: its wind as listed, with its direction treatment
 * (`directions:`, physics/directionTreatment.ts) applied. One place, so that optimizers, the
 * verification gate and a command program all see the same wind. Memoised per farm.
 */
import { treatDirections } from '../physics/directionTreatment.js';
import type { WindResource } from '../physics/windResource.js';
import type { FarmSpec } from './campaign.js';

const treated = new WeakMap<WindResource, Map<string, WindResource>>();

export function farmWind(f: Pick<FarmSpec, 'wind' | 'directions'>): WindResource {
  const t = f.directions;
  if (!t || t.kind === 'bins') return f.wind;
  const key = JSON.stringify(t);
  let byTreatment = treated.get(f.wind);
  if (!byTreatment) {
    byTreatment = new Map();
    treated.set(f.wind, byTreatment);
  }
  let w = byTreatment.get(key);
  if (!w) {
    w = treatDirections(f.wind, t).wind;
    byTreatment.set(key, w);
  }
  return w;
}
