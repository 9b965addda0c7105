/**
 * Polygon rings (lists of vertices, not closed): dropping repeated vertices and measuring signed
 * area. Shared by normalizeBoundary, validateBoundary and prepareBoundary so that all three agree
 * on which vertices exist.
 */
import type { Point } from './boundary.js';

/**
 * Consecutive vertices closer than this fraction of the ring's extent count as one vertex.
 * 1e-9 of a 10 km site is 10 micrometres: only true repeats (and a closing copy of the first
 * vertex) are dropped, never a real short edge such as cs3's 10 m step near [9361.5, 126.9].
 */
export const REPEATED_VERTEX_RELATIVE_TOLERANCE = 1e-9;

export interface CleanRing {
  vertices: Point[];
  /** Index in the caller's list of each kept vertex, so messages can name the user's vertices. */
  originalIndexByVertex: number[];
}

/** Largest side of the axis-aligned box around the finite vertices (0 for none). */
export function ringExtent(vertices: readonly Point[]): number {
  let minX = Infinity,
    minY = Infinity,
    maxX = -Infinity,
    maxY = -Infinity;
  for (const [px, py] of vertices) {
    if (!Number.isFinite(px) || !Number.isFinite(py)) continue;
    if (px < minX) minX = px;
    if (px > maxX) maxX = px;
    if (py < minY) minY = py;
    if (py > maxY) maxY = py;
  }
  return maxX >= minX ? Math.max(maxX - minX, maxY - minY) : 0;
}

/**
 * Drop vertices that repeat the previous kept vertex, and trailing vertices that repeat the first
 * (a closed ring given as open). Order and orientation are kept.
 */
export function dropRepeatedVertices(vertices: readonly Point[]): CleanRing {
  const tolerance = REPEATED_VERTEX_RELATIVE_TOLERANCE * ringExtent(vertices);
  const same = (a: Point, b: Point): boolean => Math.abs(a[0] - b[0]) <= tolerance && Math.abs(a[1] - b[1]) <= tolerance;
  const kept: Point[] = [];
  const originalIndexByVertex: number[] = [];
  for (let i = 0; i < vertices.length; i++) {
    const vertex = vertices[i]!;
    if (kept.length > 0 && same(kept[kept.length - 1]!, vertex)) continue;
    kept.push([vertex[0], vertex[1]]);
    originalIndexByVertex.push(i);
  }
  while (kept.length > 1 && same(kept[kept.length - 1]!, kept[0]!)) {
    kept.pop();
    originalIndexByVertex.pop();
  }
  return { vertices: kept, originalIndexByVertex };
}

/**
 * Shoelace signed area: positive for counter-clockwise rings. Coordinates are taken relative to
 * the first vertex so that sites far from the origin (UTM metres) do not lose digits.
 */
export function signedRingArea(vertices: readonly Point[]): number {
  const count = vertices.length;
  if (count < 3) return 0;
  const [originX, originY] = vertices[0]!;
  let twiceArea = 0;
  for (let i = 1; i < count - 1; i++) {
    const ax = vertices[i]![0] - originX,
      ay = vertices[i]![1] - originY;
    const bx = vertices[i + 1]![0] - originX,
      by = vertices[i + 1]![1] - originY;
    twiceArea += ax * by - bx * ay;
  }
  return twiceArea / 2;
}

/** Sum of |triangle-fan areas|: zero only when every vertex lies on one line. */
export function ringFanAbsoluteArea(vertices: readonly Point[]): number {
  const count = vertices.length;
  if (count < 3) return 0;
  const [originX, originY] = vertices[0]!;
  let twiceArea = 0;
  for (let i = 1; i < count - 1; i++) {
    const ax = vertices[i]![0] - originX,
      ay = vertices[i]![1] - originY;
    const bx = vertices[i + 1]![0] - originX,
      by = vertices[i + 1]![1] - originY;
    twiceArea += Math.abs(ax * by - bx * ay);
  }
  return twiceArea / 2;
}

/** The ring counter-clockwise (reversed when its signed area is negative). */
export function counterClockwise(vertices: Point[]): Point[] {
  return signedRingArea(vertices) < 0 ? vertices.slice().reverse() : vertices;
}
