/**
 * Total cable cost of a FIXED network (its edges and cable types kept) and its exact gradient with
 * respect to the turbine and substation coordinates: cost = Σ_edges c_type · |p_i − p_j|, so
 * ∂cost/∂p_i = Σ_{edges at i} c_type · (p_i − p_j) / |p_i − p_j| (taken as 0 for an edge of
 * length 0, where the cost is not differentiable).
 */
import type { CableType } from './cableCatalogue.js';
import type { CollectionNetwork } from './collectionNetwork.js';

export interface CableCostGradient {
  cost: number;
  /** ∂cost/∂x, ∂cost/∂y per turbine. */
  dx: Float64Array;
  dy: Float64Array;
  /** ∂cost/∂x, ∂cost/∂y per substation. */
  dsx: Float64Array;
  dsy: Float64Array;
}

export function cableCostGradient(
  network: Pick<CollectionNetwork, 'turbineCount' | 'substationCount' | 'parent' | 'cable'>,
  cables: readonly CableType[],
  x: ArrayLike<number>,
  y: ArrayLike<number>,
  substations: readonly (readonly [number, number])[],
): CableCostGradient {
  const n = network.turbineCount;
  const dx = new Float64Array(n);
  const dy = new Float64Array(n);
  const dsx = new Float64Array(network.substationCount);
  const dsy = new Float64Array(network.substationCount);
  let cost = 0;
  for (let i = 0; i < n; i++) {
    const j = network.parent[i];
    const c = cables[network.cable[i]].costPerMetre;
    const jx = j < n ? x[j] : substations[j - n][0];
    const jy = j < n ? y[j] : substations[j - n][1];
    const ex = x[i] - jx;
    const ey = y[i] - jy;
    const len = Math.hypot(ex, ey);
    cost += c * len;
    if (len === 0) continue;
    const gx = (c * ex) / len;
    const gy = (c * ey) / len;
    dx[i] += gx;
    dy[i] += gy;
    if (j < n) {
      dx[j] -= gx;
      dy[j] -= gy;
    } else {
      dsx[j - n] -= gx;
      dsy[j - n] -= gy;
    }
  }
  return { cost, dx, dy, dsx, dsy };
}
