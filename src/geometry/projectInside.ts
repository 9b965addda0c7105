/**
 * projectInside: repair a layout by moving every turbine that is outside the site or inside an
 * exclusion zone to the nearest point on the usable site's edge, optionally `marginM` further in. Works in place on x and y; turbines
 * already inside are not touched (even if closer than the margin). Spacing is not repaired.
 *
 * The nearest boundary point of an outside point p is exact: q = p − dist(p)·∇dist(p). The margin
 * is then reached with a few Newton steps on the signed distance starting from q (see the loop
 * for how corners are handled). Near a corner sharper than about 6° (the margin point would be
 * more than 20 margins from q) or where the site is thinner than twice the margin, the margin is
 * not reached; the turbine then gets the deepest point found (at worst q, on the boundary).
 */
import { signedDistanceAt } from './boundaryDistance.js';
import { assertSameLength } from './sameLength.js';
import { prepareBoundary, type BoundaryLike } from './preparedBoundary.js';

const MARGIN_NEWTON_STEPS = 12;
/** Extra projections when the first one lands in another exclusion zone or outside the site. */
const EXCLUSION_ROUNDS = 8;
/** A margin point further than this many margins from the boundary point q is not used. */
const MAX_TRAVEL_MARGINS = 20;
/** Two step models whose normals differ by less than this sine are treated as one edge. */
const CORNER_MIN_SINE = 1e-6;

/** Returns the number of turbines moved. */
export function projectInside(boundary: BoundaryLike, x: Float64Array, y: Float64Array, marginM = 0): number {
  assertSameLength(x, y);
  if (!(marginM >= 0) || !Number.isFinite(marginM)) {
    throw new RangeError(`projectInside: margin must be a finite number >= 0 m, got ${marginM}`);
  }
  const site = prepareBoundary(boundary);
  const gradient = new Float64Array(2);
  let moved = 0;
  for (let i = 0; i < x.length; i++) {
    const px = x[i]!,
      py = y[i]!;
    if (!Number.isFinite(px) || !Number.isFinite(py)) continue;
    let distance = signedDistanceAt(site, px, py, gradient);
    if (distance >= 0) continue;
    moved++;
    let nearestX = px - distance * gradient[0]!;
    let nearestY = py - distance * gradient[1]!;
    // With exclusion zones the nearest point of one feature can lie in another (a zone next to
    // the edge): project again from there, a few times.
    for (let round = 0; round < EXCLUSION_ROUNDS && site.exclusions.length > 0; round++) {
      distance = signedDistanceAt(site, nearestX, nearestY, gradient);
      if (distance >= 0) break;
      nearestX -= distance * gradient[0]!;
      nearestY -= distance * gradient[1]!;
    }
    x[i] = nearestX;
    y[i] = nearestY;
    if (marginM === 0) continue;
    if (site.isCircle && site.exclusions.length === 0) {
      placeInCircle(site.centerX, site.centerY, site.radius - marginM, x, y, i);
      continue;
    }
    // Newton steps on the signed distance towards dist = margin. Each step's model is the plane
    // g·c' = margin − v + g·c; when the nearest edge changes between steps (a corner), the
    // point meeting both the previous and the current model is taken: the exact corner of the
    // site shrunk by the margin, where plain steps would bounce between the two edges.
    // Candidates further than MAX_TRAVEL_MARGINS margins from q are not used, so a turbine is
    // never carried far along a thin spike; the deepest candidate used is kept (at worst q).
    let candidateX = nearestX,
      candidateY = nearestY;
    let bestDepth = 0;
    let previousGradX = 0,
      previousGradY = 0,
      previousTarget = 0;
    // Tolerance relative to the site so that rounding at UTM-sized coordinates cannot loop forever.
    const enough = marginM - 1e-12 * site.extent;
    const maxTravelSq = (MAX_TRAVEL_MARGINS * marginM) ** 2;
    for (let step = 0; step < MARGIN_NEWTON_STEPS; step++) {
      const value = signedDistanceAt(site, candidateX, candidateY, gradient);
      const travelSq = (candidateX - nearestX) ** 2 + (candidateY - nearestY) ** 2;
      if (travelSq <= maxTravelSq && value > bestDepth) {
        bestDepth = value;
        x[i] = candidateX;
        y[i] = candidateY;
        if (value >= enough) break;
      }
      const gradX = gradient[0]!,
        gradY = gradient[1]!;
      const target = marginM - value + gradX * candidateX + gradY * candidateY;
      const determinant = previousGradX * gradY - previousGradY * gradX;
      if (step > 0 && Math.abs(determinant) > CORNER_MIN_SINE) {
        candidateX = (previousTarget * gradY - previousGradY * target) / determinant;
        candidateY = (previousGradX * target - previousTarget * gradX) / determinant;
      } else {
        candidateX += (marginM - value) * gradX;
        candidateY += (marginM - value) * gradY;
      }
      previousGradX = gradX;
      previousGradY = gradY;
      previousTarget = target;
    }
  }
  return moved;
}

/** Circle: the point at `targetRadius` from the centre in the turbine's direction (centre if <= 0). */
function placeInCircle(centerX: number, centerY: number, targetRadius: number, x: Float64Array, y: Float64Array, i: number): void {
  const offsetX = x[i]! - centerX,
    offsetY = y[i]! - centerY;
  const fromCenter = Math.sqrt(offsetX * offsetX + offsetY * offsetY);
  const scale = targetRadius > 0 && fromCenter > 0 ? targetRadius / fromCenter : 0;
  x[i] = centerX + offsetX * scale;
  y[i] = centerY + offsetY * scale;
}
