/**
 * What the layout plot draws of a layout's economics: the collection system and the water depth.
 * The network is the one the source STORED with the layout when it has one (a ledger row's or
 * layouts.h5's cable_to / cable_type, a result file's wflo.economics; storedNetwork.ts: exactly
 * those edges, the network the row's cost figures were computed on); else the one the router
 * (geometry/collection/routeCollection.ts, deterministic) designs for the plotted layout, and the
 * key says which. A stored network that is not one of this layout (storedNetwork.ts's problems)
 * is not drawn as if it were: the layout is routed and the key names the problem.
 * The substations and the catalogue come from the case's economics (Case.economics), or, for a
 * result file, from what the file records (`network` below). Nothing without either.
 */
import type { Case } from '../case/case.js';
import { routeCollection } from '../geometry/collection/routeCollection.js';
import type { CableType } from '../geometry/collection/cableCatalogue.js';
import type { WaterDepthField } from '../cost/economicModel.js';
import type { CollectionDrawing } from './collectionSvg.js';
import { storedNetwork } from './storedNetwork.js';
import { lcoeText, millionsText } from '../cost/currency.js';

/** What a drawing needs of a farm's economics: the substations, the cable catalogue, the money's currency, the depth (optional). */
export interface NetworkSource {
  substations: readonly (readonly [number, number])[];
  cables: readonly CableType[];
  currency: string;
  depth?: WaterDepthField;
}

/** The network source of a case with economics, else undefined. */
export function caseNetworkSource(c: { economics?: Case['economics'] }): NetworkSource | undefined {
  const e = c.economics;
  return e ? { substations: e.substations, cables: e.cables, currency: e.model.currency, depth: e.depth } : undefined;
}

export function economicsDrawing(
  site: Pick<Case, 'boundary'> & { economics?: Case['economics'] },
  x: Float64Array,
  y: Float64Array,
  cableTo?: Int32Array,
  cableType?: Int32Array,
  network?: NetworkSource,
): { collection?: CollectionDrawing; depth?: WaterDepthField } {
  const e = network ?? caseNetworkSource(site);
  if (!e) return {};
  const cables = e.cables.map((c) => ({ ...c }));
  const substations = e.substations.map((s) => [s[0], s[1]] as const);
  let note: string | undefined;
  if (cableTo) {
    const stored = storedNetwork(x, y, substations, cables, cableTo, cableType);
    if ('network' in stored)
      return { collection: { network: stored.network, cables, substations, origin: 'stored', currency: e.currency }, ...(e.depth ? { depth: e.depth } : {}) };
    note = stored.problem;
  }
  const routed = routeCollection({
    turbines: { x, y },
    substations: substations.map(([sx, sy]) => [sx, sy] as [number, number]),
    cables,
    exclusions: site.boundary?.exclusions,
    source: 'economics',
  });
  return {
    collection: { network: routed, cables, substations, origin: 'routed', currency: e.currency, ...(note ? { note } : {}) },
    ...(e.depth ? { depth: e.depth } : {}),
  };
}

/** A layout's recorded figures as one title line, the objective's first: "LCOE 64.80 €/MWh · NPV −18.71 M€"; undefined without them. */
export function economicsLine(lcoe: unknown, npv: unknown, currency: string, objective?: string): string | undefined {
  const parts: string[] = [];
  if (typeof lcoe === 'number' && Number.isFinite(lcoe)) parts.push(`LCOE ${lcoeText(lcoe, currency)}`);
  if (typeof npv === 'number' && Number.isFinite(npv)) parts.push(`NPV ${millionsText(npv, currency)}`);
  if (objective === 'npv') parts.reverse();
  return parts.length > 0 ? parts.join(' · ') : undefined;
}
