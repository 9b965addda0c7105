/**
 * Smooth aggregated constraints: one differentiable number per constraint family for optimizers
 * (SQP, MMA, interior point) that do better with two smooth constraints than with n + n²/2 kinked
 * ones. Kreisselmeier–Steinhauser (KS) lower envelope of the constraint values g_k:
 *   KS_ρ(g) = m − (1/ρ) ln Σ_k exp(−ρ (g_k − m)),  m = min_k g_k,
 * which satisfies  min g − ln(K)/ρ <= KS_ρ(g) <= min g  (K terms), so KS >= 0 implies every
 * g_k >= 0 (conservative). ρ is in 1/m; a larger ρ is tighter but less smooth. Terms with
 * ρ (g_k − m) > 40 (weight < 4e-18 of the largest) are skipped. Gradients are ADDED into
 * gradX/gradY. Scratch arrays are kept between calls (grown when n grows), so calls do not
 * allocate once warm; results never depend on that scratch's history.
 *
 * Reference: G. Kreisselmeier and R. Steinhauser, "Systematic control design by optimizing a
 * vector performance index", IFAC Proceedings 12(7), 1979.
 */
import { signedDistanceAt } from './boundaryDistance.js';
import { assertSameLength } from './sameLength.js';
import { prepareBoundary, type BoundaryLike } from './preparedBoundary.js';

const NEGLIGIBLE_EXPONENT = 40;

let scratchGradX = new Float64Array(0);
let scratchGradY = new Float64Array(0);
let scratchValue = new Float64Array(0);
const pointGradient = new Float64Array(2);

function scratchFor(count: number): void {
  if (scratchGradX.length < count) {
    scratchGradX = new Float64Array(count);
    scratchGradY = new Float64Array(count);
    scratchValue = new Float64Array(count);
  }
  scratchGradX.fill(0, 0, count);
  scratchGradY.fill(0, 0, count);
}

function assertPositiveRho(rho: number): void {
  if (!(rho > 0) || !Number.isFinite(rho)) throw new RangeError(`KS aggregation needs a positive finite rho (1/m), got ${rho}`);
}

/**
 * KS lower envelope of d_ij − s over all pairs i < j (m): >= 0 implies the spacing holds.
 * +Infinity (no gradient) for fewer than two turbines.
 */
export function spacingKs(x: Float64Array, y: Float64Array, minSpacing: number, rho: number, gradX: Float64Array, gradY: Float64Array): number {
  assertSameLength(x, y);
  assertPositiveRho(rho);
  const count = x.length;
  if (count < 2) return Infinity;
  let nearestSq = Infinity;
  for (let i = 0; i < count; i++) {
    const xi = x[i]!,
      yi = y[i]!;
    for (let j = i + 1; j < count; j++) {
      const gapX = xi - x[j]!,
        gapY = yi - y[j]!;
      const distanceSq = gapX * gapX + gapY * gapY;
      if (distanceSq < nearestSq) nearestSq = distanceSq;
    }
  }
  const nearest = Math.sqrt(nearestSq);
  const reach = nearest + NEGLIGIBLE_EXPONENT / rho;
  const reachSq = reach * reach;
  scratchFor(count);
  let weightSum = 0;
  for (let i = 0; i < count; i++) {
    const xi = x[i]!,
      yi = y[i]!;
    for (let j = i + 1; j < count; j++) {
      const gapX = xi - x[j]!,
        gapY = yi - y[j]!;
      const distanceSq = gapX * gapX + gapY * gapY;
      if (distanceSq > reachSq) continue;
      const distance = Math.sqrt(distanceSq);
      const weight = Math.exp(-rho * (distance - nearest));
      weightSum += weight;
      let unitX = 1,
        unitY = 0;
      if (distance > 0) {
        unitX = gapX / distance;
        unitY = gapY / distance;
      }
      scratchGradX[i] += weight * unitX;
      scratchGradY[i] += weight * unitY;
      scratchGradX[j] -= weight * unitX;
      scratchGradY[j] -= weight * unitY;
    }
  }
  for (let i = 0; i < count; i++) {
    gradX[i] += scratchGradX[i]! / weightSum;
    gradY[i] += scratchGradY[i]! / weightSum;
  }
  return nearest - minSpacing - Math.log(weightSum) / rho;
}

/**
 * KS lower envelope of the turbines' signed boundary distances (m): >= 0 implies all inside.
 * +Infinity (no gradient) for no turbines.
 */
export function boundaryKs(boundary: BoundaryLike, x: Float64Array, y: Float64Array, rho: number, gradX: Float64Array, gradY: Float64Array): number {
  assertSameLength(x, y);
  assertPositiveRho(rho);
  const site = prepareBoundary(boundary);
  const count = x.length;
  if (count === 0) return Infinity;
  scratchFor(count);
  let smallest = Infinity;
  for (let i = 0; i < count; i++) {
    const value = signedDistanceAt(site, x[i]!, y[i]!, pointGradient);
    scratchValue[i] = value;
    scratchGradX[i] = pointGradient[0]!;
    scratchGradY[i] = pointGradient[1]!;
    if (value < smallest) smallest = value;
  }
  let weightSum = 0;
  for (let i = 0; i < count; i++) {
    const exponent = rho * (scratchValue[i]! - smallest);
    const weight = exponent > NEGLIGIBLE_EXPONENT ? 0 : Math.exp(-exponent);
    scratchValue[i] = weight;
    weightSum += weight;
  }
  for (let i = 0; i < count; i++) {
    const share = scratchValue[i]! / weightSum;
    gradX[i] += share * scratchGradX[i]!;
    gradY[i] += share * scratchGradY[i]!;
  }
  return smallest - Math.log(weightSum) / rho;
}
