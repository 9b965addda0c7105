/**
 * A per-point sector Weibull grid as every site reader gives it (inline `site.weibull`, netCDF
 * `Weibull_A`/`Weibull_k`/`Sector_frequency`, WAsP `.wrg`, windIO's gridded `wind_resource`):
 * one grid over x, y[, h][, wd] (row-major, wd fastest), A, k and the sector frequency on it,
 * validated, and the physics' SiteWeibull (physics/site/siteWeibull.ts) made from it.
 *
 * What is checked: A in (0, 100] m/s, k in (0, 20], frequencies in [0, 1] and, at every point
 * (x, y[, h]), summing over the sectors to 1 within max(0.01, sectors × 0.0005) (the rounding of a
 * `.wrg` file's per-mille integers); without wd the one "sector" is the whole circle (frequency 1).
 * Frequencies are not renormalised (PyWake's XRSite uses them as given).
 */
import { makeSiteField, type SiteDim } from '../physics/site/siteField.js';
import type { SiteWeibull } from '../physics/site/siteWeibull.js';

export interface WeibullGrid {
  dims: readonly SiteDim[];
  coords: readonly Float64Array[];
  a: Float64Array;
  k: Float64Array;
  frequency: Float64Array;
}

export type WeibullVariable = 'A' | 'k' | 'frequency';

/** A problem of one value of the grid: which variable, its flat index (row-major over dims), what is wrong. */
export interface WeibullProblem {
  variable: WeibullVariable;
  index: number;
  message: string;
}

/** What one value must be (null when it is fine). */
export function weibullValueProblem(variable: WeibullVariable, v: number): string | null {
  if (typeof v !== 'number') return `${v} is not a finite number`;
  // NaN and ±inf fail every range below: the message names what the value should have been.
  if (variable === 'A') return v > 0 && v <= 100 ? null : `${v} is not a Weibull scale A in m/s, > 0 and ≤ 100`;
  if (variable === 'k') return v > 0 && v <= 20 ? null : `${v} is not a Weibull shape k, > 0 and ≤ 20`;
  if (v > 1 && v <= 1000) return `${v} is not a sector frequency as a fraction in [0, 1]; in percent or per mille? divide by 100 or 1000`;
  return v >= 0 && v <= 1 ? null : `${v} is not a sector frequency as a fraction in [0, 1]`;
}

/** The first problem of the grid's values, or null. */
export function weibullGridProblem(g: WeibullGrid): WeibullProblem | null {
  for (const [variable, values] of [
    ['A', g.a],
    ['k', g.k],
    ['frequency', g.frequency],
  ] as const) {
    for (let i = 0; i < values.length; i++) {
      const p = weibullValueProblem(variable, values[i]);
      if (p) return { variable, index: i, message: p };
    }
  }
  const w = g.dims.indexOf('wd');
  const nw = w >= 0 ? g.coords[w].length : 1;
  const tol = Math.max(0.01, nw * 0.0005);
  // wd is the last dimension when present: the sectors of a point are consecutive.
  for (let start = 0; start < g.frequency.length; start += nw) {
    let sum = 0;
    for (let j = 0; j < nw; j++) sum += g.frequency[start + j];
    if (Math.abs(sum - 1) > tol) {
      return {
        variable: 'frequency',
        index: start,
        message: `the sector frequencies of this point (${nw} sector${nw === 1 ? '' : 's'} from this value on) sum to ${sum}, not 1 (within ${tol})`,
      };
    }
  }
  return null;
}

/** The grid's multi-index of flat index i, as `[i0][i1]…` (for messages). */
export function gridIndex(g: WeibullGrid, i: number): string {
  const out: number[] = [];
  let rest = i;
  for (let a = g.dims.length - 1; a >= 0; a--) {
    const n = g.coords[a].length;
    out.unshift(rest % n);
    rest = Math.floor(rest / n);
  }
  return out.map((v) => `[${v}]`).join('');
}

/** The physics' Weibull of a validated grid (the wd wrap node added as for the other fields). */
export function siteWeibullOf(g: WeibullGrid): SiteWeibull {
  const w = g.dims.indexOf('wd');
  const wd = w >= 0 ? g.coords[w] : null;
  const sectorWidth = wd !== null && wd.length > 1 ? wd[1] - wd[0] : 360;
  return {
    a: makeSiteField('weibull.A', g.dims, g.coords, g.a),
    k: makeSiteField('weibull.k', g.dims, g.coords, g.k),
    frequency: makeSiteField('weibull.frequency', g.dims, g.coords, g.frequency),
    sectorWidth,
  };
}
