/**
 * boundaryPenalty: Σ_i max(0, shift_i − dist_i)², dist_i the signed distance of turbine i to the
 * boundary (positive inside). With no shift this is Σ_i max(0, −dist_i)², the squared metres by
 * which turbines are outside. Its gradient is ADDED into gradX/gradY (the caller zeroes them), and
 * nothing is allocated per call (pass a PreparedBoundary so that the boundary is not re-validated).
 *
 * The optional shift turns this into the inequality part of the Powell–Hestenes–Rockafellar
 * augmented Lagrangian: for constraints dist_i >= 0 with multipliers λ_i >= 0 and penalty μ,
 *   L = f + (μ/2) Σ_i [max(0, λ_i/μ − dist_i)² − (λ_i/μ)²],
 * so pass shiftByTurbine[i] = λ_i/μ, and update λ_i ← max(0, λ_i − μ·dist_i) between rounds.
 */
import { signedDistanceAt } from './boundaryDistance.js';
import { assertSameLength } from './sameLength.js';
import { prepareBoundary, type BoundaryLike } from './preparedBoundary.js';

const gradientScratch = new Float64Array(2);

export function boundaryPenalty(
  boundary: BoundaryLike,
  x: Float64Array,
  y: Float64Array,
  gradX: Float64Array,
  gradY: Float64Array,
  shiftByTurbine?: Float64Array,
): number {
  assertSameLength(x, y);
  const site = prepareBoundary(boundary);
  const count = x.length;
  let total = 0;
  for (let i = 0; i < count; i++) {
    const distance = signedDistanceAt(site, x[i]!, y[i]!, gradientScratch);
    const shortfall = (shiftByTurbine === undefined ? 0 : shiftByTurbine[i]!) - distance;
    if (shortfall <= 0) continue;
    total += shortfall * shortfall;
    gradX[i] -= 2 * shortfall * gradientScratch[0]!;
    gradY[i] -= 2 * shortfall * gradientScratch[1]!;
  }
  return total;
}
