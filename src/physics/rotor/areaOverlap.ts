/**
 * Area-overlap rotor average: the fraction of a target rotor disc (radius R₂) covered by a wake
 * disc (radius R₁) whose centre is at distance d, with its partial derivatives.
 *
 * Circle-circle intersection (J. Feng, W.Z. Shen, "Solving the wind farm layout optimization problem
 * using random search algorithm", Renewable Energy 78 (2015) 182–192, eq. (A1), corrected as
 * PyWake's AreaOverlapAvgModel does), with R_max = max(R₁, R₂), R_min = min(R₁, R₂):
 *
 *   fraction = 1                                  if d ≤ R_max − R_min (full overlap, either way)
 *            = 0                                  if d ≥ R_max + R_min
 *            = (α R_max² + β R_min² − R₁ d sin α) / (π R₂²)   otherwise,
 *   cos α = (R_max² + d² − R_min²) / (2 R_max d),   cos β = (R_min² + d² − R_max²) / (2 R_min d)
 *
 * The triangle term uses R₁ (the wake radius) as PyWake does: that is the exact lens area when
 * the wake is at least as wide as the rotor (always for Jensen), and PyWake's value otherwise.
 * The cosines are clipped to [−1 + 2ε, 1 − 2ε] as PyWake does.
 */
import { acosKernel } from '../specialFunctions.js';

const EPS2 = 2 * 2.220446049250313e-16;

/** Returns the fraction; g[0] = ∂/∂R₁ (wake radius), g[1] = ∂/∂d. */
export function overlapFraction(r1: number, r2: number, d: number, g: Float64Array | null): number {
  const wakeIsMax = r1 >= r2;
  const rMax = wakeIsMax ? r1 : r2;
  const rMin = wakeIsMax ? r2 : r1;
  if (d <= rMax - rMin) {
    if (g) {
      g[0] = 0;
      g[1] = 0;
    }
    return 1;
  }
  if (d >= rMax + rMin) {
    if (g) {
      g[0] = 0;
      g[1] = 0;
    }
    return 0;
  }
  const ca = (rMax * rMax + d * d - rMin * rMin) / (2 * Math.max(rMax * d, EPS2));
  const cb = (rMin * rMin + d * d - rMax * rMax) / (2 * Math.max(rMin * d, EPS2));
  const caC = Math.min(Math.max(ca, -1 + EPS2), 1 - EPS2);
  const cbC = Math.min(Math.max(cb, -1 + EPS2), 1 - EPS2);
  // The native kernel's acos (specialFunctions.ts acosKernel): the two kernels' fractions agree bit for bit.
  const alpha = acosKernel(caC),
    beta = acosKernel(cbC);
  // sin α = √((1 − cos α)(1 + cos α)) from the clipped cosine, as the native kernel computes it
  // (scalarPhysics.inc overlapFraction; kernelFormulas.test.ts keeps the two equal).
  const sinA = Math.sqrt((1 - caC) * (1 + caC));
  const norm = Math.PI * r2 * r2;
  const area = alpha * rMax * rMax + beta * rMin * rMin - sinA * r1 * d;
  if (g) {
    // dα = −dcos α / sin α (0 where the cosine was clipped).
    const dAlpha = ca === caC ? -1 / sinA : 0;
    const dBeta = cb === cbC ? -1 / Math.sqrt((1 - cbC) * (1 + cbC)) : 0;
    const dcaDd = (d * d - rMax * rMax + rMin * rMin) / (2 * rMax * d * d);
    const dcbDd = (d * d - rMin * rMin + rMax * rMax) / (2 * rMin * d * d);
    const dcaDmax = (rMax * rMax - d * d + rMin * rMin) / (2 * rMax * rMax * d);
    const dcaDmin = -rMin / (rMax * d);
    const dcbDmin = (rMin * rMin - d * d + rMax * rMax) / (2 * rMin * rMin * d);
    const dcbDmax = -rMax / (rMin * d);
    // Area as a function of (α, β, R_max, R_min, R₁, d).
    const aAlpha = rMax * rMax - caC * r1 * d;
    const aBeta = rMin * rMin;
    const dAreaDd = aAlpha * dAlpha * dcaDd + aBeta * dBeta * dcbDd - sinA * r1;
    let dAreaDr1: number;
    if (wakeIsMax) {
      dAreaDr1 = aAlpha * dAlpha * dcaDmax + aBeta * dBeta * dcbDmax + 2 * alpha * rMax - sinA * d;
    } else {
      dAreaDr1 = aAlpha * dAlpha * dcaDmin + aBeta * dBeta * dcbDmin + 2 * beta * rMin - sinA * d;
    }
    g[0] = dAreaDr1 / norm;
    g[1] = dAreaDd / norm;
  }
  return area / norm;
}
