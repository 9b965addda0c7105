/**
 * A site that is not uniform: each turbine's local free stream from gridded fields (siteField.ts)
 * and a vertical shear profile, as PyWake's `XRSite` computes its local wind
 * (py_wake/site/xrsite.py `_local_wind`):
 *
 *   U_p   = U · s(x_p, y_p, h_p, wd) · f_shear(h_p)     s: the `speedup` field (1 without one)
 *   TI₀_p = T(x_p, y_p, h_p, wd)                          the `ti` field (the rose's TI without one)
 *
 * U is the rose's speed (at the shear's reference height), wd the condition's direction, h_p the
 * turbine's hub height. Shear (py_wake/site/shear.py): power law f = (h/h_ref)^α, log law
 * f = ln(h/z₀)/ln(h_ref/z₀), applied after the speed-up as XRSite does.
 *
 * With a per-point sector Weibull (siteWeibull.ts) each turbine also has its own probability of
 * every condition, from the fields A, k and the sector frequency sampled here like the others.
 */
import { InputError } from '../../util/errors.js';
import { fieldRange, sampleField, type FieldSample, type SiteField } from './siteField.js';
import type { SiteWeibull } from './siteWeibull.js';

export type SiteShear = { kind: 'power'; hRef: number; alpha: number } | { kind: 'log'; hRef: number; z0: number };

export interface Site {
  /** Where the site was defined (a file, or `file (site)`), for messages. */
  readonly source: string;
  readonly speedup: SiteField | null;
  readonly ti: SiteField | null;
  readonly shear: SiteShear | null;
  /** Per-point sector Weibull (siteWeibull.ts): each turbine's own probability of each condition; absent: the rose's. */
  readonly weibull?: SiteWeibull | null;
  /** A turbine outside a field's grid: `error` (PyWake's bounds='check', the default) or `limit` (moved onto the grid's edge, bounds='limit'). */
  readonly outside?: 'error' | 'limit';
}

/** The shear's speed factor at height h. */
export function shearFactor(shear: SiteShear | null, h: number): number {
  if (shear === null) return 1;
  return shear.kind === 'power' ? (h / shear.hRef) ** shear.alpha : Math.log(h / shear.z0) / Math.log(shear.hRef / shear.z0);
}

/** d f_shear/dh at height h (power law α·f/h, log law 1/(h·ln(h_ref/z₀))). */
export function shearSlope(shear: SiteShear | null, h: number): number {
  if (shear === null) return 0;
  return shear.kind === 'power' ? (shear.alpha * (h / shear.hRef) ** shear.alpha) / h : 1 / (h * Math.log(shear.hRef / shear.z0));
}

/** Whether a turbine's free stream on the site changes with its hub height (a shear, or a field over h). */
export function siteDependsOnHeight(site: Site): boolean {
  return site.shear !== null || (site.speedup?.dims.includes('h') ?? false) || (site.ti?.dims.includes('h') ?? false);
}

/** The largest ambient TI the site can give (0 without a TI field). */
export function siteTiMax(site: Site): number {
  return site.ti ? fieldRange(site.ti).max : 0;
}

/** The site's values at the turbines for one direction, by downstream position. */
export interface SiteSamples {
  /** Speed factor s·f_shear and its ∂/∂x, ∂/∂y (layout frame) and ∂/∂h (hub height: s_h·f + s·f'). */
  speed: Float64Array;
  speedDx: Float64Array;
  speedDy: Float64Array;
  speedDh: Float64Array;
  /** Ambient TI and its partials (used only with a TI field). */
  ti: Float64Array;
  tiDx: Float64Array;
  tiDy: Float64Array;
  tiDh: Float64Array;
  /** Weibull A, k and sector frequency and their partials (used only with a per-point Weibull). */
  wa: Float64Array;
  waDx: Float64Array;
  waDy: Float64Array;
  wk: Float64Array;
  wkDx: Float64Array;
  wkDy: Float64Array;
  wf: Float64Array;
  wfDx: Float64Array;
  wfDy: Float64Array;
}

export function createSiteSamples(n: number): SiteSamples {
  const f = () => new Float64Array(n);
  return {
    speed: f(),
    speedDx: f(),
    speedDy: f(),
    speedDh: f(),
    ti: f(),
    tiDx: f(),
    tiDy: f(),
    tiDh: f(),
    wa: f(),
    waDx: f(),
    waDy: f(),
    wk: f(),
    wkDx: f(),
    wkDy: f(),
    wf: f(),
    wfDx: f(),
    wfDy: f(),
  };
}

const sample: FieldSample = { value: 0, dx: 0, dy: 0, dh: 0 };

function sampleOrFail(site: Site, field: SiteField, turbine: number, x: number, y: number, h: number, wd: number): void {
  const outside = sampleField(field, x, y, h, wd, sample, site.outside === 'limit');
  if (outside) {
    throw new InputError(
      `${site.source}: site.${field.name}: turbine ${turbine} at x ${x}, y ${y}, hub height ${h} m, wind direction ${wd}° is outside the field's grid: ${outside.dim} = ${outside.value} is not within ${outside.min}…${outside.max} (values outside a grid are not extrapolated; extend the grid or keep the turbines inside it)`,
    );
  }
}

/**
 * Fills `out` for the turbines in downstream order (`order[p]` is the turbine at position p, with
 * coordinates x, y and hub height hubAt[p]) at wind direction wdDeg.
 */
export function sampleSite(
  site: Site,
  x: Float64Array,
  y: Float64Array,
  order: Int32Array,
  hubAt: (p: number) => number,
  wdDeg: number,
  out: SiteSamples,
): void {
  const n = order.length;
  // The shear's factor and slope once per hub height (a farm of one model: once per call).
  let hLast = NaN,
    f = 1,
    fh = 0;
  for (let p = 0; p < n; p++) {
    const i = order[p];
    const h = hubAt(p);
    if (h !== hLast) {
      f = shearFactor(site.shear, h);
      fh = shearSlope(site.shear, h);
      hLast = h;
    }
    if (site.speedup) {
      sampleOrFail(site, site.speedup, i, x[i], y[i], h, wdDeg);
      out.speed[p] = sample.value * f;
      out.speedDx[p] = sample.dx * f;
      out.speedDy[p] = sample.dy * f;
      out.speedDh[p] = sample.dh! * f + sample.value * fh;
    } else {
      out.speed[p] = f;
      out.speedDx[p] = 0;
      out.speedDy[p] = 0;
      out.speedDh[p] = fh;
    }
    if (site.ti) {
      sampleOrFail(site, site.ti, i, x[i], y[i], h, wdDeg);
      out.ti[p] = sample.value;
      out.tiDx[p] = sample.dx;
      out.tiDy[p] = sample.dy;
      out.tiDh[p] = sample.dh!;
    }
    const w = site.weibull;
    if (w) {
      sampleOrFail(site, w.a, i, x[i], y[i], h, wdDeg);
      out.wa[p] = sample.value;
      out.waDx[p] = sample.dx;
      out.waDy[p] = sample.dy;
      sampleOrFail(site, w.k, i, x[i], y[i], h, wdDeg);
      out.wk[p] = sample.value;
      out.wkDx[p] = sample.dx;
      out.wkDy[p] = sample.dy;
      sampleOrFail(site, w.frequency, i, x[i], y[i], h, wdDeg);
      out.wf[p] = sample.value;
      out.wfDx[p] = sample.dx;
      out.wfDy[p] = sample.dy;
    }
  }
}
