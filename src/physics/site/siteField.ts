/**
 * One gridded site field (a speed-up or a turbulence intensity) over x, y and optionally hub
 * height h and wind direction wd, interpolated as PyWake's `XRSite` does with its defaults
 * (`interp_method='linear'`, `bounds='check'`; py_wake/utils/grid_interpolator.py):
 *
 * - multilinear over the dimensions the field has, in the order x, y, h, wd; the value is the
 *   weighted sum of the 2^d corners of the cell holding the point (a dimension with one value
 *   contributes its one value, and the point must sit exactly on it);
 * - grids may be irregular (a cell is found by search) but must be strictly ascending;
 * - wind direction wraps as XRSite does: when the wd grid is equally spaced with step w and its
 *   last value is 360 − w (one value: 0), the values at wd = 0 are appended at wd = 360, so a
 *   direction between the last sector and 360 interpolates towards the first; a grid that does not
 *   close the circle covers [first, last] only;
 * - a point outside the grid on any dimension is an error naming the field, the dimension, the value
 *   and the grid's range (XRSite's 'check'), never an extrapolation (the engine adds the turbine);
 *   with `limit` (XRSite's bounds='limit', chosen by the site's `outside: limit`) the point is moved
 *   onto the grid's edge on that dimension (the edge values held; zero derivative across it).
 *
 * The gradient with respect to x and y (and hub height h) is exact: the derivative of the multilinear form inside the
 * cell the value came from (on a grid line, the cell above it, as PyWake's floor picks it: the
 * one-sided derivative; central differences there see the mean of the two sides).
 */

export type SiteDim = 'x' | 'y' | 'h' | 'wd';
/** The order of a field's dimensions (PyWake's interpolation order). */
export const SITE_DIM_ORDER: readonly SiteDim[] = ['x', 'y', 'h', 'wd'];

export interface SiteField {
  /** What it is, for messages: `speedup`, `ti`. */
  readonly name: string;
  /** Its dimensions in SITE_DIM_ORDER. */
  readonly dims: readonly SiteDim[];
  /** Grid of each dimension, strictly ascending (wd: with the wrap node at 360 appended when it closes the circle). */
  readonly coords: readonly Float64Array[];
  /** Values in row-major order over dims (the last dimension fastest). */
  readonly values: Float64Array;
  /** Row-major strides by dimension. */
  readonly strides: Int32Array;
}

/** Value and ∂/∂x, ∂/∂y (and ∂/∂h, 0 for a field without h, when asked for) at one point. */
export interface FieldSample {
  value: number;
  dx: number;
  dy: number;
  dh?: number;
}

/** A point outside a field's grid. */
export interface OutsideGrid {
  dim: SiteDim;
  value: number;
  min: number;
  max: number;
}

/** Whether a wd grid closes the circle as XRSite's (equal steps w, last = 360 − w; or the single value 0). */
export function wdWraps(wd: Float64Array): boolean {
  if (wd.length === 1) return wd[0] === 0;
  const w = wd[1] - wd[0];
  for (let k = 2; k < wd.length; k++) if (Math.abs(wd[k] - wd[k - 1] - w) > 1e-9 * 360) return false;
  return wd[wd.length - 1] !== 360 && Math.abs(360 - wd[wd.length - 1] - w) <= 1e-9 * 360;
}

/**
 * A field from its grid (dims in SITE_DIM_ORDER, each grid strictly ascending, values row-major).
 * The caller (io/) has validated what the user gave; this appends the wd wrap node.
 */
export function makeSiteField(name: string, dims: readonly SiteDim[], coords: readonly Float64Array[], values: Float64Array): SiteField {
  let grids = coords.map((c) => Float64Array.from(c));
  let data = values;
  const w = dims.indexOf('wd');
  if (w >= 0 && wdWraps(grids[w])) {
    const shape = grids.map((g) => g.length);
    const inner = shape.slice(w + 1).reduce((a, b) => a * b, 1);
    const outer = shape.slice(0, w).reduce((a, b) => a * b, 1);
    const nw = shape[w];
    const out = new Float64Array(outer * (nw + 1) * inner);
    for (let o = 0; o < outer; o++) {
      for (let k = 0; k <= nw; k++) {
        const src = (o * nw + (k === nw ? 0 : k)) * inner;
        out.set(data.subarray(src, src + inner), (o * (nw + 1) + k) * inner);
      }
    }
    const wg = new Float64Array(nw + 1);
    wg.set(grids[w]);
    wg[nw] = 360;
    grids = grids.map((g, i) => (i === w ? wg : g));
    data = out;
  }
  const strides = new Int32Array(dims.length);
  let s = 1;
  for (let i = dims.length - 1; i >= 0; i--) {
    strides[i] = s;
    s *= grids[i].length;
  }
  if (s !== data.length) throw new Error(`site field ${name}: ${data.length} values for a grid of ${s}`);
  return { name, dims: [...dims], coords: grids, values: data, strides };
}

/** The cell of `v` on grid g: lower index and fraction, or null outside [g₀, g_last]. */
function cellOf(g: Float64Array, v: number): { i: number; f: number } | null {
  const n = g.length;
  if (n === 1) return v === g[0] ? { i: 0, f: 0 } : null;
  if (!(v >= g[0] && v <= g[n - 1])) return null;
  // Largest i with g[i] ≤ v, at most n − 2 (the last node is the top of the last cell).
  let lo = 0,
    hi = n - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (g[mid] <= v) lo = mid;
    else hi = mid;
  }
  return { i: lo, f: (v - g[lo]) / (g[lo + 1] - g[lo]) };
}

/**
 * Samples `field` at (x, y, h, wd) into `out` (value, ∂/∂x, ∂/∂y); returns null, or where the
 * point is outside the grid. Dimensions the field lacks are ignored.
 */
export function sampleField(field: SiteField, x: number, y: number, h: number, wd: number, out: FieldSample, limit = false): OutsideGrid | null {
  const { dims, coords, values, strides } = field;
  const d = dims.length;
  const base: number[] = new Array(d),
    frac: number[] = new Array(d),
    span: number[] = new Array(d),
    step: number[] = new Array(d);
  for (let a = 0; a < d; a++) {
    const dim = dims[a];
    const raw = dim === 'x' ? x : dim === 'y' ? y : dim === 'h' ? h : wd;
    const g = coords[a];
    const v = limit ? Math.min(Math.max(raw, g[0]), g[g.length - 1]) : raw;
    const c = cellOf(g, v);
    if (c === null) return { dim, value: raw, min: g[0], max: g[g.length - 1] };
    base[a] = c.i;
    frac[a] = c.f;
    // Moved onto the edge: the value does not change across it (an infinite span: zero derivative).
    span[a] = v !== raw ? Infinity : g.length > 1 ? g[c.i + 1] - g[c.i] : 1;
    step[a] = g.length > 1 ? strides[a] : 0;
  }
  let value = 0,
    gx = 0,
    gy = 0,
    gh = 0;
  const xa = dims.indexOf('x'),
    ya = dims.indexOf('y'),
    ha = dims.indexOf('h');
  const corners = 1 << d;
  for (let m = 0; m < corners; m++) {
    let idx = 0,
      w = 1,
      wx = 1,
      wy = 1,
      wh = 1;
    for (let a = 0; a < d; a++) {
      const up = (m >> (d - 1 - a)) & 1;
      if (up === 1 && step[a] === 0) {
        w = 0;
        wx = 0;
        wy = 0;
        wh = 0;
        break;
      }
      idx += (base[a] + up) * strides[a];
      const f = up ? frac[a] : 1 - frac[a];
      const df = (up ? 1 : -1) / span[a];
      w *= f;
      wx *= a === xa ? df : f;
      wy *= a === ya ? df : f;
      wh *= a === ha ? df : f;
    }
    if (w === 0 && wx === 0 && wy === 0 && wh === 0) continue;
    const v = values[idx];
    value += w * v;
    gx += wx * v;
    gy += wy * v;
    gh += wh * v;
  }
  out.value = value;
  out.dx = xa >= 0 && step[xa] !== 0 ? gx : 0;
  out.dy = ya >= 0 && step[ya] !== 0 ? gy : 0;
  if (out.dh !== undefined) out.dh = ha >= 0 && step[ha] !== 0 ? gh : 0;
  return null;
}

/** Smallest and largest value of a field (bounds every interpolated value). */
export function fieldRange(field: SiteField): { min: number; max: number } {
  let min = Infinity,
    max = -Infinity;
  for (const v of field.values) {
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return { min, max };
}
