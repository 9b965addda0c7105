/**
 * What the windIO resource readers return: the discrete rose (direction × speed) and the
 * turbulence intensity of every bin, same flat layout as the probabilities
 * (`index = dir * nSpeeds + speed`). wflo's WindResource carries one site-wide turbulence
 * intensity; `wind.turbulenceIntensity` is the probability-weighted mean of the bins. A gridded
 * resource also gives `site` (each turbine's own probability and/or TI).
 */
import type { WindResource } from '../../physics/windResource.js';
import type { Site } from '../../physics/site/site.js';

export interface BinnedResource {
  wind: WindResource;
  turbulenceIntensityByBin: Float64Array;
  /** A gridded resource's per-point site (Weibull and/or TI fields over x, y; griddedResource.ts). */
  site?: Site;
}

/** Probability-weighted mean of a per-bin quantity (the plain mean when all probabilities are 0). */
export function probabilityWeightedMean(probability: Float64Array, valueByBin: Float64Array): number {
  // A uniform value is returned as it is (no rounding from the weighted sum).
  if (valueByBin.every((v) => v === valueByBin[0])) return valueByBin[0];
  let sum = 0,
    weight = 0;
  for (let i = 0; i < probability.length; i++) {
    sum += probability[i] * valueByBin[i];
    weight += probability[i];
  }
  if (weight > 0) return sum / weight;
  return valueByBin.reduce((s, v) => s + v, 0) / Math.max(1, valueByBin.length);
}
