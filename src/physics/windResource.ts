/**
 * Wind resource: a discrete set of (direction, speed) conditions with probabilities.
 *
 * Meteorological convention: direction in degrees, 0 = north (+y), clockwise, the direction the
 * wind comes FROM. Layout of `probability` (flat, row-major): index = dir * nSpeeds + speed.
 *
 * Two optional refinements (absent on a plain rose, whose results and hashes they leave alone):
 * - `turbulenceIntensityByBin`: a rose with a turbulence intensity per (direction, speed) bin;
 * - `series`: a time series (windSeries.ts), evaluated sample by sample with each sample's own
 *   turbulence intensity; the rose fields are then only its binned summary (plots, energy by
 *   direction), never what the AEP is computed from (windConditions.ts decides that).
 */
export interface WindResource {
  directionsDeg: Float64Array;
  speeds: Float64Array;
  /** probability[dir * speeds.length + s]; sums to 1. */
  probability: Float64Array;
  /** The site's turbulence intensity (for a series or a per-bin rose: the weighted mean, for display). */
  turbulenceIntensity: number;
  /** Hours per year the AEP multiplies by (default 8760). */
  hoursPerYear?: number;
  /** Turbulence intensity of every bin, same flat layout as `probability`. */
  turbulenceIntensityByBin?: Float64Array;
  /** The samples of a time series. */
  series?: WindSeries;
}

/**
 * Samples of a time series: sample t blows from directionsDeg[t] at speeds[t] (m/s) with weight
 * weights[t] (the weights sum to 1; equal weights 1/n when the input gives none) and turbulence
 * intensity turbulenceIntensity[t] (absent: the resource's one value).
 */
export interface WindSeries {
  directionsDeg: Float64Array;
  speeds: Float64Array;
  weights: Float64Array;
  turbulenceIntensity?: Float64Array;
}

/** A discrete rose: per-direction frequency times a per-direction speed distribution. */
export function roseFromSectors(
  directionsDeg: ArrayLike<number>,
  directionFrequency: ArrayLike<number>,
  speeds: ArrayLike<number>,
  speedFrequencyByDir: ArrayLike<number>[] | null,
  turbulenceIntensity = 0.075,
): WindResource {
  const nd = directionsDeg.length,
    ns = speeds.length;
  const probability = new Float64Array(nd * ns);
  for (let d = 0; d < nd; d++) {
    for (let s = 0; s < ns; s++) {
      const ps = speedFrequencyByDir ? speedFrequencyByDir[d][s] : ns === 1 ? 1 : 1 / ns;
      probability[d * ns + s] = directionFrequency[d] * ps;
    }
  }
  return {
    directionsDeg: Float64Array.from(directionsDeg),
    speeds: Float64Array.from(speeds),
    probability,
    turbulenceIntensity,
  };
}

/**
 * Per-sector Weibull (A, k, sector frequency) discretized on the given speed bin centres:
 * each bin gets the Weibull probability mass between the midpoints to its neighbours
 * (the first bin from 0, the last to infinity), so every sector's masses sum to 1.
 */
export function roseFromWeibull(
  directionsDeg: ArrayLike<number>,
  sectorFrequency: ArrayLike<number>,
  weibullA: ArrayLike<number>,
  weibullK: ArrayLike<number>,
  speeds: ArrayLike<number>,
  turbulenceIntensity = 0.075,
): WindResource {
  const nd = directionsDeg.length,
    ns = speeds.length;
  const byDir: Float64Array[] = [];
  for (let d = 0; d < nd; d++) {
    const cdf = (v: number) => 1 - Math.exp(-Math.pow(v / weibullA[d], weibullK[d]));
    const row = new Float64Array(ns);
    for (let s = 0; s < ns; s++) {
      const lo = s === 0 ? 0 : 0.5 * (speeds[s - 1] + speeds[s]);
      const hi = s === ns - 1 ? Infinity : 0.5 * (speeds[s] + speeds[s + 1]);
      row[s] = (hi === Infinity ? 1 : cdf(hi)) - cdf(lo);
    }
    byDir.push(row);
  }
  return roseFromSectors(directionsDeg, sectorFrequency, speeds, byDir, turbulenceIntensity);
}

/** Uniform directions (n equal sectors starting at 0°) at one or more equally likely speeds. */
export function uniformRose(nDirections: number, speeds: ArrayLike<number>, turbulenceIntensity = 0.075): WindResource {
  const dirs = Array.from({ length: nDirections }, (_, i) => (360 * i) / nDirections);
  const freq = new Array(nDirections).fill(1 / nDirections);
  return roseFromSectors(dirs, freq, speeds, null, turbulenceIntensity);
}

/** Check a resource; returns the first problem as a sentence, or null. */
export function windResourceProblem(w: WindResource, tolerance = 1e-3): string | null {
  const nd = w.directionsDeg.length,
    ns = w.speeds.length;
  if (nd === 0) return 'no wind directions';
  if (ns === 0) return 'no wind speeds';
  if (w.probability.length !== nd * ns) {
    return `probability has ${w.probability.length} entries, expected ${nd} directions × ${ns} speeds = ${nd * ns}`;
  }
  let sum = 0;
  for (let i = 0; i < w.probability.length; i++) {
    const p = w.probability[i];
    if (!Number.isFinite(p) || p < 0) return `probability[${i}] = ${p} is not a finite non-negative number`;
    sum += p;
  }
  if (Math.abs(sum - 1) > tolerance) return `probabilities sum to ${sum.toPrecision(8)}, expected 1 within ${tolerance}`;
  for (let i = 0; i < nd; i++) if (!Number.isFinite(w.directionsDeg[i])) return `direction[${i}] is not finite`;
  for (let i = 0; i < ns; i++) if (!(w.speeds[i] >= 0)) return `speed[${i}] = ${w.speeds[i]} must be >= 0`;
  const byBin = w.turbulenceIntensityByBin;
  if (byBin) {
    if (byBin.length !== nd * ns) return `turbulence intensity has ${byBin.length} bins, expected ${nd} directions × ${ns} speeds = ${nd * ns}`;
    for (let i = 0; i < byBin.length; i++)
      if (!(byBin[i] >= 0 && Number.isFinite(byBin[i]))) return `turbulence intensity of bin ${i} = ${byBin[i]} must be a finite number >= 0`;
  }
  if (w.series) return seriesProblem(w.series, tolerance);
  return null;
}

/** Check a time series; returns the first problem as a sentence, or null. */
export function seriesProblem(s: WindSeries, tolerance = 1e-3): string | null {
  const n = s.directionsDeg.length;
  if (n === 0) return 'no samples';
  if (s.speeds.length !== n || s.weights.length !== n || (s.turbulenceIntensity && s.turbulenceIntensity.length !== n)) {
    return `samples differ in length: ${n} directions, ${s.speeds.length} speeds, ${s.weights.length} weights${s.turbulenceIntensity ? `, ${s.turbulenceIntensity.length} turbulence intensities` : ''}`;
  }
  let sum = 0;
  for (let t = 0; t < n; t++) {
    if (!Number.isFinite(s.directionsDeg[t])) return `sample ${t}: direction ${s.directionsDeg[t]} is not finite`;
    if (!(s.speeds[t] >= 0 && Number.isFinite(s.speeds[t]))) return `sample ${t}: speed ${s.speeds[t]} must be a finite number >= 0`;
    if (!(s.weights[t] >= 0 && Number.isFinite(s.weights[t]))) return `sample ${t}: weight ${s.weights[t]} must be a finite number >= 0`;
    const ti = s.turbulenceIntensity?.[t];
    if (ti !== undefined && !(ti >= 0 && Number.isFinite(ti))) return `sample ${t}: turbulence intensity ${ti} must be a finite number >= 0`;
    sum += s.weights[t];
  }
  if (Math.abs(sum - 1) > tolerance) return `sample weights sum to ${sum.toPrecision(8)}, expected 1 within ${tolerance}`;
  return null;
}
