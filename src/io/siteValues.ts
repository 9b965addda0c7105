/**
 * What a site field's grid and values must be (io/siteFields.ts for inline blocks, io/siteFile.ts
 * for netCDF files): grids strictly ascending, directions in degrees with equal sectors (as
 * PyWake's XRSite requires), heights ≥ 0; speed-ups in (0, 10], TI a fraction in [0, 1).
 */
import type { SiteDim } from '../physics/site/siteField.js';

/** The range each field's values must lie in, and why. */
export const VALUE_RANGE: Record<string, { min: number; max: number; what: string }> = {
  speedup: { min: 0, max: 10, what: 'a speed-up factor (1 = the rose speed), > 0 and ≤ 10' },
  ti: { min: 0, max: 1, what: 'a turbulence intensity as a fraction (0.1 = 10 %), in [0, 1)' },
};

/** What a grid axis must be: strictly ascending, in range. A problem message, or null. */
export function axisProblem(dim: SiteDim, values: ArrayLike<number>): { index: number; message: string } | null {
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (!Number.isFinite(v)) return { index: i, message: `${v} is not a finite number` };
    if (dim === 'wd' && !(v >= 0 && v <= 360)) return { index: i, message: `${v} is not a wind direction in degrees within [0, 360]` };
    if (dim === 'h' && !(v >= 0)) return { index: i, message: `${v} is not a height in metres (≥ 0)` };
    if (i > 0 && !(v > values[i - 1])) return { index: i, message: `${v} does not follow ${values[i - 1]}: a grid must be strictly ascending` };
  }
  if (dim === 'wd' && values.length > 1) {
    const w = values[1] - values[0];
    for (let i = 2; i < values.length; i++) {
      if (Math.abs(values[i] - values[i - 1] - w) > 1e-9 * 360)
        return { index: i, message: `wind-direction sectors must be equally wide (as PyWake's XRSite): ${values[i] - values[i - 1]}° after ${w}°` };
    }
  }
  return null;
}

/** A value problem (out of range) of field `name`, or null. */
export function valueProblem(name: string, v: number): string | null {
  const r = VALUE_RANGE[name];
  if (typeof v !== 'number') return `${v} is not a finite number`;
  // NaN and ±inf fail every range below: the message names what the value should have been.
  if (name === 'ti') {
    if (v >= 1 && v <= 100) return `${v} is not ${r.what}; a TI in percent? write ${v / 100}`;
    return v >= 0 && v < 1 ? null : `${v} is not ${r.what}`;
  }
  return v > r.min && v <= r.max ? null : `${v} is not ${r.what}`;
}
