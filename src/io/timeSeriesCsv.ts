/**
 * A time-series wind resource from a CSV file (RFC 4180, parsed by d3-dsv): a header row naming
 * the columns, then one row per sample, e.g.
 *
 *   time,wind_direction,wind_speed,turbulence_intensity,weight
 *   2024-01-01T00:00Z,271.5,8.31,0.072,10
 *   2024-01-01T00:10Z,268.0,9.02,0.081,10
 *
 * Columns (timeSeriesColumns.ts): `wind_direction` and `wind_speed` required; `time`,
 * `turbulence_intensity` and `weight` or `frequency` optional. The header is strict: an unknown
 * or repeated column is an error naming the nearest known one (PyWake's `ws`, `wd`, `TI`: wflo's
 * names, didYouMean.ts). Every error is one line
 * `file:line: column: what is wrong`; an empty cell is an error (remove the row or fill it).
 */
import { csvParseRows } from 'd3-dsv';
import type { WindResource } from '../physics/windResource.js';
import { InputError } from '../util/errors.js';
import { readInputText } from './yamlFile.js';
import { unknownColumnMessage } from './didYouMean.js';
import { SERIES_COLUMNS, seriesFromColumns, type SeriesColumn, type SeriesColumns } from './timeSeriesColumns.js';

export const isCsvPath = (p: string): boolean => /\.csv$/i.test(p);

/** Read a time-series CSV file; `defaultTi` applies where the file has no turbulence column. */
export function readTimeSeriesCsv(file: string, defaultTi = 0.075): WindResource {
  const text = readInputText(file, 'time-series file').replace(/^\uFEFF/, '');
  return timeSeriesFromCsvText(text, file, defaultTi);
}

export function timeSeriesFromCsvText(text: string, file: string, defaultTi = 0.075): WindResource {
  const rows = csvParseRows(text);
  // The line each row starts on (a quoted field may hold newlines).
  const lineOf: number[] = [];
  let line = 1;
  for (const row of rows) {
    lineOf.push(line);
    line += 1;
    for (const cell of row) for (let i = cell.indexOf('\n'); i >= 0; i = cell.indexOf('\n', i + 1)) line++;
  }
  const at = (rowIndex: number, column: string, message: string): never => {
    throw new InputError(`${file}:${lineOf[rowIndex] ?? 1}: ${column}: ${message}`);
  };
  if (rows.length === 0 || (rows.length === 1 && rows[0].every((c) => c.trim() === ''))) throw new InputError(`${file}:1: (header): empty file, expected a header row (wind_direction,wind_speed,...)`);
  const header = rows[0].map((h) => h.trim());
  const index = new Map<SeriesColumn, number>();
  header.forEach((name, i) => {
    if (!(SERIES_COLUMNS as readonly string[]).includes(name)) at(0, name === '' ? `column ${i + 1}` : name, name === '' ? 'empty column name' : unknownColumnMessage(name, SERIES_COLUMNS));
    if (index.has(name as SeriesColumn)) at(0, name, `column '${name}' appears twice`);
    index.set(name as SeriesColumn, i);
  });
  for (const required of ['wind_direction', 'wind_speed'] as const) {
    if (!index.has(required)) at(0, required, `missing column (the header has ${header.join(', ')}; wind_direction and wind_speed are required)`);
  }
  // Sample rows: every row after the header but blank ones (a blank last line, a blank separator).
  const sampleRows: number[] = [];
  for (let r = 1; r < rows.length; r++) if (!(rows[r].length === 1 && rows[r][0].trim() === '')) sampleRows.push(r);
  const numberColumn = (name: SeriesColumn): number[] | undefined => {
    const i = index.get(name);
    if (i === undefined) return undefined;
    return sampleRows.map((r) => {
      const cell = rows[r][i];
      if (cell === undefined) at(r, name, `row has ${rows[r].length} cells, the header ${header.length}`);
      const s = cell.trim();
      if (s === '') at(r, name, 'empty cell (fill it, or remove the row)');
      const v = Number(s);
      if (!Number.isFinite(v)) at(r, name, `'${s}' is not a finite number`);
      return v;
    });
  };
  for (const r of sampleRows) if (rows[r].length !== header.length) at(r, header[Math.min(rows[r].length, header.length) - 1] ?? '(row)', `row has ${rows[r].length} cells, the header ${header.length}`);
  const timeIndex = index.get('time');
  const columns: SeriesColumns = {
    wind_direction: numberColumn('wind_direction')!,
    wind_speed: numberColumn('wind_speed')!,
    ...(timeIndex !== undefined ? { time: sampleRows.map((r) => rows[r][timeIndex].trim()) } : {}),
    ...(index.has('turbulence_intensity') ? { turbulence_intensity: numberColumn('turbulence_intensity') } : {}),
    ...(index.has('weight') ? { weight: numberColumn('weight') } : {}),
    ...(index.has('frequency') ? { frequency: numberColumn('frequency') } : {}),
  };
  return seriesFromColumns(columns, (column, sample, message) => at(sample === null ? 0 : sampleRows[sample], column, message), defaultTi);
}
