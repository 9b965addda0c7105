/**
 * What the layout plot draws of a case's economics (Case.economics): the collection system routed
 * for the plotted layout (geometry/collection/routeCollection.ts: deterministic, and from the
 * network a stored row carries, which the router gives back as the gate did: so the drawing is
 * the network the cost figures were computed on for that layout) and the water depth field.
 * Nothing when the case has no economics.
 */
import type { Case } from '../optimize/case.js';
import { routeCollection } from '../geometry/collection/routeCollection.js';
import { parentOfCableTo } from '../optimize/economicObjective.js';
import type { WaterDepthField } from '../cost/economicModel.js';
import type { CollectionDrawing } from './collectionSvg.js';

export function economicsDrawing(
  site: Pick<Case, 'boundary'> & { economics?: Case['economics'] }, x: Float64Array, y: Float64Array, cableTo?: Int32Array,
): { collection?: CollectionDrawing; depth?: WaterDepthField } {
  const e = site.economics;
  if (!e) return {};
  const cables = e.cables.map((c) => ({ ...c }));
  const network = routeCollection({
    turbines: { x, y }, substations: e.substations.map((s) => [s[0], s[1]] as [number, number]), cables,
    exclusions: site.boundary?.exclusions, source: 'economics',
    ...(cableTo ? { start: parentOfCableTo(cableTo) } : {}),
  });
  return { collection: { network, cables, substations: e.substations }, depth: e.depth };
}
