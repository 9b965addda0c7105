/**
 * normalizeBoundary: a cleaned copy of a boundary in one canonical form. Polygons lose repeated
 * consecutive vertices and a closing copy of the first vertex, and are turned counter-clockwise
 * (interior on the left of every edge). It does not validate: call validateBoundary for that.
 */
import type { Boundary, Point } from './boundary.js';
import { counterClockwise, dropRepeatedVertices } from './ring.js';

export function normalizeBoundary(boundary: Boundary): Boundary {
  switch (boundary.kind) {
    case 'circle':
      return {
        kind: 'circle',
        center: [boundary.center[0], boundary.center[1]],
        radius: boundary.radius,
      };
    case 'polygon':
      return { kind: 'polygon', vertices: normalizeRing(boundary.vertices) };
    case 'multipolygon':
      return { kind: 'multipolygon', polygons: boundary.polygons.map(normalizeRing) };
  }
}

function normalizeRing(vertices: readonly Point[]): Point[] {
  return counterClockwise(dropRepeatedVertices(vertices).vertices);
}
