/**
 * A WAsP resource grid (`.wrg`, ASCII), named by `site: {file: NAME.wrg}`: a per-point sector
 * Weibull over a regular x–y grid (io/siteWeibullGrid.ts, physics/site/siteWeibull.ts).
 *
 * The format (as DTU's windkit writes and reads it, `weibull_wind_climate.py` `_to_resource_file`,
 * and FLORIS's `WindResourceGrid.read_wrg_file`):
 *
 *   line 1      nx ny xmin ymin cell_size          (whitespace separated)
 *   each point  fixed columns of widths 10 10 10 8 5 5 6 15 3, then 4 4 5 per sector:
 *               name, x, y, elevation, height, A and k of all sectors, power density,
 *               n sectors, then per sector: frequency ×1000 (per mille), A ×10 (dm/s), k ×100
 *
 * A point line whose whitespace-separated tokens are exactly 9 + 3·n (n the ninth token) is read
 * by tokens (writers that do not keep the widths); otherwise by the fixed columns. Sector j is
 * centred at j·360/n degrees (sector 1 on north). Every node x = xmin + i·cell, y = ymin + j·cell
 * must appear exactly once (in any order); all points must share one height and one sector count.
 * The elevation, the all-sector A and k and the power density are not used. The grid is the
 * resource at every turbine whatever its hub height (the file's height is not extrapolated).
 * Problems: `file:line: field: what is wrong`, exit 2.
 *
 * Bounded (io/fileDoor.ts): a regular file of at most MAX_INPUT_BYTES (64 MiB), read once; the
 * header's grid is refused before anything is allocated for it when the file is too short to hold
 * its points (each point line is at least 6·n + 17 bytes for n sectors), so what is allocated is
 * at most 4 × the file's size. Numbers are decimal (`0x5a` refused, as the CSV readers do). No
 * token is quoted until the header has been read as five numbers (a file that is not a `.wrg`
 * prints none of its content); after that a quoted token is cut to 40 characters.
 */
import { InputError } from '../util/errors.js';
import { excerpt } from '../util/printable.js';
import { readBoundedText } from './boundedRead.js';
import type { SiteWeibull } from '../physics/site/siteWeibull.js';
import { siteWeibullOf, weibullGridProblem, type WeibullGrid } from './siteWeibullGrid.js';

const FIXED = [10, 10, 10, 8, 5, 5, 6, 15, 3];
const NAMES = ['name', 'x', 'y', 'elevation', 'height', 'A (all sectors)', 'k (all sectors)', 'power density', 'sectors'];

/** The fields of one point line: the 9 fixed ones, then frequency, A, k of each sector (strings). */
function splitPoint(line: string): string[] {
  const tokens = line.trim().split(/\s+/);
  const n = Number(tokens[8]);
  if (tokens.length >= 9 && Number.isInteger(n) && tokens.length === 9 + 3 * n) return tokens;
  const out: string[] = [];
  let at = 0;
  for (const w of FIXED) {
    out.push(line.slice(at, at + w).trim());
    at += w;
  }
  const sectors = Number(out[8]);
  if (Number.isInteger(sectors) && sectors > 0) {
    for (let s = 0; s < sectors; s++)
      for (const w of [4, 4, 5]) {
        out.push(line.slice(at, at + w).trim());
        at += w;
      }
  }
  return out;
}

/** A decimal number as a `.wrg` writes it (no hexadecimal, binary, octal, `Infinity`). */
const DECIMAL = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

export function readWrgFile(file: string): SiteWeibull {
  const text = readBoundedText(file, { what: 'site file', expected: 'a WAsP resource grid (.wrg)' });
  const lines = text.split(/\r?\n/);
  const fail = (line: number, field: string, message: string): never => {
    throw new InputError(`${file}:${line}: ${field}: ${message}`);
  };
  const header = (lines[0] ?? '').trim().split(/\s+/);
  // Until the header is five decimal numbers the file is not known to be a .wrg: nothing of it is quoted.
  const HEADER = `expected the header 'nx ny xmin ymin cell_size' (5 decimal numbers)`;
  if (header.length !== 5) fail(1, 'header', `${HEADER}, got ${header.length} field${header.length === 1 ? '' : 's'}: not a WAsP resource grid`);
  const HEADER_NAMES = ['nx', 'ny', 'xmin', 'ymin', 'cell_size'];
  header.forEach((h, i) => {
    if (!DECIMAL.test(h)) fail(1, `header.${HEADER_NAMES[i]}`, `${HEADER}; field ${i + 1} is not a decimal number: not a WAsP resource grid`);
  });
  const [nx, ny, xmin, ymin, cell] = header.map(Number);
  if (!(Number.isInteger(nx) && nx > 0)) fail(1, 'header.nx', `${header[0]} is not a positive whole number of grid columns`);
  if (!(Number.isInteger(ny) && ny > 0)) fail(1, 'header.ny', `${header[1]} is not a positive whole number of grid rows`);
  if (!Number.isFinite(xmin)) fail(1, 'header.xmin', `${header[2]} is not a finite number`);
  if (!Number.isFinite(ymin)) fail(1, 'header.ymin', `${header[3]} is not a finite number`);
  if (!(Number.isFinite(cell) && cell > 0)) fail(1, 'header.cell_size', `${header[4]} is not a positive cell size in metres`);
  // One line per point: a header asking for more points than the file has lines is refused before allocating.
  const pointLines = lines.length - 1;
  if (nx * ny > pointLines)
    fail(
      1,
      'header',
      `a grid of ${nx} × ${ny} = ${nx * ny} points, but the file has ${pointLines} line${pointLines === 1 ? '' : 's'} below the header (one per point)`,
    );
  let sectors = 0,
    height = NaN;
  let a = new Float64Array(0),
    k = a,
    f = a;
  const seen = new Int32Array(nx * ny).fill(0);
  let points = 0;
  for (let li = 1; li < lines.length; li++) {
    const line = lines[li];
    if (line.trim() === '') continue;
    const at = li + 1;
    const fields = splitPoint(line);
    const num = (i: number, name: string): number => {
      const t = fields[i] ?? '';
      if (t === '') fail(at, name, 'missing (an empty field)');
      if (!DECIMAL.test(t)) fail(at, name, `'${excerpt(t)}' is not a decimal number (hexadecimal, binary, octal and Infinity are refused)`);
      const v = Number(t);
      if (!Number.isFinite(v)) fail(at, name, `'${excerpt(t)}' is not a finite number`);
      return v;
    };
    const n = num(8, 'sectors');
    if (!(Number.isInteger(n) && n > 0 && n <= 360)) fail(at, 'sectors', `${n} is not a whole number of sectors in 1…360`);
    if (sectors === 0) {
      // Each point line holds 9 + 3n fields (at least 6n + 17 bytes with their separators).
      if (nx * ny * (6 * n + 17) > text.length)
        fail(1, 'header', `a grid of ${nx} × ${ny} points of ${n} sectors needs at least ${nx * ny * (6 * n + 17)} bytes, the file has ${text.length}`);
      sectors = n;
      a = new Float64Array(nx * ny * n);
      k = new Float64Array(nx * ny * n);
      f = new Float64Array(nx * ny * n);
    } else if (n !== sectors) fail(at, 'sectors', `${n} sectors where line 2 has ${sectors}: every point must have the same sectors`);
    if (fields.length !== 9 + 3 * n) fail(at, 'sectors', `${fields.length - 9} sector values for ${n} sectors (3 each: frequency, A, k)`);
    const x = num(1, NAMES[1]),
      y = num(2, NAMES[2]),
      h = num(4, NAMES[4]);
    if (Number.isNaN(height)) height = h;
    else if (h !== height) fail(at, 'height', `${h} m where line 2 has ${height} m: one height per file`);
    const ix = (x - xmin) / cell,
      iy = (y - ymin) / cell;
    const rx = Math.round(ix),
      ry = Math.round(iy);
    if (Math.abs(ix - rx) > 1e-6 || rx < 0 || rx >= nx) fail(at, 'x', `${x} is not a grid column xmin + i·cell (${xmin} + i·${cell}, i in 0…${nx - 1})`);
    if (Math.abs(iy - ry) > 1e-6 || ry < 0 || ry >= ny) fail(at, 'y', `${y} is not a grid row ymin + j·cell (${ymin} + j·${cell}, j in 0…${ny - 1})`);
    const node = rx * ny + ry;
    if (seen[node] !== 0) fail(at, 'x', `the point (${x}, ${y}) is given again (first on line ${seen[node]})`);
    seen[node] = at;
    points++;
    for (let s = 0; s < n; s++) {
      const o = node * n + s;
      f[o] = num(9 + 3 * s, `sector ${s + 1} frequency`) / 1000;
      a[o] = num(10 + 3 * s, `sector ${s + 1} A`) / 10;
      k[o] = num(11 + 3 * s, `sector ${s + 1} k`) / 100;
    }
  }
  if (points < nx * ny) {
    const missing = seen.indexOf(0);
    fail(
      lines.length,
      'points',
      `${points} points for the header's ${nx} × ${ny} grid: none at (${xmin + Math.floor(missing / ny) * cell}, ${ymin + (missing % ny) * cell})`,
    );
  }
  const coords = [
    Float64Array.from({ length: nx }, (_, i) => xmin + i * cell),
    Float64Array.from({ length: ny }, (_, j) => ymin + j * cell),
    Float64Array.from({ length: sectors }, (_, s) => (s * 360) / sectors),
  ];
  const g: WeibullGrid = { dims: ['x', 'y', 'wd'], coords, a, k, frequency: f };
  const problem = weibullGridProblem(g);
  if (problem) {
    const node = Math.floor(problem.index / sectors),
      s = problem.index % sectors;
    const line = seen[node];
    fail(
      line,
      `sector ${s + 1} ${problem.variable}`,
      problem.variable === 'frequency' && /sum to/.test(problem.message)
        ? problem.message.replace(/ \(\d+ sectors? from this value on\)/, '')
        : problem.message,
    );
  }
  return siteWeibullOf(g);
}
