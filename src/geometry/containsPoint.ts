/** containsPoint: is (x, y) inside the site? Points on the boundary count as inside. */
import { signedDistanceAt } from './boundaryDistance.js';
import { prepareBoundary, type BoundaryLike } from './preparedBoundary.js';

const gradientScratch = new Float64Array(2);

export function containsPoint(boundary: BoundaryLike, x: number, y: number): boolean {
  return signedDistanceAt(prepareBoundary(boundary), x, y, gradientScratch) >= 0;
}
