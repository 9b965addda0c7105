/**
 * Axis-aligned bounding box of a boundary: the natural variable bounds for an optimizer and the
 * sampling window for rejection sampling.
 */
import type { BoundingBox } from './boundary.js';
import { prepareBoundary, type BoundaryLike } from './preparedBoundary.js';

export type { BoundingBox } from './boundary.js';

export function boundingBox(boundary: BoundaryLike): BoundingBox {
  const { box } = prepareBoundary(boundary);
  return { minX: box.minX, minY: box.minY, maxX: box.maxX, maxY: box.maxY };
}
