/**
 * A turbine's power and thrust curves from a CSV file (RFC 4180, parsed by d3-dsv), named by a
 * native turbine's `power_curve:` or `Ct_curve:` (the path relative to the file that names it):
 *
 *   wind_speed,power,ct
 *   3,0,0
 *   4,66600,0.818
 *
 * Columns: `wind_speed` (m/s) with `power` (W, or the turbine's `power_unit`) for a power curve,
 * `ct` for a Ct curve; one file may hold both. The header is strict: another tool's name (PyWake's
 * `ws`, a spreadsheet's `Power [kW]`) is an error suggesting wflo's. Every number is a decimal
 * number; an empty cell is an error. Errors are one line `file:line: column: what is wrong`; the
 * line of every value is kept so that the plausibility checks can name it too.
 */
import { csvParseRows } from 'd3-dsv';
import { readInputText } from './yamlFile.js';
import { readFileHead } from './boundedRead.js';
import { looksLikeHeader, unknownColumnMessage } from './didYouMean.js';
import { excerpt } from '../util/printable.js';
import { LocatedInputError } from './sourceMap.js';

export const CURVE_COLUMNS = ['wind_speed', 'power', 'ct'] as const;
export type CurveColumn = (typeof CURVE_COLUMNS)[number];

export interface CurveTable {
  file: string;
  speeds: Float64Array;
  values: Float64Array;
  /** The error for the value at `index` of `column` (its file and line). */
  errorAt(column: CurveColumn, index: number, message: string): LocatedInputError;
}

const DECIMAL = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

/** The `wind_speed` column and the `column` column of a curve file. */
export function readCurveCsv(file: string, column: 'power' | 'ct'): CurveTable {
  const text = readInputText(file, 'curve file').replace(/^\uFEFF/, '');
  const rows = csvParseRows(text);
  const lineOf: number[] = [];
  let line = 1;
  for (const row of rows) {
    lineOf.push(line);
    line += 1;
    for (const cell of row) for (let i = cell.indexOf('\n'); i >= 0; i = cell.indexOf('\n', i + 1)) line++;
  }
  const fail = (rowIndex: number, name: string, message: string): never => {
    throw new LocatedInputError(`${file}:${lineOf[rowIndex] ?? 1}: ${name}: ${message}`);
  };
  if (rows.length === 0 || rows[0].every((c) => c.trim() === '')) fail(0, '(header)', `empty file, expected a header row (wind_speed,${column})`);
  const header = rows[0].map((h) => h.trim());
  // A first line naming none of the columns is not a curve header: said without quoting it (io/fileDoor.ts).
  if (!looksLikeHeader(header, CURVE_COLUMNS))
    fail(
      0,
      '(header)',
      `expected a header row (wind_speed,${column}); the first line names none of the columns (${header.length} cell${header.length === 1 ? '' : 's'}): not a curve CSV`,
    );
  const index = new Map<string, number>();
  header.forEach((name, i) => {
    if (!(CURVE_COLUMNS as readonly string[]).includes(name))
      fail(0, name === '' ? `column ${i + 1}` : excerpt(name), name === '' ? 'empty column name' : unknownColumnMessage(excerpt(name), CURVE_COLUMNS));
    if (index.has(name)) fail(0, name, `column '${name}' appears twice`);
    index.set(name, i);
  });
  for (const required of ['wind_speed', column]) {
    if (!index.has(required))
      fail(0, required, `missing column (the header has ${header.join(', ')}; a ${column === 'power' ? 'power' : 'Ct'} curve needs wind_speed and ${column})`);
  }
  const sampleRows: number[] = [];
  for (let r = 1; r < rows.length; r++) if (!(rows[r].length === 1 && rows[r][0].trim() === '')) sampleRows.push(r);
  if (sampleRows.length === 0) fail(0, column, 'no rows below the header');
  const numbers = (name: string): Float64Array => {
    const i = index.get(name)!;
    return Float64Array.from(sampleRows, (r) => {
      if (rows[r].length !== header.length) fail(r, name, `row has ${rows[r].length} cells, the header ${header.length}`);
      const s = rows[r][i].trim();
      if (s === '') fail(r, name, 'empty cell (fill it, or remove the row)');
      if (!DECIMAL.test(s)) fail(r, name, `'${excerpt(s)}' is not a decimal number`);
      const v = Number(s);
      if (!Number.isFinite(v)) fail(r, name, `'${excerpt(s)}' is not a finite number`);
      return v;
    });
  };
  const speeds = numbers('wind_speed');
  const values = numbers(column);
  return {
    file,
    speeds,
    values,
    errorAt: (name, i, message) => new LocatedInputError(`${file}:${lineOf[sampleRows[i] ?? 0] ?? 1}: ${name}: ${message}`),
  };
}

/** The header cells of a CSV file (trimmed), or [] when it has none. */
export function curveHeader(file: string): string[] {
  // The first line only, from the file's head: a big time series or a device is not read to sniff it.
  const head = readFileHead(file, 64 * 1024);
  const text = (head === null ? readInputText(file, 'CSV file', 'a CSV file') : head.toString('utf8')).replace(/^\uFEFF/, '');
  const firstLine = text.slice(0, text.search(/\r?\n|$/));
  return (csvParseRows(firstLine)[0] ?? []).map((h) => h.trim());
}

/** A CSV file whose header looks like a curve table (a power or ct column, no wind_direction). */
export function isCurveCsv(file: string): boolean {
  if (readFileHead(file, 0) === null) return false; // not a regular file: its reader says what it is
  const header = curveHeader(file);
  return !header.includes('wind_direction') && (header.includes('power') || header.includes('ct'));
}
