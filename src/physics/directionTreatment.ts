/**
 * How a wind resource's directions are treated before an AEP is computed from it: as the discrete
 * bins it lists (the benchmark measure), or as wind that really comes from every direction around
 * them. A rose of 16 bins read literally rewards layouts that line their wakes up between the bins
 * (the IEA37 records lose 11–16 % when each bin is spread over its width); the treatments below
 * give an AEP that does not.
 *
 * - `spread` (n): each bin's probability spread evenly over the bin's own width w (the gap to the
 *   neighbouring bins, 360°/bins for an even rose) in n sub-directions at the midpoints
 *   θ_d + ((j + ½)/n − ½)·w, j = 0 … n − 1, each with probability p_d/n (the midpoint rule of the
 *   uniform distribution over [θ_d − w/2, θ_d + w/2)).
 * - `gaussian` (σ, n): wind-direction uncertainty, each bin (or time-series sample) blown from
 *   θ + δ with δ ~ N(0, σ²), as FLORIS's UncertainFlorisModel: δ on n points evenly spaced over
 *   [−3σ, 3σ] (δ_j = −3σ + (j + ½)·6σ/n, the midpoints of n equal cells), weights the normal
 *   density at δ_j normalised to sum to 1, so the mass beyond ±3σ (0.27 %) is given to the cells.
 * - `refine` (step): the rose's direction frequencies interpolated to a finer grid (every `step`
 *   degrees from 0), linearly and periodically between the bins' centres, then renormalised; each
 *   new direction takes the speed distribution of the nearest original bin (ties: the earlier one).
 *
 * Directions wrap into [0, 360). A sub-direction that lands exactly on another bin stays its own
 * direction (probabilities are not merged), so every result maps back to the bin it came from
 * (`binOf`). Speeds, per-bin turbulence and hours are carried with each sub-direction. The result
 * is an ordinary resource: every engine, its native kernels and its exact gradient apply unchanged,
 * at a cost proportional to the number of directions (n times the bins' for `spread`/`gaussian`).
 */
import type { WindResource } from './windResource.js';
import { windFromSeries } from './windSeries.js';

export type DirectionTreatment =
  | { kind: 'bins' }
  | { kind: 'spread'; n: number }
  | { kind: 'gaussian'; sigmaDeg: number; n: number }
  | { kind: 'refine'; stepDeg: number };

/** A treated resource and, for each of its directions, the index of the original bin it came from. */
export interface TreatedWind {
  wind: WindResource;
  binOf: Int32Array;
}

const wrap = (deg: number): number => ((deg % 360) + 360) % 360;

/** The width each bin covers: the gap between the midpoints to its neighbours (360° for one bin). */
export function binWidthsDeg(directionsDeg: ArrayLike<number>): Float64Array {
  const nd = directionsDeg.length;
  const widths = new Float64Array(nd);
  if (nd === 1) {
    widths[0] = 360;
    return widths;
  }
  const order = Array.from({ length: nd }, (_, i) => i).sort((a, b) => directionsDeg[a] - directionsDeg[b]);
  for (let k = 0; k < nd; k++) {
    const before = directionsDeg[order[(k + nd - 1) % nd]] - (k === 0 ? 360 : 0);
    const after = directionsDeg[order[(k + 1) % nd]] + (k === nd - 1 ? 360 : 0);
    widths[order[k]] = (after - before) / 2;
  }
  return widths;
}

export function treatDirections(wind: WindResource, treatment: DirectionTreatment): TreatedWind {
  if (treatment.kind === 'bins') return { wind, binOf: Int32Array.from(wind.directionsDeg, (_, i) => i) };
  if (treatment.kind === 'refine') return refineRose(wind, treatment.stepDeg);
  const offsets: number[] = [],
    shares: number[] = [];
  if (treatment.kind === 'spread') {
    for (let j = 0; j < treatment.n; j++) {
      offsets.push((j + 0.5) / treatment.n - 0.5);
      shares.push(1 / treatment.n);
    }
  } else {
    const { sigmaDeg, n } = treatment;
    let total = 0;
    for (let j = 0; j < n; j++) {
      const delta = -3 * sigmaDeg + ((j + 0.5) * 6 * sigmaDeg) / n;
      offsets.push(delta);
      const density = Math.exp(-0.5 * (delta / sigmaDeg) ** 2);
      shares.push(density);
      total += density;
    }
    for (let j = 0; j < n; j++) shares[j] /= total;
  }
  const widths = treatment.kind === 'spread' ? binWidthsDeg(wind.directionsDeg) : null;
  const offsetOf = (d: number, j: number): number => (widths ? offsets[j] * widths[d] : offsets[j]);
  if (wind.series) {
    // The summary rose is rebuilt from the spread samples (its 1° bins then hold them all).
    const spread = spreadSeries(wind, offsets, shares);
    const treated = windFromSeries({ ...spread, hoursPerYear: wind.hoursPerYear, defaultTurbulenceIntensity: wind.turbulenceIntensity });
    return { wind: treated, binOf: Int32Array.from(treated.directionsDeg, (_, i) => i) };
  }
  return expandRose(wind, offsetOf, shares);
}

/** Every bin d replaced by sub-directions θ_d + offsetOf(d, j) with probability p_d·share_j. */
function expandRose(wind: WindResource, offsetOf: (d: number, j: number) => number, shares: number[]): TreatedWind {
  const nd = wind.directionsDeg.length,
    ns = wind.speeds.length,
    m = shares.length;
  const directionsDeg = new Float64Array(nd * m),
    probability = new Float64Array(nd * m * ns);
  const tiByBin = wind.turbulenceIntensityByBin ? new Float64Array(nd * m * ns) : undefined;
  const binOf = new Int32Array(nd * m);
  for (let d = 0; d < nd; d++) {
    for (let j = 0; j < m; j++) {
      const at = d * m + j;
      directionsDeg[at] = wrap(wind.directionsDeg[d] + offsetOf(d, j));
      binOf[at] = d;
      for (let s = 0; s < ns; s++) {
        probability[at * ns + s] = wind.probability[d * ns + s] * shares[j];
        if (tiByBin) tiByBin[at * ns + s] = wind.turbulenceIntensityByBin![d * ns + s];
      }
    }
  }
  const treated: WindResource = { ...wind, directionsDeg, probability };
  if (tiByBin) treated.turbulenceIntensityByBin = tiByBin;
  return { wind: treated, binOf };
}

/** A time series with every sample replaced by m samples at the offsets, weights times the shares. */
function spreadSeries(wind: WindResource, offsets: number[], shares: number[]): NonNullable<WindResource['series']> {
  const s = wind.series!;
  const n = s.directionsDeg.length,
    m = shares.length;
  const directionsDeg = new Float64Array(n * m),
    speeds = new Float64Array(n * m),
    weights = new Float64Array(n * m);
  const ti = s.turbulenceIntensity ? new Float64Array(n * m) : undefined;
  for (let t = 0; t < n; t++) {
    for (let j = 0; j < m; j++) {
      const at = t * m + j;
      directionsDeg[at] = wrap(s.directionsDeg[t] + offsets[j]);
      speeds[at] = s.speeds[t];
      weights[at] = s.weights[t] * shares[j];
      if (ti) ti[at] = s.turbulenceIntensity![t];
    }
  }
  return ti ? { directionsDeg, speeds, weights, turbulenceIntensity: ti } : { directionsDeg, speeds, weights };
}

/** The rose's direction frequencies interpolated periodically to every `step` degrees. */
function refineRose(wind: WindResource, step: number): TreatedWind {
  const nd = wind.directionsDeg.length,
    ns = wind.speeds.length;
  const order = Array.from({ length: nd }, (_, i) => i).sort((a, b) => wind.directionsDeg[a] - wind.directionsDeg[b]);
  const freq = Float64Array.from(order, (d) => {
    let f = 0;
    for (let s = 0; s < ns; s++) f += wind.probability[d * ns + s];
    return f;
  });
  const dirs = Float64Array.from(order, (d) => wind.directionsDeg[d]);
  const m = Math.round(360 / step);
  const directionsDeg = new Float64Array(m),
    probability = new Float64Array(m * ns),
    binOf = new Int32Array(m);
  const tiByBin = wind.turbulenceIntensityByBin ? new Float64Array(m * ns) : undefined;
  let total = 0;
  const fineFreq = new Float64Array(m);
  for (let k = 0; k < m; k++) {
    const theta = k * step;
    directionsDeg[k] = theta;
    // The bins on either side (periodic), and the nearest one for the speed distribution.
    let hi = dirs.findIndex((v) => v >= theta);
    if (hi < 0) hi = 0;
    const lo = (hi + nd - 1) % nd;
    const a = dirs[lo] - (dirs[lo] > theta ? 360 : 0),
      b = dirs[hi] + (dirs[hi] < theta ? 360 : 0);
    const t = b === a ? 0 : (theta - a) / (b - a);
    fineFreq[k] = (1 - t) * freq[lo] + t * freq[hi];
    total += fineFreq[k];
    binOf[k] = order[t <= 0.5 ? lo : hi];
  }
  for (let k = 0; k < m; k++) {
    const d = binOf[k];
    const f = freq[order.indexOf(d)];
    for (let s = 0; s < ns; s++) {
      const share = f > 0 ? wind.probability[d * ns + s] / f : 1 / ns;
      probability[k * ns + s] = (fineFreq[k] / total) * share;
      if (tiByBin) tiByBin[k * ns + s] = wind.turbulenceIntensityByBin![d * ns + s];
    }
  }
  const treated: WindResource = { ...wind, directionsDeg, probability };
  if (tiByBin) treated.turbulenceIntensityByBin = tiByBin;
  return { wind: treated, binOf };
}

/** Energy by treated direction summed back to the original bins. */
export function energyByBin(perDirectionMwh: ArrayLike<number>, binOf: Int32Array, bins: number): Float64Array {
  const out = new Float64Array(bins);
  for (let i = 0; i < perDirectionMwh.length; i++) out[binOf[i]] += perDirectionMwh[i];
  return out;
}
