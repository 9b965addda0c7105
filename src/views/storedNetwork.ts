/**
 * The collection network a source STORED with a layout (a ledger row's or layouts.h5's cable_to and
 * cable_type, a result file's wflo.economics.cable_to and cable_type), as the network the plot
 * draws: exactly those edges, never re-routed, so the picture is the network the row's cost
 * figures were computed on. cable_to[i] is the next turbine's index, or −1 − s for substation s;
 * the cable type of each edge is the stored one (an index into the catalogue), or, where the
 * source keeps no type, the cheapest type covering the edge's load. Null (with the reason) when
 * the stored arrays do not describe a network of this layout (wrong length, a node that does not
 * exist, a cycle, a type outside the catalogue), so the caller can say so instead of drawing it.
 */
import { cableChoice, type CableType } from '../geometry/collection/cableCatalogue.js';
import { subtreeLoads, type CollectionEdge, type CollectionNetwork } from '../geometry/collection/collectionNetwork.js';

export function storedNetwork(
  x: ArrayLike<number>,
  y: ArrayLike<number>,
  substations: readonly (readonly [number, number])[],
  cables: readonly CableType[],
  cableTo: ArrayLike<number>,
  cableType?: ArrayLike<number>,
): { network: CollectionNetwork } | { problem: string } {
  const n = x.length,
    m = substations.length;
  if (cableTo.length !== n) return { problem: `stored network has ${cableTo.length} edges for ${n} turbines` };
  if (cableType && cableType.length !== n) return { problem: `stored network has ${cableType.length} cable types for ${n} turbines` };
  const parent = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const to = cableTo[i];
    if (!Number.isInteger(to) || to >= n || to === i || (to < 0 && -1 - to >= m))
      return { problem: `stored network: turbine ${i}'s cable goes to ${to}, no node of this layout (${n} turbines, ${m} substations)` };
    parent[i] = to >= 0 ? to : n - 1 - to;
  }
  const load = subtreeLoads(parent, n, m);
  if (n > 0 && load[0] < 0) return { problem: 'stored network has a cycle (some turbines never reach a substation)' };
  const choice = cableChoice(cables);
  const cable = new Int32Array(n);
  const edges: CollectionEdge[] = [];
  const lengthByCable = cables.map(() => 0),
    costByCable = cables.map(() => 0);
  let totalLength = 0,
    totalCost = 0;
  const at = (k: number): readonly [number, number] => (k < n ? [x[k], y[k]] : substations[k - n]);
  for (let i = 0; i < n; i++) {
    const t = cableType ? cableType[i] : load[i] <= choice.maxCapacity ? choice.typeForLoad[load[i]] : -1;
    if (!Number.isInteger(t) || t < 0 || t >= cables.length)
      return { problem: `stored network: turbine ${i}'s cable type ${t} is not in the catalogue (${cables.length} types)` };
    const [ax, ay] = at(i),
      [bx, by] = at(parent[i]);
    const length = Math.sqrt((ax - bx) ** 2 + (ay - by) ** 2);
    cable[i] = t;
    edges.push({ from: i, to: parent[i], cable: t, load: load[i], length });
    lengthByCable[t] += length;
    costByCable[t] += length * cables[t].costPerMetre;
    totalLength += length;
    totalCost += length * cables[t].costPerMetre;
  }
  return { network: { turbineCount: n, substationCount: m, parent, load, cable, edges, totalLength, totalCost, lengthByCable, costByCable } };
}
