/**
 * Validity of a collection network, checked from scratch (not trusting the router): every turbine
 * reaches a substation (connected, no cycle), every edge's load is its subtree size and within its
 * cable's capacity (so every subtree is within capacity), no two edges cross (segmentCrossing.ts,
 * 1 µm tolerance, every pair), no edge passes through an exclusion zone. Returns the problems
 * found, one line each (empty: valid).
 */
import type { ExclusionZone } from '../boundary.js';
import type { CableType } from './cableCatalogue.js';
import { subtreeLoads, type CollectionNetwork } from './collectionNetwork.js';
import { blockingZone } from './exclusionBlock.js';
import { edgesCross } from './segmentCrossing.js';

export function checkNetwork(
  network: Pick<CollectionNetwork, 'parent' | 'cable' | 'load'>,
  cables: readonly CableType[],
  x: ArrayLike<number>,
  y: ArrayLike<number>,
  substations: readonly (readonly [number, number])[],
  exclusions: readonly ExclusionZone[] = [],
): string[] {
  const n = x.length;
  const m = substations.length;
  const problems: string[] = [];
  const px = new Float64Array(n + m);
  const py = new Float64Array(n + m);
  for (let i = 0; i < n; i++) {
    px[i] = x[i];
    py[i] = y[i];
  }
  substations.forEach((s, k) => {
    px[n + k] = s[0];
    py[n + k] = s[1];
  });
  const parent = network.parent;
  if (parent.length !== n) return [`parent has ${parent.length} entries for ${n} turbines`];
  const loads = subtreeLoads(parent, n, m);
  if (loads[0] === -1) return ['not a forest rooted at the substations: a cycle or an edge to no node'];
  for (let i = 0; i < n; i++) {
    const t = network.cable[i];
    if (loads[i] !== network.load[i]) problems.push(`edge ${i}→${parent[i]}: load ${network.load[i]}, subtree has ${loads[i]}`);
    if (!(t >= 0 && t < cables.length)) problems.push(`edge ${i}→${parent[i]}: no cable type`);
    else if (cables[t].capacity < loads[i]) problems.push(`edge ${i}→${parent[i]}: load ${loads[i]} over ${cables[t].name}'s capacity ${cables[t].capacity}`);
    if (exclusions.length > 0) {
      const zone = blockingZone(exclusions, px[i], py[i], px[parent[i]], py[parent[i]]);
      if (zone) problems.push(`edge ${i}→${parent[i]}: passes through exclusion zone "${zone.name}"`);
    }
    for (let k = i + 1; k < n; k++) {
      if (edgesCross(i, parent[i], k, parent[k], px, py)) problems.push(`edges ${i}→${parent[i]} and ${k}→${parent[k]} cross`);
    }
  }
  return problems;
}
