/**
 * Cables and exclusion zones: a straight cable segment is refused when it passes through a zone,
 * that is when it meets any edge of the zone's polygon (touching a corner or running along an
 * edge included, with the crossing test's 1 µm tolerance) or has an end strictly inside it. There
 * are no detours: an edge so refused is never used.
 */
import type { ExclusionZone } from '../boundary.js';
import { segmentsCross } from './segmentCrossing.js';

/** Even-odd test: is (x, y) inside the polygon (points on its edges may go either way)? */
export function insidePolygon(vertices: ExclusionZone['vertices'], x: number, y: number): boolean {
  let inside = false;
  for (let a = 0, b = vertices.length - 1; a < vertices.length; b = a++) {
    const [xa, ya] = vertices[a];
    const [xb, yb] = vertices[b];
    if (ya > y !== yb > y && x < ((xb - xa) * (y - ya)) / (yb - ya) + xa) inside = !inside;
  }
  return inside;
}

/** The first zone the segment (ax, ay)-(bx, by) passes through, or undefined. */
export function blockingZone(zones: readonly ExclusionZone[], ax: number, ay: number, bx: number, by: number): ExclusionZone | undefined {
  for (const zone of zones) {
    const v = zone.vertices;
    if (insidePolygon(v, ax, ay) || insidePolygon(v, bx, by)) return zone;
    for (let a = 0, b = v.length - 1; a < v.length; b = a++) {
      if (segmentsCross(ax, ay, bx, by, v[b][0], v[b][1], v[a][0], v[a][1])) return zone;
    }
  }
  return undefined;
}
