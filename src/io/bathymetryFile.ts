/**
 * A bathymetry grid from a CSV file (RFC 4180, parsed by d3-dsv), named by a case file's or
 * campaign farm's `economics.bathymetry:` (path relative to that file):
 *
 *   x,y,depth
 *   0,0,21.5
 *   500,0,23.0
 *   …
 *
 * Columns `x`, `y` (metres, the layout's frame) and `depth` (metres below the sea surface,
 * positive down), in any column order; one row per node of a regular grid (x values equally
 * spaced, y values equally spaced, at least 2 of each), rows in any order. Strict: every node
 * exactly once, decimal numbers only (no NaN, no empty cell), depth ≥ 0. A problem is one line
 * `file:line: column: what is wrong` (a missing node names the file and the node). Interpolation is
 * geometry/bathymetry.ts's (bilinear, clamped outside; io refuses a site reaching outside the grid).
 */
import { csvParseRows } from 'd3-dsv';
import { BathymetryGrid } from '../geometry/bathymetry.js';
import { readInputText } from './yamlFile.js';
import { looksLikeHeader, unknownColumnMessage } from './didYouMean.js';
import { LocatedInputError } from './sourceMap.js';
import { excerpt } from '../util/printable.js';

export const BATHYMETRY_COLUMNS = ['x', 'y', 'depth'] as const;

const DECIMAL = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

/** The distinct values of one axis as a regular progression, or the first value off it. */
function regularAxis(values: Float64Array): { start: number; step: number; count: number } | { off: number; start: number; step: number } | { tooFew: number } {
  const u = Array.from(new Set(values)).sort((a, b) => a - b);
  if (u.length < 2) return { tooFew: u.length };
  const start = u[0];
  const first = u[1] - start;
  const tol = 1e-9 * Math.max(Math.abs(start), Math.abs(u[u.length - 1]), first);
  for (let k = 2; k < u.length; k++) {
    if (Math.abs(u[k] - (start + k * first)) > tol) return { off: u[k], start, step: first };
  }
  // The spacing over the whole axis (the most accurate of the equal steps).
  return { start, step: (u[u.length - 1] - start) / (u.length - 1), count: u.length };
}

export function readBathymetryCsv(file: string): BathymetryGrid {
  const text = readInputText(file, 'bathymetry file', 'a CSV file (x,y,depth)').replace(/^\uFEFF/, '');
  const rows = csvParseRows(text);
  const fail = (line: number, name: string, message: string): never => {
    throw new LocatedInputError(`${file}:${line}: ${name}: ${message}`);
  };
  if (rows.length === 0 || rows[0].every((c) => c.trim() === '')) fail(1, '(header)', 'empty file, expected a header row x,y,depth');
  const header = rows[0].map((h) => h.trim());
  // A first line naming none of the columns is not a bathymetry header: said without quoting it (io/fileDoor.ts).
  if (!looksLikeHeader(header, BATHYMETRY_COLUMNS))
    fail(
      1,
      '(header)',
      `expected a header row x,y,depth; the first line names none of these columns (${header.length} cell${header.length === 1 ? '' : 's'}): not a bathymetry CSV`,
    );
  const index = new Map<string, number>();
  header.forEach((name, i) => {
    if (!(BATHYMETRY_COLUMNS as readonly string[]).includes(name))
      fail(1, name === '' ? `column ${i + 1}` : excerpt(name), name === '' ? 'empty column name' : unknownColumnMessage(excerpt(name), BATHYMETRY_COLUMNS));
    if (index.has(name)) fail(1, name, `column '${name}' appears twice`);
    index.set(name, i);
  });
  for (const c of BATHYMETRY_COLUMNS)
    if (!index.has(c)) fail(1, c, `missing column (the header has ${header.join(', ')}; a bathymetry grid needs x, y, depth)`);
  // Rows are lines (no quoted newlines in a numeric file: a cell with one is not a number anyway).
  const lines: number[] = [];
  for (let r = 1; r < rows.length; r++) if (!(rows[r].length === 1 && rows[r][0].trim() === '')) lines.push(r);
  if (lines.length === 0) fail(1, 'depth', 'no rows below the header');
  const cols = new Map<string, Float64Array>();
  for (const name of BATHYMETRY_COLUMNS) {
    const i = index.get(name)!;
    cols.set(
      name,
      Float64Array.from(lines, (r) => {
        if (rows[r].length !== header.length) fail(r + 1, name, `row has ${rows[r].length} cells, the header ${header.length}`);
        const s = rows[r][i].trim();
        if (s === '') fail(r + 1, name, 'empty cell (every node needs x, y and depth)');
        if (!DECIMAL.test(s)) fail(r + 1, name, `'${excerpt(s)}' is not a decimal number`);
        const v = Number(s);
        if (!Number.isFinite(v)) fail(r + 1, name, `'${excerpt(s)}' is not a finite number`);
        if (name === 'depth' && v < 0) fail(r + 1, name, `${s} is negative (depth is metres below the sea surface, positive down)`);
        return v;
      }),
    );
  }
  const xs = cols.get('x')!;
  const ys = cols.get('y')!;
  const depths = cols.get('depth')!;
  const axis = (name: 'x' | 'y', values: Float64Array): { start: number; step: number; count: number } => {
    const a = regularAxis(values);
    if ('tooFew' in a) return fail(lines[0] + 1, name, `the grid has ${a.tooFew} distinct ${name} value; it needs at least 2`);
    if ('off' in a) {
      const k = values.indexOf(a.off);
      return fail(
        lines[k] + 1,
        name,
        `${a.off} is off the regular spacing of the ${name} values (from ${a.start}, first step ${a.step}): a bathymetry grid is regular`,
      );
    }
    return a;
  };
  const ax = axis('x', xs);
  const ay = axis('y', ys);
  const depth = new Float64Array(ax.count * ay.count).fill(NaN);
  const lineOfNode = new Int32Array(ax.count * ay.count);
  for (let k = 0; k < lines.length; k++) {
    const i = Math.round((xs[k] - ax.start) / ax.step);
    const j = Math.round((ys[k] - ay.start) / ay.step);
    const node = j * ax.count + i;
    if (!Number.isNaN(depth[node])) fail(lines[k] + 1, 'x', `node (${xs[k]}, ${ys[k]}) appears twice (also line ${lineOfNode[node]})`);
    depth[node] = depths[k];
    lineOfNode[node] = lines[k] + 1;
  }
  for (let node = 0; node < depth.length; node++) {
    if (Number.isNaN(depth[node])) {
      const x = ax.start + (node % ax.count) * ax.step;
      const y = ay.start + Math.floor(node / ax.count) * ay.step;
      throw new LocatedInputError(
        `${file}: depth: no row for node (${x}, ${y}) of the ${ax.count} × ${ay.count} grid (${lines.length} rows for ${depth.length} nodes)`,
      );
    }
  }
  return new BathymetryGrid(ax.start, ax.step, ax.count, ay.start, ay.step, ay.count, depth);
}
