/**
 * A site's fields from a netCDF-4 (HDF5) file as xarray writes it (`ds.to_netcdf`, as PyWake's
 * `XRSite.save`), named by a `site: {file: NAME.nc}` block (path relative to the naming file):
 *
 *   Speedup (x, y[, h][, wd])   the speed-up s, > 0
 *   TI      (x, y[, h][, wd])   ambient turbulence intensity, a fraction; or a scalar (one TI everywhere)
 *   x, y, h, wd                 the dimensions' coordinates: strictly ascending; `units`, where
 *                               given, m (x, y, h) and deg (wd); wd in [0, 360], equal sectors
 *
 *   Weibull_A, Weibull_k, Sector_frequency (x, y[, h][, wd])   a per-point sector Weibull
 *                               (physics/site/siteWeibull.ts; all three over the same dimensions)
 *
 * Other variables (PyWake's P, WS) are not read: without the Weibull the rose is the case's `wind`. A dimension other than x, y, h, wd (ws, i, time), dimensions out of that order, or
 * a field without x and y is refused, naming the file and the variable. The file is opened in a
 * child process (io/siteFileChild.ts): a damaged file cannot take the reader down.
 *
 * Bounded (docs/site.md, "Bounds of site files"): a regular file (boundedRead.ts) of at most
 * MAX_INPUT_BYTES, confined by its caller (siteFields.ts, fileDoor.ts); the child reads only the
 * variables above, at most MAX_SITE_VALUES in all, and no other file (external storage and links
 * refused); NaN and ±inf are refused with the variable and its index.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { InputError } from '../util/errors.js';
import { MAX_INPUT_BYTES, mib, requireRegularFile } from './boundedRead.js';
import { makeSiteField, SITE_DIM_ORDER, type SiteDim, type SiteField } from '../physics/site/siteField.js';
import { axisProblem, valueProblem } from './siteValues.js';
import type { Variable } from './siteFileChild.js';
import type { SiteWeibull } from '../physics/site/siteWeibull.js';
import { gridIndex, siteWeibullOf, weibullGridProblem, weibullValueProblem, type WeibullVariable } from './siteWeibullGrid.js';

const UNITS: Record<SiteDim, RegExp> = {
  x: /^(m|metres?|meters?)$/i,
  y: /^(m|metres?|meters?)$/i,
  h: /^(m|metres?|meters?)$/i,
  wd: /^(deg|degrees?|degrees_north|°)$/i,
};
/** The file's variable for each field (PyWake's names first). */
const NAMES: Record<string, readonly string[]> = { speedup: ['Speedup', 'speedup'], ti: ['TI', 'ti'] };

/** The variables whose values are read (coordinates and fields); every other one is listed, never read. */
const READ_NAMES = ['x', 'y', 'h', 'wd', ...NAMES.speedup, ...NAMES.ti, 'Weibull_A', 'Weibull_k', 'Sector_frequency'];

/** A variable as the child reports it, its values decoded (float64; NaN and ±inf kept). */
type ReadVariable = Omit<Variable, 'values'> & { values: Float64Array | null };

function readVariables(file: string): ReadVariable[] {
  // The one file door (boundedRead.ts): a regular file (never a FIFO or a device) within the input cap.
  requireRegularFile(file, { what: 'site file', expected: 'a netCDF-4/HDF5 site file' });
  const size = fs.statSync(file).size;
  if (size > MAX_INPUT_BYTES) throw new InputError(`${file}: file is ${mib(size)}, over the ${mib(MAX_INPUT_BYTES)} limit for site files`);
  const child = fileURLToPath(new URL('./siteFileChild.js', import.meta.url));
  let out: string;
  try {
    out = execFileSync(process.execPath, [child, file, READ_NAMES.join(',')], {
      encoding: 'utf8',
      maxBuffer: 256 << 20,
      timeout: 120_000,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (err) {
    const e = err as { stderr?: string; status?: number | null };
    const line = e.stderr?.trim().split('\n').pop();
    if (e.status === 2 && line) throw new InputError(`${file}: ${line}`);
    throw new InputError(`${file}: not a readable netCDF-4/HDF5 site file (${line || (err as Error).message.split('\n')[0]})`);
  }
  // Line 1 lists the variables; each variable read follows on a line of its own (siteFileChild.ts).
  let at = out.indexOf('\n');
  const head = JSON.parse(out.slice(0, at)) as { variables: Variable[]; read: string[] };
  const decoded = new Map<string, Float64Array>();
  for (const name of head.read) {
    const next = out.indexOf('\n', at + 1);
    const bytes = Buffer.from(out.slice(at + 1, next), 'base64');
    at = next;
    // A large decoded Buffer has its own, aligned memory: viewed, not copied.
    const values = bytes.byteOffset % 8 === 0 ? new Float64Array(bytes.buffer, bytes.byteOffset, bytes.length / 8) : new Float64Array(bytes.length / 8);
    if (values.buffer !== bytes.buffer) Buffer.from(values.buffer).set(bytes);
    decoded.set(name, values);
  }
  return head.variables.map((v) => ({ ...v, values: decoded.get(v.name) ?? null }));
}

/** Flat index k of a row-major grid of `sizes` as `[i,j,…]`. */
function flatIndex(sizes: number[], k: number): string {
  const out: number[] = [];
  for (let a = sizes.length - 1; a >= 0; a--) {
    out.unshift(k % sizes[a]);
    k = Math.floor(k / sizes[a]);
  }
  return `[${out.join(',')}]`;
}

/** The fields `speedup`, `ti` and the Weibull a site file holds (null where it has none). */

export function readSiteFile(file: string): { speedup: SiteField | null; ti: SiteField | null; weibull: SiteWeibull | null } {
  const vars = readVariables(file);
  const byName = new Map(vars.map((v) => [v.name, v]));
  /** A gridded variable's dimensions, coordinates and values, checked (`check` gives a value's problem). */
  const gridded = (v: ReadVariable, check: (x: number) => string | null): { dims: SiteDim[]; coords: Float64Array[]; values: Float64Array } => {
    const fail = (message: string): never => {
      throw new InputError(`${file}: ${v.name}: ${message}`);
    };
    const dims = v.dims.map((d, i) => {
      if (d === null || !(SITE_DIM_ORDER as readonly string[]).includes(d))
        fail(`dimension ${i} (${d ?? 'unnamed'}) is not one of x, y, h, wd (a field over ${d ?? 'it'} is not supported)`);
      return d as SiteDim;
    });
    const order = SITE_DIM_ORDER.filter((d) => dims.includes(d));
    if (order.join(',') !== dims.join(','))
      fail(`dimensions (${dims.join(', ')}) must be in the order ${order.join(', ')} (transpose it: ds.transpose(${order.map((d) => `'${d}'`).join(', ')}))`);
    if (!dims.includes('x') || !dims.includes('y')) fail(`dimensions (${dims.join(', ')}) lack x or y: a site field is over x and y`);
    const coords = dims.map((d) => {
      const c = byName.get(d);
      if (!c || !c.numeric || c.values === null || c.shape.length !== 1)
        throw new InputError(`${file}: ${d}: the coordinate of dimension ${d} is missing or not a numeric list`);
      if (c.units !== null && !UNITS[d].test(c.units.trim()))
        throw new InputError(`${file}: ${d}: units '${c.units}' where ${d === 'wd' ? 'degrees (deg)' : 'metres (m)'} are expected`);
      const g = Float64Array.from(c.values);
      const p = axisProblem(d, g);
      if (p) throw new InputError(`${file}: ${d}[${p.index}]: ${p.message}`);
      return g;
    });
    const values = v.values!;
    const sizes = coords.map((c) => c.length);
    if (values.length !== sizes.reduce((a, b) => a * b, 1)) fail(`shape ${v.shape.join(' × ')} does not match its coordinates (${sizes.join(' × ')})`);
    for (let k = 0; k < values.length; k++) {
      const p = check(values[k]);
      if (p) fail(`index ${flatIndex(sizes, k)} (${dims.join(', ')}): ${p}`);
    }
    return { dims, coords, values };
  };
  const fieldOf = (name: string): SiteField | null => {
    const v = NAMES[name].map((n) => byName.get(n)).find((x) => x !== undefined);
    if (!v) return null;
    const fail = (message: string): never => {
      throw new InputError(`${file}: ${v.name}: ${message}`);
    };
    if (v.values === null) fail('not a numeric variable');
    if (v.shape.length === 0) {
      if (name !== 'ti') fail('a scalar speed-up is a constant factor: give it over x and y');
      const p = valueProblem(name, v.values![0]);
      if (p) fail(p);
      return makeSiteField(name, [], [], v.values!);
    }
    const g = gridded(v, (x) => valueProblem(name, x));
    return makeSiteField(name, g.dims, g.coords, g.values);
  };
  const weibullOf = (): SiteWeibull | null => {
    const names: [WeibullVariable, string][] = [
      ['A', 'Weibull_A'],
      ['k', 'Weibull_k'],
      ['frequency', 'Sector_frequency'],
    ];
    const present = names.filter(([, n]) => byName.has(n));
    if (present.length === 0) return null;
    if (byName.has('P'))
      throw new InputError(
        `${file}: P: the file holds P beside ${present[0][1]}: PyWake's XRSite takes P then and ignores the Weibull; remove P (the rose's probabilities come from the Weibull) or the Weibull variables`,
      );
    if (present.length < 3) {
      const missing = names.find(([, n]) => !byName.has(n))![1];
      throw new InputError(`${file}: ${missing}: missing; a per-point Weibull needs Weibull_A, Weibull_k and Sector_frequency`);
    }
    const grids = names.map(([w, n]) => {
      const v = byName.get(n)!;
      if (v.values === null) throw new InputError(`${file}: ${n}: not a numeric variable`);
      if (v.shape.length === 0) throw new InputError(`${file}: ${n}: a scalar; a per-point Weibull is over x and y`);
      return gridded(v, (x) => weibullValueProblem(w, x));
    });
    for (let i = 1; i < 3; i++) {
      const same = grids[i].dims.join(',') === grids[0].dims.join(',') && grids[i].coords.every((c, a) => c.length === grids[0].coords[a].length);
      if (!same)
        throw new InputError(
          `${file}: ${names[i][1]}: dimensions (${grids[i].dims.join(', ')}) differ from Weibull_A's (${grids[0].dims.join(', ')}): the three must share one grid`,
        );
    }
    const g = { dims: grids[0].dims, coords: grids[0].coords, a: grids[0].values, k: grids[1].values, frequency: grids[2].values };
    const problem = weibullGridProblem(g);
    if (problem) throw new InputError(`${file}: ${names.find(([w]) => w === problem.variable)![1]}${gridIndex(g, problem.index)}: ${problem.message}`);
    return siteWeibullOf(g);
  };
  const speedup = fieldOf('speedup'),
    ti = fieldOf('ti'),
    weibull = weibullOf();
  if (!speedup && !ti && !weibull)
    throw new InputError(
      `${file}: holds neither Speedup, TI nor Weibull_A/Weibull_k/Sector_frequency (variables: ${vars.map((v) => v.name).join(', ') || 'none'})`,
    );
  return { speedup, ti, weibull };
}
