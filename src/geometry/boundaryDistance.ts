/**
 * Signed distance from each turbine to the edge of the usable site, metres, positive where a
 * turbine may stand and negative where it may not, with its exact gradient. The constraint
 * "turbine i placed legally" is value[i] >= 0.
 *
 * The usable site is the boundary minus its exclusion zones, and the distance is the minimum of
 * - the site's own signed distance (circle: radius − |p − c|; polygon: ± distance to the nearest
 *   edge; multipolygon: the max over parts; see circle.ts and polygon.ts), and
 * - for every exclusion zone, its clearance: + distance to the zone outside it, − inside it
 *   (the negated signed distance of the zone polygon).
 * The gradient is that of the feature giving the minimum (at ties, the site, then the first zone).
 * siteSignedDistanceAt and exclusionClearanceAt give the parts separately, for optimizers that
 * keep one smooth constraint per turbine and zone.
 */
import { circleSignedDistance } from './circle.js';
import { edgesSignedDistance } from './polygon.js';
import { prepareBoundary, type BoundaryLike, type PreparedBoundary } from './preparedBoundary.js';
import { assertSameLength } from './sameLength.js';

export interface BoundaryDistance {
  /** Signed distance by turbine, m. */
  value: Float64Array;
  /** d value[i] / d x[i] (value[i] depends on turbine i only). */
  dx: Float64Array;
  /** d value[i] / d y[i]. */
  dy: Float64Array;
}

const zoneGradient = new Float64Array(2);

/** Signed distance to the site boundary alone (exclusion zones ignored); gradient to gradOut. */
export function siteSignedDistanceAt(site: PreparedBoundary, px: number, py: number, gradOut: Float64Array): number {
  return site.isCircle ? circleSignedDistance(site.centerX, site.centerY, site.radius, px, py, gradOut) : edgesSignedDistance(site, px, py, gradOut);
}

/** Clearance from exclusion zone `zoneIndex`: + outside, − inside (m); gradient to gradOut. */
export function exclusionClearanceAt(site: PreparedBoundary, zoneIndex: number, px: number, py: number, gradOut: Float64Array): number {
  const value = -edgesSignedDistance(site.exclusions[zoneIndex]!.zone, px, py, gradOut);
  gradOut[0] = -gradOut[0]!;
  gradOut[1] = -gradOut[1]!;
  return value;
}

/**
 * Signed distance of one point to the usable site (see the file comment); its gradient is written
 * to gradOut[0], gradOut[1]. No allocation.
 */
export function signedDistanceAt(site: PreparedBoundary, px: number, py: number, gradOut: Float64Array): number {
  let value = siteSignedDistanceAt(site, px, py, gradOut);
  const zones = site.exclusions;
  for (let k = 0; k < zones.length; k++) {
    // A zone's clearance is at least the distance to its box: skip zones that cannot be nearer.
    const box = zones[k]!.zone.box;
    const gapX = Math.max(box.minX - px, 0, px - box.maxX),
      gapY = Math.max(box.minY - py, 0, py - box.maxY);
    const boxDistanceSq = gapX * gapX + gapY * gapY;
    if (boxDistanceSq > 0 && (value < 0 || boxDistanceSq >= value * value)) continue;
    const clearance = exclusionClearanceAt(site, k, px, py, zoneGradient);
    if (clearance < value) {
      value = clearance;
      gradOut[0] = zoneGradient[0]!;
      gradOut[1] = zoneGradient[1]!;
    }
  }
  return value;
}

/**
 * Signed distance and gradient for every turbine. Pass `out` (arrays of length n) to reuse
 * buffers across calls; otherwise three arrays are allocated.
 */
export function boundaryDistance(boundary: BoundaryLike, x: Float64Array, y: Float64Array, out?: BoundaryDistance): BoundaryDistance {
  assertSameLength(x, y);
  const site = prepareBoundary(boundary);
  const count = x.length;
  const result = out ?? { value: new Float64Array(count), dx: new Float64Array(count), dy: new Float64Array(count) };
  if (result.value.length < count || result.dx.length < count || result.dy.length < count) {
    throw new RangeError(`boundaryDistance: out arrays must have length >= ${count}`);
  }
  const grad = new Float64Array(2);
  for (let i = 0; i < count; i++) {
    result.value[i] = signedDistanceAt(site, x[i]!, y[i]!, grad);
    result.dx[i] = grad[0]!;
    result.dy[i] = grad[1]!;
  }
  return result;
}
