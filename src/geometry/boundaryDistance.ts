/**
 * Signed distance from each turbine to the site boundary, metres, positive inside and negative
 * outside, with its exact gradient. The constraint "turbine i inside" is value[i] >= 0.
 * Circle: radius − |p − c|. Polygon: ± distance to the nearest edge. Multipolygon: the max over
 * parts. See circle.ts and polygon.ts for the gradient at non-differentiable points.
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

/** Signed distance of one point; its gradient is written to gradOut[0], gradOut[1]. No allocation. */
export function signedDistanceAt(site: PreparedBoundary, px: number, py: number, gradOut: Float64Array): number {
  return site.isCircle
    ? circleSignedDistance(site.centerX, site.centerY, site.radius, px, py, gradOut)
    : edgesSignedDistance(site, px, py, gradOut);
}

/**
 * Signed distance and gradient for every turbine. Pass `out` (arrays of length n) to reuse
 * buffers across calls; otherwise three arrays are allocated.
 */
export function boundaryDistance(
  boundary: BoundaryLike, x: Float64Array, y: Float64Array, out?: BoundaryDistance,
): BoundaryDistance {
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
