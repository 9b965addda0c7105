/**
 * Do two cable segments cross? Orientation tests in floating point with a stated tolerance: a
 * point closer than CROSSING_TOLERANCE_M (1 µm) to the other segment's line counts as on it, so
 * touching and near-touching segments count as crossing (conservative). Segments that share an
 * end (two cables meeting at a turbine or substation) cross only when they overlap along a line.
 */
import { orientation } from '../segmentIntersection.js';

export const CROSSING_TOLERANCE_M = 1e-6;

/** Signed distance of c from the line a→b, 0 within the tolerance (or for a degenerate a = b). */
function side(ax: number, ay: number, bx: number, by: number, cx: number, cy: number): number {
  const len = Math.hypot(bx - ax, by - ay);
  if (len === 0) return 0;
  const s = orientation(ax, ay, bx, by, cx, cy) / len;
  return Math.abs(s) <= CROSSING_TOLERANCE_M ? 0 : s;
}

/** Twice a triangle's area over its base length: the signed distance, 0 within the tolerance. */
function signedOver(o: number, len: number): number {
  return len === 0 || Math.abs(o) <= CROSSING_TOLERANCE_M * len ? 0 : o;
}

/** c (on the line of a-b) lies within the segment's box, widened by the tolerance. */
function inBox(ax: number, ay: number, bx: number, by: number, cx: number, cy: number): boolean {
  const t = CROSSING_TOLERANCE_M;
  return Math.min(ax, bx) - t <= cx && cx <= Math.max(ax, bx) + t && Math.min(ay, by) - t <= cy && cy <= Math.max(ay, by) + t;
}

/** Segments a-b and c-d with no end in common: do they cross or touch? */
export function segmentsCross(ax: number, ay: number, bx: number, by: number, cx: number, cy: number, dx: number, dy: number): boolean {
  const t = CROSSING_TOLERANCE_M;
  // Boxes (widened by the tolerance) apart: no common point.
  if (
    Math.max(ax, bx) + t < Math.min(cx, dx) ||
    Math.max(cx, dx) + t < Math.min(ax, bx) ||
    Math.max(ay, by) + t < Math.min(cy, dy) ||
    Math.max(cy, dy) + t < Math.min(ay, by)
  )
    return false;
  const lcd = Math.sqrt((dx - cx) ** 2 + (dy - cy) ** 2);
  const lab = Math.sqrt((bx - ax) ** 2 + (by - ay) ** 2);
  const d1 = signedOver(orientation(cx, cy, dx, dy, ax, ay), lcd);
  const d2 = signedOver(orientation(cx, cy, dx, dy, bx, by), lcd);
  const d3 = signedOver(orientation(ax, ay, bx, by, cx, cy), lab);
  const d4 = signedOver(orientation(ax, ay, bx, by, dx, dy), lab);
  if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))) return true;
  return (
    (d1 === 0 && inBox(cx, cy, dx, dy, ax, ay)) ||
    (d2 === 0 && inBox(cx, cy, dx, dy, bx, by)) ||
    (d3 === 0 && inBox(ax, ay, bx, by, cx, cy)) ||
    (d4 === 0 && inBox(ax, ay, bx, by, dx, dy))
  );
}

/**
 * Edges i-j and k-l between nodes at (px, py): do they cross? Edges sharing one node cross only
 * when collinear and overlapping; the same edge twice counts as crossing.
 */
export function edgesCross(i: number, j: number, k: number, l: number, px: Float64Array, py: Float64Array): boolean {
  const shared = (i === k || i === l ? 1 : 0) + (j === k || j === l ? 1 : 0);
  if (shared === 2) return true;
  if (shared === 1) {
    const s = i === k || i === l ? i : j;
    const o1 = s === i ? j : i;
    const o2 = s === k ? l : k;
    // Collinear and on the same side of the shared node: one runs along the other.
    if (side(px[s], py[s], px[o1], py[o1], px[o2], py[o2]) !== 0) return false;
    return (px[o1] - px[s]) * (px[o2] - px[s]) + (py[o1] - py[s]) * (py[o2] - py[s]) > 0;
  }
  return segmentsCross(px[i], py[i], px[j], py[j], px[k], py[k], px[l], py[l]);
}
