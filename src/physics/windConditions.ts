/**
 * The flow conditions an engine visits for a wind resource: directions, each with its run of
 * (free-stream speed, weight, ambient turbulence intensity). The rotation, the downstream order
 * and the candidate pairs are made once per direction and shared by its conditions.
 *
 * - A rose: its directions in order, every speed of a direction, weight = the bin's probability,
 *   turbulence intensity the bin's own (`turbulenceIntensityByBin`) or the site's one value.
 * - A time series: its samples grouped by exact direction (directions ascending, samples of a
 *   direction in series order), each sample its own speed, weight and turbulence intensity; the
 *   energy of a direction goes to the summary rose's direction bin (`resultDirection`), so
 *   results by direction line up with `wind.directionsDeg` as for a rose.
 *
 * Layout: the conditions of visited direction d are [start[d], start[d + 1]).
 */
import type { WindResource } from './windResource.js';
import { summaryDirectionOf } from './windSeries.js';

export interface WindConditions {
  /** Directions the engine visits (each once). */
  directionsDeg: Float64Array;
  /** Index into `wind.directionsDeg` (and perDirectionMwh) that each visited direction adds to. */
  resultDirection: Int32Array;
  start: Int32Array;
  speed: Float64Array;
  weight: Float64Array;
  turbulenceIntensity: Float64Array;
  /** Largest ambient turbulence intensity of any condition. */
  tiMax: number;
  /** Number of conditions: start[directionsDeg.length]. */
  count: number;
  /** A time series: the sample (index into `wind.series`) of every condition; absent for a rose (condition k is bin k). */
  sampleOf?: Int32Array;
}

export function windConditions(wind: WindResource): WindConditions {
  return wind.series ? seriesConditions(wind) : roseConditions(wind);
}

function roseConditions(wind: WindResource): WindConditions {
  const nd = wind.directionsDeg.length,
    ns = wind.speeds.length;
  const start = new Int32Array(nd + 1);
  for (let d = 0; d <= nd; d++) start[d] = d * ns;
  const speed = new Float64Array(nd * ns);
  for (let c = 0; c < nd * ns; c++) speed[c] = wind.speeds[c % ns];
  const ti = wind.turbulenceIntensityByBin ? Float64Array.from(wind.turbulenceIntensityByBin) : new Float64Array(nd * ns).fill(wind.turbulenceIntensity);
  return {
    directionsDeg: wind.directionsDeg,
    resultDirection: Int32Array.from({ length: nd }, (_, d) => d),
    start,
    speed,
    weight: wind.probability,
    turbulenceIntensity: ti,
    tiMax: maxOf(ti, wind.turbulenceIntensity),
    count: nd * ns,
  };
}

function seriesConditions(wind: WindResource): WindConditions {
  const s = wind.series!;
  const n = s.directionsDeg.length;
  const order = Array.from({ length: n }, (_, t) => t);
  order.sort((a, b) => s.directionsDeg[a] - s.directionsDeg[b] || a - b);
  const summaryIndex = new Map<number, number>();
  wind.directionsDeg.forEach((d, i) => summaryIndex.set(d, i));
  const directions: number[] = [],
    resultDirection: number[] = [],
    start: number[] = [];
  const speed = new Float64Array(n),
    weight = new Float64Array(n),
    ti = new Float64Array(n);
  for (let c = 0; c < n; c++) {
    const t = order[c];
    const dir = s.directionsDeg[t];
    if (c === 0 || dir !== directions[directions.length - 1]) {
      const slot = summaryIndex.get(summaryDirectionOf(dir));
      if (slot === undefined) throw new Error(`time series direction ${dir}° has no bin in the resource's summary rose`);
      directions.push(dir);
      resultDirection.push(slot);
      start.push(c);
    }
    speed[c] = s.speeds[t];
    weight[c] = s.weights[t];
    ti[c] = s.turbulenceIntensity ? s.turbulenceIntensity[t] : wind.turbulenceIntensity;
  }
  start.push(n);
  return {
    directionsDeg: Float64Array.from(directions),
    resultDirection: Int32Array.from(resultDirection),
    start: Int32Array.from(start),
    speed,
    weight,
    turbulenceIntensity: ti,
    tiMax: maxOf(ti, 0),
    count: n,
    sampleOf: Int32Array.from(order),
  };
}

function maxOf(values: Float64Array, floor: number): number {
  let m = floor;
  for (let i = 0; i < values.length; i++) if (values[i] > m) m = values[i];
  return m;
}
