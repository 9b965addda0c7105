/**
 * containsPoint: may a turbine stand at (x, y): inside the site and outside every exclusion zone?
 * Points on the boundary or on a zone's edge count as allowed.
 */
import { signedDistanceAt } from './boundaryDistance.js';
import { prepareBoundary, type BoundaryLike } from './preparedBoundary.js';

const gradientScratch = new Float64Array(2);

export function containsPoint(boundary: BoundaryLike, x: number, y: number): boolean {
  return signedDistanceAt(prepareBoundary(boundary), x, y, gradientScratch) >= 0;
}
