/**
 * A windIO time-series resource (`time`, `wind_speed`, `wind_direction`, optional
 * `turbulence_intensity`, one value per time stamp, each a bare list or `{data, dims: [time]}`)
 * → wflo's time-series wind resource, evaluated sample by sample (physics/windSeries.ts): every
 * time stamp weighs the same (windIO gives no duration per stamp), and each keeps its own
 * turbulence intensity. Checks as for every series (io/timeSeriesColumns.ts), naming the time
 * stamp. The keys are strict: anything else beside them (shear, density, stability) is an error,
 * since wflo's uniform-flow engines would silently ignore it.
 */
import type { WindResource } from '../../physics/windResource.js';
import { readDimensional, type Axis } from './dimensionalData.js';
import type { WindioNode } from './windioTree.js';
import { seriesFromColumns, type SeriesColumn } from '../timeSeriesColumns.js';
import { unknownKeyMessage } from '../didYouMean.js';

const TIME_SERIES_KEYS = ['time', 'wind_speed', 'wind_direction', 'turbulence_intensity'];

/** One value per time stamp: a bare list of N numbers, one number, or {data, dims: [time]}. */
function perTimeStamp(node: WindioNode, time: Axis, what: string): Float64Array {
  if (node.isSeq) {
    const v = node.numbers(what);
    if (v.length !== time.length) node.fail(`${v.length} values for ${time.length} time stamps (dims/shape mismatch)`);
    return v;
  }
  return readDimensional(node, [time]).values;
}

/** `defaultTi`: the turbulence intensity of a series without its own. */
export function timeSeriesResource(wr: WindioNode, defaultTi: number): WindResource {
  for (const key of wr.keys()) {
    if (!TIME_SERIES_KEYS.includes(key))
      wr.get(key).fail(`${unknownKeyMessage(key, TIME_SERIES_KEYS)} (wflo reads a time series' ${TIME_SERIES_KEYS.join(', ')})`);
  }
  const timeNode = wr.require('time', 'the time stamps of the series');
  const stamps = timeNode.isMap && timeNode.get('data').exists ? timeNode.get('data') : timeNode;
  const nTimes = stamps.isSeq ? stamps.length : 1;
  if (nTimes === 0) timeNode.fail('no time stamps');
  const time: Axis = { name: 'time', length: nTimes };
  const nodes: Partial<Record<SeriesColumn, WindioNode>> = {
    time: stamps,
    wind_speed: wr.require('wind_speed', 'one wind speed per time stamp'),
    wind_direction: wr.require('wind_direction', 'one wind direction per time stamp'),
  };
  const tiNode = wr.get('turbulence_intensity');
  if (tiNode.exists) nodes.turbulence_intensity = tiNode;
  const stampValues = stamps.isSeq ? stamps.items().map((s) => s.scalar) : [stamps.scalar];
  return seriesFromColumns(
    {
      time: stampValues.map((v) => (typeof v === 'number' ? v : String(v))),
      wind_speed: Array.from(perTimeStamp(nodes.wind_speed!, time, 'wind speeds (m/s)')),
      wind_direction: Array.from(perTimeStamp(nodes.wind_direction!, time, 'wind directions (degrees)')),
      ...(tiNode.exists ? { turbulence_intensity: Array.from(perTimeStamp(tiNode, time, 'turbulence intensities')) } : {}),
    },
    (column, sample, message) => {
      const node = nodes[column] ?? wr;
      const at = sample === null ? node : node.isSeq ? node.get(sample) : node.get('data').isSeq ? node.get('data').get(sample) : node;
      return (at.exists ? at : node).fail(sample === null ? message : `time stamp ${sample}: ${message}`);
    },
    defaultTi,
  );
}
