/**
 * Do two closed line segments share a point? Orientation tests in plain floating point: exact
 * for the crossing and touching configurations real site boundaries contain, and only ambiguous
 * for configurations within rounding (1e-16 relative) of touching.
 */

/** Twice the signed area of triangle (a, b, c): > 0 when c is left of a→b. */
export function orientation(ax: number, ay: number, bx: number, by: number, cx: number, cy: number): number {
  return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
}

/** c is known to be collinear with a-b: is it within the segment's box? */
function withinBox(ax: number, ay: number, bx: number, by: number, cx: number, cy: number): boolean {
  return Math.min(ax, bx) <= cx && cx <= Math.max(ax, bx) && Math.min(ay, by) <= cy && cy <= Math.max(ay, by);
}

/** True when segment p1-p2 and segment p3-p4 intersect or touch. */
export function segmentsIntersect(p1x: number, p1y: number, p2x: number, p2y: number, p3x: number, p3y: number, p4x: number, p4y: number): boolean {
  const d1 = orientation(p3x, p3y, p4x, p4y, p1x, p1y);
  const d2 = orientation(p3x, p3y, p4x, p4y, p2x, p2y);
  const d3 = orientation(p1x, p1y, p2x, p2y, p3x, p3y);
  const d4 = orientation(p1x, p1y, p2x, p2y, p4x, p4y);
  if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))) return true;
  if (d1 === 0 && withinBox(p3x, p3y, p4x, p4y, p1x, p1y)) return true;
  if (d2 === 0 && withinBox(p3x, p3y, p4x, p4y, p2x, p2y)) return true;
  if (d3 === 0 && withinBox(p1x, p1y, p2x, p2y, p3x, p3y)) return true;
  if (d4 === 0 && withinBox(p1x, p1y, p2x, p2y, p4x, p4y)) return true;
  return false;
}
