/**
 * Per-point sector Weibull of a site (WAsP resource grids, PyWake's XRSite with `Weibull_A`,
 * `Weibull_k`, `Sector_frequency`): each turbine's own probability of every (direction, speed)
 * condition, as py_wake/site/xrsite.py `_local_wind` forms P_ilk when the dataset has no `P`:
 *
 *   P_p(wd, U) = f_p(wd) / w_s · w_d · ( F(U_hi; A_p, k_p) − F(U_lo; A_p, k_p) ),   F(u) = 1 − exp(−(u/A)^k)
 *
 * f_p, A_p, k_p: the three fields interpolated at the turbine (x, y[, h]) and the condition's
 * direction exactly as the other site fields (siteField.ts: multilinear, wd wrap); w_s the sector
 * width of the fields' wd grid (360 with one value or none: PyWake's ds.sector_width); w_d the
 * direction bin of the case's directions (their equal step, else 360/count: PyWake's
 * `wd_bin_size`); [U_lo, U_hi] the speed bin of U among the case's speeds (midpoints between
 * speeds, the first bin's lower edge U₀ − d₀ clipped at 0, the last bin's upper edge U_n + d_n, with
 * d the half-steps; one speed: U ± 0.5; PyWake's `set_W` with XRSite's use_WS_bins = False, so the
 * bins are of the rose's speeds, not of the speed-up ones). The AEP of turbine p weights its power in
 * each condition by its own P_p (PyWake's `aep_ilk = P_ilk · power_ilk`).
 *
 * The gradient: ∂P_p/∂x = ∂P/∂f·∂f/∂x + ∂P/∂A·∂A/∂x + ∂P/∂k·∂k/∂x, with ∂e/∂A = e·t·k/A and
 * ∂e/∂k = −e·t·ln(u/A) for e = exp(−t), t = (u/A)^k (0 at u = 0).
 */
import type { SiteField } from './siteField.js';

export interface SiteWeibull {
  readonly a: SiteField;
  readonly k: SiteField;
  readonly frequency: SiteField;
  /** Degrees: the fields' wd step, 360 for one wd value or none (PyWake's ds.sector_width). */
  readonly sectorWidth: number;
}

/** Speed bins of a rose's speeds (PyWake's set_W without ws_bins) and the direction bin. */
export interface WeibullBins {
  lower: Float64Array;
  upper: Float64Array;
  wdBin: number;
}

export function weibullBins(speeds: ArrayLike<number>, directionsDeg: ArrayLike<number>): WeibullBins {
  const n = speeds.length;
  const lower = new Float64Array(n),
    upper = new Float64Array(n);
  if (n === 1) {
    lower[0] = speeds[0] - 0.5;
    upper[0] = speeds[0] + 0.5;
  } else {
    // PyWake's edges: e₀ = U₀ − d₀, e_i = U_{i−1} + d_{i−1}, e_n = U_{n−1} + d_{n−2} (d the half-steps), clipped at 0.
    const half = (i: number): number => (speeds[i + 1] - speeds[i]) / 2;
    for (let i = 0; i < n; i++) {
      lower[i] = Math.max(i === 0 ? speeds[0] - half(0) : speeds[i - 1] + half(i - 1), 0);
      upper[i] = Math.max(i === n - 1 ? speeds[n - 1] + half(n - 2) : speeds[i] + half(i), 0);
    }
  }
  const m = directionsDeg.length;
  let equal = m > 1;
  for (let i = 2; i < m && equal; i++) if (directionsDeg[i] - directionsDeg[i - 1] !== directionsDeg[1] - directionsDeg[0]) equal = false;
  return { lower, upper, wdBin: equal ? directionsDeg[1] - directionsDeg[0] : 360 / Math.max(m, 1) };
}

/** exp(−(u/A)^k) and its partials with respect to A and k. */
function survival(u: number, a: number, k: number, out: { e: number; dA: number; dK: number }): void {
  if (u <= 0) {
    out.e = 1;
    out.dA = 0;
    out.dK = 0;
    return;
  }
  const r = u / a;
  const t = r ** k;
  const e = Math.exp(-t);
  out.e = e;
  out.dA = (e * t * k) / a;
  out.dK = -e * t * Math.log(r);
}

const lo = { e: 0, dA: 0, dK: 0 },
  hi = { e: 0, dA: 0, dK: 0 };

/**
 * P for one turbine from its interpolated f, A, k (and their ∂/∂x, ∂/∂y): returns P, writes
 * ∂P/∂x, ∂P/∂y into d[0], d[1].
 */
export function weibullProbability(
  f: number,
  fx: number,
  fy: number,
  a: number,
  ax: number,
  ay: number,
  k: number,
  kx: number,
  ky: number,
  uLo: number,
  uHi: number,
  scale: number,
  d: Float64Array,
): number {
  survival(uLo, a, k, lo);
  survival(uHi, a, k, hi);
  const mass = lo.e - hi.e;
  const c = scale * f;
  const pf = scale * mass,
    pa = c * (lo.dA - hi.dA),
    pk = c * (lo.dK - hi.dK);
  d[0] = pf * fx + pa * ax + pk * kx;
  d[1] = pf * fy + pa * ay + pk * ky;
  return c * mass;
}
