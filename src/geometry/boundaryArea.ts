/** boundaryArea: area of the site in m² (sum over parts for a multipolygon). */
import { prepareBoundary, type BoundaryLike } from './preparedBoundary.js';

export function boundaryArea(boundary: BoundaryLike): number {
  return prepareBoundary(boundary).area;
}
