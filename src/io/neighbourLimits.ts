/**
 * How many fixed neighbouring turbines a farm may have, and how far from its site they may stand:
 * one rule for every door neighbours come through (case files and campaign farms via
 * farmTurbines.ts, windIO systems of several layouts, PyWake reference files), checked when the
 * input is read, so that `validate` refuses what a worker could not evaluate.
 *
 * Count: the wake engines keep per-pair arrays over all turbines of an evaluation, own and
 * neighbours (physics/wakedAep.ts: 68 bytes a pair, 116 with added turbulence), n(n−1)/2 pairs.
 * 2000 neighbours beside the 16 turbines of IEA37 cs1 take 245 MB and 10 s for `wflo aep` with
 * Niayifar's model (measured: /usr/bin/time, docs/inputs.md); 10⁵ neighbours would need 5·10⁹
 * pairs, which no typed array holds. Real neighbouring clusters (the German Bight's ~1500
 * turbines) fit under the limit.
 *
 * Reach: a neighbour more than 100 km from the site (the distance to its bounding box, or to the
 * layout's when the case has no site) is refused. Engineering wake deficits there are below 10⁻³
 * of the free stream for every model wflo has (Gaussian, k = 0.04: σ ≈ 30 D at 100 km of a
 * 130 m rotor, deficit ≈ Ct/(8·(σ/D)²) ≈ 1e−4), and measured cluster wakes fade within ~50–70 km
 * (Platis et al. 2018); a neighbour that far is a unit slip (km for m) or another coordinate
 * frame. The engine's per-direction reach table grows with the farm's extent (1.3 GB at 10⁹ m).
 */
import type { Boundary } from '../geometry/boundary.js';
import { boundingBox } from '../geometry/boundingBox.js';

export const MAX_NEIGHBOURS = 2000;
export const NEIGHBOUR_REACH_M = 100_000;

export interface SiteBox {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

/** The box neighbours are measured from: the site's, else the layout's, else null (no distance check). */
export function siteBoxOf(boundary: Boundary | null, layout?: { x: ArrayLike<number>; y: ArrayLike<number> } | null): SiteBox | null {
  if (boundary) return boundingBox(boundary);
  if (!layout || layout.x.length === 0) return null;
  const box = { minX: Infinity, minY: Infinity, maxX: -Infinity, maxY: -Infinity };
  for (let i = 0; i < layout.x.length; i++) {
    box.minX = Math.min(box.minX, layout.x[i]);
    box.maxX = Math.max(box.maxX, layout.x[i]);
    box.minY = Math.min(box.minY, layout.y[i]);
    box.maxY = Math.max(box.maxY, layout.y[i]);
  }
  return box;
}

/** Why `count` neighbours are too many, or null. */
export function neighbourCountProblem(count: number): string | null {
  if (count <= MAX_NEIGHBOURS) return null;
  return `${count} neighbouring turbines, over the limit of ${MAX_NEIGHBOURS}: an evaluation holds every pair of turbines (~116 bytes a pair; ${MAX_NEIGHBOURS} neighbours take ~250 MB); keep the neighbours whose wakes reach the farm`;
}

/** Why a neighbour at (x, y) is beyond the reach of `box`, or null. */
export function neighbourReachProblem(x: number, y: number, box: SiteBox | null, what: string): string | null {
  if (!box) return null;
  const dx = Math.max(box.minX - x, 0, x - box.maxX),
    dy = Math.max(box.minY - y, 0, y - box.maxY);
  const distance = Math.hypot(dx, dy);
  if (distance <= NEIGHBOUR_REACH_M) return null;
  return `${what} at (${x}, ${y}) m is ${+(distance / 1000).toPrecision(4)} km from the site, beyond the ${NEIGHBOUR_REACH_M / 1000} km within which neighbours' wakes are counted (metres expected; same coordinate frame as the site)`;
}
