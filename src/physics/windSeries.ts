/**
 * A time-series wind resource: samples (direction, speed, weight, optional turbulence intensity)
 * evaluated one by one, and the binned rose that summarises them for plots and for the energy by
 * direction.
 *
 * Weights: given per sample (a duration, a count or a frequency, any non-negative unit) they are
 * divided by their sum (weights that sum to 1 within 1e-12 are kept as they are; weights whose
 * sum overflows are first divided by the largest); without them
 * every sample weighs 1/n, as PyWake's time series (XRSite: P = 1/len(time)).
 * AEP = hours · Σ_t w_t Σ_i P_i(t).
 *
 * Summary: directions in 1° bins centred on whole degrees (d goes to round(d) mod 360), speeds in
 * 0.5 m/s bins centred on multiples of 0.5 m/s; a bin's probability is the weight of its samples,
 * and only directions and speeds that occur are kept (as a grid, empty cells 0). The summary's
 * `turbulenceIntensity` is the weighted mean of the samples' (the resource's one value where a
 * sample has none).
 */
import type { WindResource, WindSeries } from './windResource.js';

export const SUMMARY_DIRECTION_BIN_DEG = 1;
export const SUMMARY_SPEED_BIN_MS = 0.5;

/** The summary's direction bin of a direction (degrees, in [0, 360)). */
export function summaryDirectionOf(directionDeg: number): number {
  return (((Math.round(directionDeg / SUMMARY_DIRECTION_BIN_DEG) * SUMMARY_DIRECTION_BIN_DEG) % 360) + 360) % 360;
}

export function summarySpeedOf(speed: number): number {
  return Math.round(speed / SUMMARY_SPEED_BIN_MS) * SUMMARY_SPEED_BIN_MS;
}

export interface SeriesInput {
  directionsDeg: ArrayLike<number>;
  speeds: ArrayLike<number>;
  /** Non-negative weights in any unit (normalised here); null: equal weights. */
  weights?: ArrayLike<number> | null;
  turbulenceIntensity?: ArrayLike<number> | null;
  /** Used where a sample has no turbulence intensity (default 0.075, the IEA37 value). */
  defaultTurbulenceIntensity?: number;
  hoursPerYear?: number;
}

/** A time-series resource with its binned summary. Throws RangeError when the weights are all 0. */
export function windFromSeries(input: SeriesInput): WindResource {
  const n = input.directionsDeg.length;
  const directionsDeg = Float64Array.from(input.directionsDeg);
  const speeds = Float64Array.from(input.speeds);
  let weights: Float64Array;
  if (input.weights) {
    const raw = Float64Array.from(input.weights);
    let sum = 0;
    for (let t = 0; t < n; t++) sum += raw[t];
    if (sum === Infinity) {
      // The sum overflows (weights near 1e308): divide by the largest weight first, then by the
      // sum of those shares (each in [0, 1], so their sum is at most n). Only here: finite sums
      // keep the one division they always had, and with it every result and spec hash.
      let max = 0;
      for (let t = 0; t < n; t++) max = Math.max(max, raw[t]);
      for (let t = 0; t < n; t++) raw[t] /= max;
      sum = 0;
      for (let t = 0; t < n; t++) sum += raw[t];
    }
    if (!(sum > 0) || !Number.isFinite(sum)) throw new RangeError('the sample weights sum to 0 or are not finite');
    // Weights that already sum to 1 (to rounding) are kept as given, so a written series reads back bit for bit.
    weights = Math.abs(sum - 1) <= 1e-12 ? raw : raw.map((w) => w / sum);
  } else {
    weights = new Float64Array(n).fill(1 / n);
  }
  const ti = input.turbulenceIntensity ? Float64Array.from(input.turbulenceIntensity) : undefined;
  const series: WindSeries = ti ? { directionsDeg, speeds, weights, turbulenceIntensity: ti } : { directionsDeg, speeds, weights };
  const defaultTi = input.defaultTurbulenceIntensity ?? 0.075;
  let meanTi = defaultTi;
  if (ti) {
    meanTi = 0;
    for (let t = 0; t < n; t++) meanTi += weights[t] * ti[t];
  }
  return { ...seriesSummary(series), turbulenceIntensity: meanTi, series, ...(input.hoursPerYear !== undefined ? { hoursPerYear: input.hoursPerYear } : {}) };
}

/** The binned rose of a series (directions × speeds, probability = weight of the bin's samples). */
export function seriesSummary(series: WindSeries): Pick<WindResource, 'directionsDeg' | 'speeds' | 'probability'> {
  const n = series.directionsDeg.length;
  const dirBins = new Set<number>(),
    speedBins = new Set<number>();
  for (let t = 0; t < n; t++) {
    dirBins.add(summaryDirectionOf(series.directionsDeg[t]));
    speedBins.add(summarySpeedOf(series.speeds[t]));
  }
  const directions = [...dirBins].sort((a, b) => a - b);
  const speeds = [...speedBins].sort((a, b) => a - b);
  const dirIndex = new Map(directions.map((d, i) => [d, i]));
  const speedIndex = new Map(speeds.map((s, i) => [s, i]));
  const ns = speeds.length;
  // Flat over (direction, speed): index = dir * nSpeeds + speed.
  const probability = new Float64Array(directions.length * ns);
  for (let t = 0; t < n; t++) {
    probability[dirIndex.get(summaryDirectionOf(series.directionsDeg[t]))! * ns + speedIndex.get(summarySpeedOf(series.speeds[t]))!] += series.weights[t];
  }
  return { directionsDeg: Float64Array.from(directions), speeds: Float64Array.from(speeds), probability };
}
