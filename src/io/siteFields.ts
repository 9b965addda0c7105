/**
 * The `site:` block of case files (and of PyWake reference files): a site that is not uniform
 * (physics/site/site.ts), strict.
 *
 *   site:
 *     speedup:                      # optional: the speed-up s (PyWake's `Speedup`), > 0
 *       x: [0, 1000, 2000]          # metres, strictly ascending (the layout's frame)
 *       y: [0, 1000]
 *       h: [60, 100]                # optional: height above ground, metres
 *       wd: [0, 90, 180, 270]       # optional: wind direction, degrees in [0, 360]
 *       values: [[1.0, 1.1], …]     # nested lists in the order x, y, (h), (wd)
 *     ti: {x: …, y: …, values: …}   # optional: ambient turbulence intensity (a fraction, PyWake's `TI`)
 *     weibull:                      # optional: per-point sector Weibull (physics/site/siteWeibull.ts)
 *       x: […], y: […], wd: [0, 30, …, 330]   # (h optional); one grid for the three
 *       A: […], k: […], frequency: […]        # nested x, y, (h), (wd); io/siteWeibullGrid.ts checks them
 *     shear: {power: {h_ref: 100, alpha: 0.14}}   # or {log: {h_ref: 100, z0: 0.03}}
 *     # or, instead of speedup, ti and weibull: file: site.nc (netCDF-4 as xarray writes it; io/siteFile.ts)
 *     # or a WAsP resource grid, file: site.wrg (io/wrgFile.ts)
 *     outside: error              # or limit: a turbine outside a grid takes the edge's values (PyWake's bounds='limit')
 *
 * Each field needs x and y (a grid over the site; a dimension of one value means "only there").
 * Problems are one line `file:line: site.speedup.values[2][1]: what is wrong`.
 */
import path from 'node:path';
import { z } from 'zod';
import { strict, zodToInputError } from './zodIssue.js';
import { errorAt, type FieldPath } from './sourceMap.js';
import { makeSiteField, SITE_DIM_ORDER, wdWraps, type SiteDim, type SiteField } from '../physics/site/siteField.js';
import type { Site, SiteShear } from '../physics/site/site.js';
import { axisProblem, valueProblem } from './siteValues.js';
import { readSiteFile } from './siteFile.js';
import { outsideFolderProblem } from './fileDoor.js';
import { gridIndex, siteWeibullOf, weibullGridProblem, type WeibullGrid } from './siteWeibullGrid.js';
import { readWrgFile } from './wrgFile.js';
import type { SiteWeibull } from '../physics/site/siteWeibull.js';

const axis = z.array(z.number()).min(1);
// x and y are required (readField says so); a TI without them is one value everywhere (`ti: {values: 0.08}`, as a netCDF file's scalar TI reads back).
const fieldSchema = strict({
  x: axis.optional(),
  y: axis.optional(),
  h: axis.optional(),
  wd: axis.optional(),
  values: z.union([z.array(z.unknown()), z.number()]),
});
const weibullSchema = strict({
  x: axis,
  y: axis,
  h: axis.optional(),
  wd: axis.optional(),
  A: z.array(z.unknown()),
  k: z.array(z.unknown()),
  frequency: z.array(z.unknown()),
});
const shearSchema = z.union([
  strict({ power: strict({ h_ref: z.number().positive(), alpha: z.number() }) }),
  strict({ log: strict({ h_ref: z.number().positive(), z0: z.number().positive() }) }),
]);
const siteSchema = strict({
  outside: z.enum(['error', 'limit']).optional(),
  file: z.string().min(1).optional(),
  speedup: fieldSchema.optional(),
  ti: fieldSchema.optional(),
  weibull: weibullSchema.optional(),
  shear: shearSchema.optional(),
});

function readGrid(raw: Record<string, unknown>, doc: unknown, at: FieldPath, file: string): { dims: SiteDim[]; coords: Float64Array[] } {
  const dims = SITE_DIM_ORDER.filter((d) => raw[d] !== undefined);
  const coords = dims.map((d) => {
    const g = Float64Array.from(raw[d] as number[]);
    const problem = axisProblem(d, g);
    if (problem) throw errorAt(doc, [...at, d, problem.index], problem.message, file);
    return g;
  });
  return { dims, coords };
}

/** Nested values of `raw[key]` over the grid, flat row-major; `check` gives a value's problem. */
function readValues(
  raw: Record<string, unknown>,
  key: string,
  dims: SiteDim[],
  coords: Float64Array[],
  check: (v: number) => string | null,
  doc: unknown,
  at: FieldPath,
  file: string,
): Float64Array {
  const shape = coords.map((g) => g.length);
  const values = new Float64Array(shape.reduce((a, b) => a * b, 1));
  let next = 0;
  const walk = (v: unknown, level: number, path: FieldPath): void => {
    if (level === dims.length) {
      const problem = check(v as number);
      if (problem) throw errorAt(doc, path, problem, file);
      values[next++] = v as number;
      return;
    }
    if (!Array.isArray(v) || v.length !== shape[level]) {
      const what = `a list of ${shape[level]} (the ${dims[level]} grid's length; values nest in the order ${dims.join(', ')})`;
      throw errorAt(doc, path, Array.isArray(v) ? `${v.length} entries, expected ${what}` : `expected ${what}`, file);
    }
    v.forEach((e, i) => walk(e, level + 1, [...path, i]));
  };
  walk(raw[key], 0, [...at, key]);
  return values;
}

function readField(name: string, raw: Record<string, unknown>, doc: unknown, at: FieldPath, file: string): SiteField {
  const dimsGiven = SITE_DIM_ORDER.filter((d) => raw[d] !== undefined);
  if (name === 'ti' && dimsGiven.length === 0 && typeof raw.values === 'number') {
    const problem = valueProblem(name, raw.values);
    if (problem) throw errorAt(doc, [...at, 'values'], problem, file);
    return makeSiteField(name, [], [], Float64Array.of(raw.values));
  }
  if (raw.x === undefined || raw.y === undefined)
    throw errorAt(
      doc,
      at,
      `${raw.x === undefined ? 'x' : 'y'} is missing: a field is over x and y (a grid over the site)${name === 'ti' ? '; one TI everywhere is {values: 0.08}' : ''}`,
      file,
    );
  const { dims, coords } = readGrid(raw, doc, at, file);
  return makeSiteField(
    name,
    dims,
    coords,
    readValues(raw, 'values', dims, coords, (v) => valueProblem(name, v), doc, at, file),
  );
}

/** The inline `weibull:` grid (one grid; A, k, frequency nested over it). */
function readWeibull(raw: Record<string, unknown>, doc: unknown, at: FieldPath, file: string): SiteWeibull {
  const { dims, coords } = readGrid(raw, doc, at, file);
  const g: WeibullGrid = {
    dims,
    coords,
    a: readValues(raw, 'A', dims, coords, () => null, doc, at, file),
    k: readValues(raw, 'k', dims, coords, () => null, doc, at, file),
    frequency: readValues(raw, 'frequency', dims, coords, () => null, doc, at, file),
  };
  const problem = weibullGridProblem(g);
  if (problem) {
    const idx = gridIndex(g, problem.index).slice(1, -1).split('][').map(Number);
    throw errorAt(doc, [...at, problem.variable, ...idx], problem.message, file);
  }
  return siteWeibullOf(g);
}

/**
 * The site of a `site:` block found at `at` in `doc` (read from `file`). `raw` is the block as
 * parsed (its origin registered, so errors name its lines).
 */
export function readSiteBlock(raw: unknown, doc: unknown, at: FieldPath, file: string): Site {
  if (typeof raw === 'string')
    throw errorAt(
      doc,
      at,
      `expected a mapping, got the text '${raw.slice(0, 80)}'; a site file is given as \`site: {file: ${raw.slice(0, 80)}}\` (docs/site.md)`,
      file,
    );
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
    throw errorAt(doc, at, `expected a mapping (file, speedup, ti, weibull, shear), got ${Array.isArray(raw) ? 'a list' : String(raw)}`, file);
  const parsed = siteSchema.safeParse(raw);
  if (!parsed.success) throw zodToInputError(parsed.error, file, raw);
  const block = raw as Record<string, Record<string, unknown>>;
  const c = parsed.data;
  if (!c.file && !c.speedup && !c.ti && !c.weibull && !c.shear)
    throw errorAt(doc, at, 'an empty site: give file, speedup, ti, weibull or shear (or leave site out for a uniform site)', file);
  if (c.file && (c.speedup || c.ti || c.weibull))
    throw errorAt(doc, [...at, c.speedup ? 'speedup' : c.ti ? 'ti' : 'weibull'], 'give the fields in the file or inline, not both', file);
  const filePath = c.file ? path.resolve(path.dirname(file), c.file) : null;
  const outside = filePath === null ? null : outsideFolderProblem(filePath, path.dirname(file));
  if (outside) throw errorAt(doc, [...at, 'file'], outside, file);
  const fromFile = filePath === null ? null : /\.wrg$/i.test(filePath) ? { speedup: null, ti: null, weibull: readWrgFile(filePath) } : readSiteFile(filePath);
  let shear: SiteShear | null = null;
  if (c.shear)
    shear =
      'power' in c.shear
        ? { kind: 'power', hRef: c.shear.power.h_ref, alpha: c.shear.power.alpha }
        : { kind: 'log', hRef: c.shear.log.h_ref, z0: c.shear.log.z0 };
  return {
    source: fromFile ? path.resolve(path.dirname(file), c.file!) : file,
    speedup: fromFile ? fromFile.speedup : c.speedup ? readField('speedup', block.speedup, doc, [...at, 'speedup'], file) : null,
    ti: fromFile ? fromFile.ti : c.ti ? readField('ti', block.ti, doc, [...at, 'ti'], file) : null,
    weibull: fromFile ? fromFile.weibull : c.weibull ? readWeibull(block.weibull, doc, [...at, 'weibull'], file) : null,
    shear,
    ...(c.outside ? { outside: c.outside } : {}),
  };
}

/** Whether every turbine position (x, y) lies inside the x–y grids of the site's fields; the first one that does not, or null. */
export function siteLayoutProblem(site: Site, x: ArrayLike<number>, y: ArrayLike<number>): { field: string; turbine: number; message: string } | null {
  if (site.outside === 'limit') return null;
  const w = site.weibull;
  for (const field of [site.speedup, site.ti, ...(w ? [w.a, w.k, w.frequency] : [])]) {
    if (!field || !field.dims.includes('x') || !field.dims.includes('y')) continue;
    const gx = field.coords[field.dims.indexOf('x')],
      gy = field.coords[field.dims.indexOf('y')];
    for (let i = 0; i < x.length; i++) {
      const inX = x[i] >= gx[0] && x[i] <= gx[gx.length - 1],
        inY = y[i] >= gy[0] && y[i] <= gy[gy.length - 1];
      if (!inX || !inY) {
        return {
          field: field.name,
          turbine: i,
          message: `turbine ${i} at (${x[i]}, ${y[i]}) is outside the field's grid (x ${gx[0]}…${gx[gx.length - 1]}, y ${gy[0]}…${gy[gy.length - 1]}); values outside a grid are not extrapolated`,
        };
      }
    }
  }
  return null;
}

/** A site as the inline `site:` block that reads back to it (the fields written out, also when they came from a file). */
export function siteDocument(site: Site): Record<string, unknown> {
  const fieldDoc = (f: SiteField): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    const shape = f.coords.map((g) => g.length);
    const w = f.dims.indexOf('wd');
    // makeSiteField appended the wrap node at 360 (a copy of 0°): the block gives the sectors without it.
    const unwrap = w >= 0 && shape[w] > 1 && f.coords[w][shape[w] - 1] === 360 && wdWraps(f.coords[w].subarray(0, shape[w] - 1));
    const keep = shape.map((n, a) => (a === w && unwrap ? n - 1 : n));
    f.dims.forEach((d, a) => {
      out[d] = Array.from(f.coords[a].subarray(0, keep[a]));
    });
    const nest = (level: number, offset: number): unknown =>
      level === f.dims.length ? f.values[offset] : Array.from({ length: keep[level] }, (_, k) => nest(level + 1, offset + k * f.strides[level]));
    out.values = nest(0, 0);
    return out;
  };
  const weibullDoc = (w: SiteWeibull): Record<string, unknown> => {
    const a = fieldDoc(w.a);
    return { ...a, values: undefined, A: a.values, k: fieldDoc(w.k).values, frequency: fieldDoc(w.frequency).values };
  };
  const shear =
    site.shear === null
      ? undefined
      : site.shear.kind === 'power'
        ? { power: { h_ref: site.shear.hRef, alpha: site.shear.alpha } }
        : { log: { h_ref: site.shear.hRef, z0: site.shear.z0 } };
  return {
    ...(site.speedup ? { speedup: fieldDoc(site.speedup) } : {}),
    ...(site.ti ? { ti: fieldDoc(site.ti) } : {}),
    ...(site.weibull ? { weibull: JSON.parse(JSON.stringify(weibullDoc(site.weibull))) as Record<string, unknown> } : {}),
    ...(shear ? { shear } : {}),
    ...(site.outside ? { outside: site.outside } : {}),
  };
}
