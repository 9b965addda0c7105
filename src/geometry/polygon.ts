/**
 * Signed distance to polygonal sites (one polygon or several disjoint ones), over the flat edge
 * arrays of a PreparedBoundary. One pass over the edges finds both the nearest boundary point
 * and the even-odd crossing parity (containment); the magnitude comes from the nearest edge and
 * the sign from the parity, so a point is never given the wrong sign by a near-tie between edges.
 *
 * Gradient, for the nearest point q on the boundary and d = |p − q|:
 * - q inside an edge: ±(that edge's unit inward normal), exact (no division by a small d);
 * - q a vertex: ±(p − q)/d;
 * - p on the boundary (d = 0): the inward normal of the nearest edge (one-sided value).
 * At ties between two nearest features (the medial axis) the first edge found wins.
 * For a multipolygon this equals the max over parts of each part's signed distance: a point in
 * one part is nearer to that part's boundary than to any other part's (parts are disjoint).
 */
import type { PreparedBoundary } from './preparedBoundary.js';

/** Signed distance to edges [firstEdge, endEdge) of `site`; gradient written to gradOut[0..1]. */
export function edgesSignedDistance(site: PreparedBoundary, px: number, py: number, gradOut: Float64Array, firstEdge = 0, endEdge = site.edgeCount): number {
  const { edgeStartX, edgeStartY, edgeEndX, edgeEndY, edgeAlongX, edgeAlongY, edgeInvLengthSq } = site;
  let bestDistanceSq = Infinity;
  let bestEdge = firstEdge;
  let bestT = 0;
  let inside = false;
  for (let k = firstEdge; k < endEdge; k++) {
    const ax = edgeStartX[k]!,
      ay = edgeStartY[k]!;
    const alongX = edgeAlongX[k]!,
      alongY = edgeAlongY[k]!;
    const relX = px - ax,
      relY = py - ay;
    let t = (relX * alongX + relY * alongY) * edgeInvLengthSq[k]!;
    if (t < 0) t = 0;
    else if (t > 1) t = 1;
    const gapX = relX - t * alongX,
      gapY = relY - t * alongY;
    const distanceSq = gapX * gapX + gapY * gapY;
    if (distanceSq < bestDistanceSq) {
      bestDistanceSq = distanceSq;
      bestEdge = k;
      bestT = t;
    }
    // Half-open crossing rule on the stored vertex coordinates, so shared vertices count once.
    const by = edgeEndY[k]!;
    if (ay > py !== by > py && px < ax + ((py - ay) * (edgeEndX[k]! - ax)) / (by - ay)) inside = !inside;
  }
  const distance = Math.sqrt(bestDistanceSq);
  const normalX = site.edgeInwardNormalX[bestEdge]!,
    normalY = site.edgeInwardNormalY[bestEdge]!;
  // awayX/Y: unit direction from the nearest boundary point towards p (gradient of the unsigned distance).
  let awayX: number, awayY: number;
  if (distance === 0) {
    gradOut[0] = normalX;
    gradOut[1] = normalY;
    return 0;
  }
  if (bestT > 0 && bestT < 1) {
    const ax = edgeStartX[bestEdge]!,
      ay = edgeStartY[bestEdge]!;
    const side = normalX * (px - ax) + normalY * (py - ay);
    awayX = side >= 0 ? normalX : -normalX;
    awayY = side >= 0 ? normalY : -normalY;
  } else {
    const vertexX = bestT === 0 ? edgeStartX[bestEdge]! : edgeEndX[bestEdge]!;
    const vertexY = bestT === 0 ? edgeStartY[bestEdge]! : edgeEndY[bestEdge]!;
    awayX = (px - vertexX) / distance;
    awayY = (py - vertexY) / distance;
  }
  if (inside) {
    gradOut[0] = awayX;
    gradOut[1] = awayY;
    return distance;
  }
  gradOut[0] = -awayX;
  gradOut[1] = -awayY;
  return -distance;
}

/** Even-odd containment in edges [firstEdge, endEdge) (points exactly on an edge may go either way). */
export function edgesContain(site: PreparedBoundary, px: number, py: number, firstEdge = 0, endEdge = site.edgeCount): boolean {
  const { edgeStartX, edgeStartY, edgeEndX, edgeEndY } = site;
  let inside = false;
  for (let k = firstEdge; k < endEdge; k++) {
    const ay = edgeStartY[k]!,
      by = edgeEndY[k]!;
    if (ay > py !== by > py) {
      const ax = edgeStartX[k]!;
      if (px < ax + ((py - ay) * (edgeEndX[k]! - ax)) / (by - ay)) inside = !inside;
    }
  }
  return inside;
}
