/**
 * normalizeBoundary: a cleaned copy of a boundary in one canonical form. Polygons lose repeated
 * consecutive vertices and a closing copy of the first vertex, and are turned counter-clockwise
 * (interior on the left of every edge); so are exclusion zones (their names kept). It does not
 * validate: call validateBoundary for that.
 */
import type { Boundary, Point } from './boundary.js';
import { counterClockwise, dropRepeatedVertices } from './ring.js';

export function normalizeBoundary(boundary: Boundary): Boundary {
  const site = normalizeSite(boundary);
  if (boundary.exclusions === undefined || boundary.exclusions.length === 0) return site;
  return { ...site, exclusions: boundary.exclusions.map((zone) => ({ name: zone.name, vertices: normalizeRing(zone.vertices) })) };
}

function normalizeSite(boundary: Boundary): Boundary {
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
