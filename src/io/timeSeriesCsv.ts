/**
 * A time-series wind resource from a CSV file (RFC 4180, split by d3-dsv): a header row naming
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
 * Numbers are decimal (`12`, `-0.5`, `1e3`): `0x10`, `1_000`, `Infinity` are refused, and so is a
 * quoted cell holding a line break (one sample per line).
 *
 * Memory: rows are converted as d3-dsv splits them and never kept; each numeric column and each
 * sample's line is a Float64Array (8 bytes per sample), so a 10⁶-row file (38 MB) is read in
 * ~200 MB (bench: `node dist/bench/run.js parsing`); at most MAX_SERIES_SAMPLES rows.
 */
import { csvParseRows } from 'd3-dsv';
import type { WindResource } from '../physics/windResource.js';
import { InputError } from '../util/errors.js';
import { excerpt } from '../util/printable.js';
import { readBoundedText } from './boundedRead.js';
import { looksLikeHeader, unknownColumnMessage } from './didYouMean.js';
import { nextTimeStamp, SERIES_COLUMNS, seriesFromColumns, type SeriesColumn, type SeriesColumns } from './timeSeriesColumns.js';

export const isCsvPath = (p: string): boolean => /\.csv$/i.test(p);

/**
 * Most samples one series may have: 19 years of 10-minute data. Each sample costs ~50 bytes
 * here and more downstream (every evaluation runs every sample; the ledger keeps the farm's
 * definition), and a 64 MiB file of short rows (`270,8`) would otherwise be 10⁷ samples.
 */
export const MAX_SERIES_SAMPLES = 1_000_000;

/**
 * Most cells a line may hold (the format has at most 6 columns). d3-dsv builds a row's cells
 * before handing it over: a line of 30 million commas would be an array of 30 million strings.
 */
export const MAX_CSV_CELLS = 64;

/** A decimal number as people write it in a table: sign, digits, point, exponent. */
const DECIMAL = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

/** Read a time-series CSV file; `defaultTi` applies where the file has no turbulence column. */
export function readTimeSeriesCsv(file: string, defaultTi = 0.075): WindResource {
  const text = readBoundedText(file, { what: 'time-series file', expected: 'a time-series CSV file' }).replace(/^\uFEFF/, '');
  return timeSeriesFromCsvText(text, file, defaultTi);
}

/** A growing Float64Array (doubling). */
class GrowingColumn {
  private data = new Float64Array(1024);
  length = 0;
  push(v: number): void {
    if (this.length === this.data.length) {
      const bigger = new Float64Array(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data[this.length++] = v;
  }
  values(): Float64Array {
    return this.data.subarray(0, this.length);
  }
}

export function timeSeriesFromCsvText(text: string, file: string, defaultTi = 0.075): WindResource {
  const at = (line: number, column: string, message: string): never => {
    throw new InputError(`${file}:${line}: ${column}: ${message}`);
  };
  // Cells per line, counted before d3-dsv splits anything (commas in quoted cells count too).
  for (let i = 0, line = 1, commas = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) {
      line++;
      commas = 0;
    } else if (c === 44 && ++commas >= MAX_CSV_CELLS) at(line, '(row)', `more than ${MAX_CSV_CELLS} cells on one line`);
  }
  let header: string[] | null = null;
  const index = new Map<SeriesColumn, number>();
  const numeric: { name: SeriesColumn; cell: number; values: GrowingColumn }[] = [];
  let timeCell = -1;
  let previousTime = -Infinity;
  const lineOfSample = new GrowingColumn();

  const readHeader = (row: string[]): void => {
    header = row.map((h) => h.trim());
    // A first line naming none of the columns is not a header: said without quoting it (io/fileDoor.ts).
    if (!looksLikeHeader(header, SERIES_COLUMNS))
      at(
        1,
        '(header)',
        `expected a header row (wind_direction,wind_speed,...); the first line names none of the columns (${header.length} cell${header.length === 1 ? '' : 's'}): not a time-series CSV`,
      );
    header.forEach((name, i) => {
      if (!(SERIES_COLUMNS as readonly string[]).includes(name))
        at(1, name === '' ? `column ${i + 1}` : excerpt(name), name === '' ? 'empty column name' : unknownColumnMessage(excerpt(name), SERIES_COLUMNS));
      if (index.has(name as SeriesColumn)) at(1, name, `column '${name}' appears twice`);
      index.set(name as SeriesColumn, i);
    });
    for (const required of ['wind_direction', 'wind_speed'] as const) {
      if (!index.has(required)) at(1, required, `missing column (the header has ${header.join(', ')}; wind_direction and wind_speed are required)`);
    }
    for (const name of ['wind_direction', 'wind_speed', 'turbulence_intensity', 'weight', 'frequency'] as const) {
      const cell = index.get(name);
      if (cell !== undefined) numeric.push({ name, cell, values: new GrowingColumn() });
    }
    timeCell = index.get('time') ?? -1;
  };

  const readSample = (row: string[], line: number): void => {
    if (lineOfSample.length === MAX_SERIES_SAMPLES)
      at(line, '(rows)', `over ${MAX_SERIES_SAMPLES} samples (19 years of 10-minute data): refused; resample the series or split its period`);
    const h = header!;
    if (row.length !== h.length) at(line, h[Math.min(row.length, h.length) - 1] ?? '(row)', `row has ${row.length} cells, the header ${h.length}`);
    for (const { name, cell, values } of numeric) {
      const s = row[cell].trim();
      if (s === '') at(line, name, 'empty cell (fill it, or remove the row)');
      const v = Number(s);
      if (!Number.isFinite(v)) at(line, name, `'${excerpt(s)}' is not a finite number`);
      // Number() also reads 0x10, 0b11, 0o17: a table's numbers are decimal.
      if (!DECIMAL.test(s)) at(line, name, `'${excerpt(s)}' is not a decimal number (hexadecimal, binary and octal are refused)`);
      values.push(v);
    }
    if (timeCell >= 0) {
      const next = nextTimeStamp(row[timeCell].trim(), previousTime);
      if ('problem' in next) at(line, 'time', next.problem);
      else previousTime = next.value;
    }
    lineOfSample.push(line);
  };

  // Only a quoted cell can hold a line break: without a quote in the file, no cell is looked at for one.
  const quoted = text.includes('"');
  // Rows are handled as they are split (d3-dsv's row callback) and dropped: nothing per row is kept.
  csvParseRows(text, (row, rowIndex) => {
    // Line breaks inside quoted cells are refused, so row i is line i + 1.
    const line = rowIndex + 1;
    if (quoted) {
      row.forEach((cell, i) => {
        if (cell.includes('\n') || cell.includes('\r'))
          at(line, header ? (header[i] ?? `column ${i + 1}`) : `column ${i + 1}`, 'a quoted cell holds a line break (one sample per line)');
      });
    }
    if (header === null) {
      if (row.every((c) => c.trim() === '')) at(1, '(header)', 'empty file, expected a header row (wind_direction,wind_speed,...)');
      readHeader(row);
    } else if (!(row.length === 1 && row[0].trim() === '')) {
      // Blank lines (a blank last line, a blank separator) are not samples.
      readSample(row, line);
    }
    return null;
  });
  if (header === null) at(1, '(header)', 'empty file, expected a header row (wind_direction,wind_speed,...)');

  const column = (name: SeriesColumn): Float64Array | undefined => numeric.find((c) => c.name === name)?.values.values();
  const columns: SeriesColumns = {
    wind_direction: column('wind_direction')!,
    wind_speed: column('wind_speed')!,
    ...(index.has('turbulence_intensity') ? { turbulence_intensity: column('turbulence_intensity') } : {}),
    ...(index.has('weight') ? { weight: column('weight') } : {}),
    ...(index.has('frequency') ? { frequency: column('frequency') } : {}),
  };
  const lines = lineOfSample.values();
  // Time stamps were checked above, as each row was read.
  return seriesFromColumns(columns, (name, sample, message) => at(sample === null ? 1 : lines[sample], name, message), defaultTi);
}
