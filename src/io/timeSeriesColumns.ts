/**
 * A time-series wind resource from per-sample columns, whatever file they came from (a CSV file,
 * a native wind YAML's `time_series`, windIO's time-series form): the columns' names, lengths and
 * values are checked here, and the first problem is reported through the reader's `fail`, which
 * names the file, the line and the column.
 *
 * Columns: `wind_direction` (degrees from north, where the wind comes from) and `wind_speed`
 * (m/s) for every sample; optional `time` (ISO 8601 date-times or numbers, strictly increasing),
 * `turbulence_intensity` (a fraction) and a `weight` or `frequency` per sample (any non-negative
 * unit, normalised; without one every sample weighs the same, as PyWake's time series).
 * Plausibility (io/plausibility.ts): directions in radians or outside [0, 360), speeds in km/h,
 * turbulence in %.
 */
import type { WindResource } from '../physics/windResource.js';
import { windFromSeries } from '../physics/windSeries.js';
import { excerpt } from '../util/printable.js';
import { directionsProblem, radianDirectionsProblem, seriesSamplePlausibility } from './plausibility.js';

export const SERIES_COLUMNS = ['time', 'wind_direction', 'wind_speed', 'turbulence_intensity', 'weight', 'frequency'] as const;
export type SeriesColumn = (typeof SERIES_COLUMNS)[number];

/** A column of numbers: a list read from YAML, or a typed array filled by the CSV reader. */
export type NumberColumn = readonly number[] | Float64Array;

export interface SeriesColumns {
  time?: readonly (string | number)[];
  wind_direction: NumberColumn;
  wind_speed: NumberColumn;
  turbulence_intensity?: NumberColumn;
  weight?: NumberColumn;
  frequency?: NumberColumn;
}

/** Reports a problem of a column (sample index, or null for the column as a whole); never returns. */
export type SeriesFail = (column: SeriesColumn, sample: number | null, message: string) => never;

/** The instant of a time stamp (ms since the epoch, or the number itself), or NaN. */
export function timeValue(v: string | number): number {
  if (typeof v === 'number') return v;
  const s = v.trim();
  if (/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(s)) return Number(s);
  // ISO 8601 dates and date-times only (Date.parse also takes free text such as "May 1").
  if (!/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(s)) return NaN;
  return Date.parse(s.replace(' ', 'T'));
}

/**
 * The instant of the time stamp `stamp` that follows one at `previous` (-Infinity for the first),
 * or the problem with it: not a number or an ISO 8601 date-time, or not after the one before.
 */
export function nextTimeStamp(stamp: string | number, previous: number): { value: number } | { problem: string } {
  const v = timeValue(stamp);
  if (Number.isNaN(v)) return { problem: `'${excerpt(String(stamp))}' is not a number or an ISO 8601 date-time (2024-01-31T10:20:00Z)` };
  if (!(v > previous)) return { problem: `time stamps must increase: '${excerpt(String(stamp))}' is not after the sample before it` };
  return { value: v };
}

/** Check the columns and build the resource; `defaultTi` is used where there is no turbulence column. */
export function seriesFromColumns(c: SeriesColumns, fail: SeriesFail, defaultTi = 0.075): WindResource {
  const n = c.wind_direction.length;
  if (n === 0) fail('wind_direction', null, 'no samples');
  if (c.weight && c.frequency) fail('frequency', null, 'give weight or frequency, not both');
  const weightColumn: SeriesColumn = c.weight ? 'weight' : 'frequency';
  const weights = c.weight ?? c.frequency;
  for (const [name, v] of [
    ['wind_speed', c.wind_speed],
    ['time', c.time],
    ['turbulence_intensity', c.turbulence_intensity],
    [weightColumn, weights],
  ] as const) {
    if (v && v.length !== n) fail(name, null, `${v.length} values for ${n} wind directions (one per sample)`);
  }
  const finite = (name: SeriesColumn, v: NumberColumn | undefined, min: number): void => {
    if (!v) return;
    for (let t = 0; t < v.length; t++) {
      const x = v[t];
      if (typeof x !== 'number' || !Number.isFinite(x)) fail(name, t, `expected a finite number, got ${JSON.stringify(x)}`);
      if (x < min) fail(name, t, `${x} must be >= ${min}`);
    }
  };
  finite('wind_direction', c.wind_direction, -Infinity);
  finite('wind_speed', c.wind_speed, 0);
  finite('turbulence_intensity', c.turbulence_intensity, 0);
  finite(weightColumn, weights, 0);
  if (weights && !Array.prototype.some.call(weights, (w: number) => w > 0)) fail(weightColumn, null, 'every weight is 0: nothing to average');
  if (c.time) {
    let previous = -Infinity;
    c.time.forEach((stamp, t) => {
      const next = nextTimeStamp(stamp, previous);
      if ('problem' in next) fail('time', t, next.problem);
      else previous = next.value;
    });
  }
  const radians = radianDirectionsProblem(c.wind_direction, 'wind directions of the series');
  if (radians) fail('wind_direction', null, radians);
  const outside = directionsProblem(c.wind_direction, false);
  if (outside) fail('wind_direction', outside.index, outside.message);
  const implausible = seriesSamplePlausibility(c.wind_speed, c.turbulence_intensity ?? null);
  if (implausible) fail(implausible.quantity === 'speed' ? 'wind_speed' : 'turbulence_intensity', implausible.sample, implausible.message);
  return windFromSeries({
    directionsDeg: c.wind_direction,
    speeds: c.wind_speed,
    weights: weights ?? null,
    turbulenceIntensity: c.turbulence_intensity ?? null,
    defaultTurbulenceIntensity: defaultTi,
  });
}
