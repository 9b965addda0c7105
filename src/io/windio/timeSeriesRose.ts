/**
 * A windIO time-series resource (`time`, `wind_speed`, `wind_direction`, optional
 * `turbulence_intensity`, one value per time stamp) binned to a discrete rose.
 *
 * Binning (docs/windio.md): directions to 1° bins centred on whole degrees (a direction d goes to
 * round(d) mod 360, so the bin error is at most 0.5°), speeds to 0.5 m/s bins centred on multiples
 * of 0.5 m/s (error at most 0.25 m/s); every time stamp weighs the same (windIO gives no
 * duration per stamp), so a bin's probability is its share of the time stamps. The rose keeps
 * only directions and speeds that occur, as a grid (empty cells have probability 0). A series
 * whose values already sit on that grid (whole degrees, speeds in 0.5 m/s steps) is binned
 * without any change of its values, so its AEP is exactly the mean over the time stamps.
 */
import type { BinnedResource } from './binnedResource.js';
import { readDimensional, type Axis } from './dimensionalData.js';
import type { WindioNode } from './windioTree.js';
import { radianDirectionsProblem } from '../plausibility.js';

export const DIRECTION_BIN_DEG = 1;
export const SPEED_BIN_MS = 0.5;

/** One value per time stamp: a bare list of N numbers, one number, or {data, dims: [time]}. */
function perTimeStamp(node: WindioNode, time: Axis, what: string): Float64Array {
  if (node.isSeq) {
    const v = node.numbers(what);
    if (v.length !== time.length) node.fail(`${v.length} values for ${time.length} time stamps (dims/shape mismatch)`);
    return v;
  }
  return readDimensional(node, [time]).values;
}

export function timeSeriesRose(wr: WindioNode): BinnedResource {
  const timeNode = wr.require('time', 'the time stamps of the series');
  const stamps = timeNode.isMap && timeNode.get('data').exists ? timeNode.get('data') : timeNode;
  const nTimes = stamps.isSeq ? stamps.length : 1;
  if (nTimes === 0) timeNode.fail('no time stamps');
  const time: Axis = { name: 'time', length: nTimes };
  const speedNode = wr.require('wind_speed', 'one wind speed per time stamp');
  const dirNode = wr.require('wind_direction', 'one wind direction per time stamp');
  const speedByTime = perTimeStamp(speedNode, time, 'wind speeds (m/s)');
  const dirByTime = perTimeStamp(dirNode, time, 'wind directions (degrees)');
  const tiNode = wr.get('turbulence_intensity');
  const tiByTime = tiNode.exists ? perTimeStamp(tiNode, time, 'turbulence intensities') : null;
  speedByTime.forEach((v, t) => { if (!(v >= 0)) speedNode.fail(`time stamp ${t}: wind speed ${v} must be >= 0`); });
  const radians = radianDirectionsProblem(dirByTime, 'wind directions of the series');
  if (radians) dirNode.fail(radians);

  const dirBinOf = (d: number): number => (((Math.round(d / DIRECTION_BIN_DEG) * DIRECTION_BIN_DEG) % 360) + 360) % 360;
  const speedBinOf = (v: number): number => Math.round(v / SPEED_BIN_MS) * SPEED_BIN_MS;
  const directions = [...new Set(Array.from(dirByTime, dirBinOf))].sort((a, b) => a - b);
  const speeds = [...new Set(Array.from(speedByTime, speedBinOf))].sort((a, b) => a - b);
  const dirIndex = new Map(directions.map((d, i) => [d, i]));
  const speedIndex = new Map(speeds.map((s, i) => [s, i]));
  const ns = speeds.length;
  // Flat over (direction, speed): index = dir * nSpeeds + speed.
  const countByBin = new Float64Array(directions.length * ns);
  const tiSumByBin = new Float64Array(directions.length * ns);
  for (let t = 0; t < nTimes; t++) {
    const bin = dirIndex.get(dirBinOf(dirByTime[t]))! * ns + speedIndex.get(speedBinOf(speedByTime[t]))!;
    countByBin[bin] += 1;
    if (tiByTime) tiSumByBin[bin] += tiByTime[t];
  }
  const probability = countByBin.map((c) => c / nTimes);
  const turbulenceIntensityByBin = countByBin.map((c, i) => (c > 0 && tiByTime ? tiSumByBin[i] / c : 0));
  const meanTi = tiByTime ? tiByTime.reduce((s, v) => s + v, 0) / nTimes : 0.075;
  return {
    wind: { directionsDeg: Float64Array.from(directions), speeds: Float64Array.from(speeds), probability, turbulenceIntensity: meanTi },
    turbulenceIntensityByBin: tiByTime ? turbulenceIntensityByBin : new Float64Array(probability.length).fill(meanTi),
  };
}
