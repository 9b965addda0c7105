/**
 * Discounting of yearly cash flows: present value (NPV), the annuity factor, and the internal rate
 * of return (IRR). Year 0 is undiscounted, year t is divided by (1 + r)^t — the convention of
 * numpy_financial.npv/irr, which TOPFARM's DTU cost model uses.
 */

/** Σ_t flows[t] / (1 + rate)^t, t = 0 … flows.length − 1. */
export function presentValue(rate: number, flows: ArrayLike<number>): number {
  const v = 1 / (1 + rate);
  let f = 1;
  let s = 0;
  for (let t = 0; t < flows.length; t++) {
    s += flows[t] * f;
    f *= v;
  }
  return s;
}

/** Σ_{t=1}^{years} (1 + rate)^−t: the present value of 1 per year paid at the end of years 1 … years. */
export function annuityFactor(rate: number, years: number): number {
  const v = 1 / (1 + rate);
  let f = v;
  let s = 0;
  for (let t = 1; t <= years; t++) {
    s += f;
    f *= v;
  }
  return s;
}

/** P(x) = Σ_t flows[t] x^t (x = 1/(1 + rate)), by Horner. */
function poly(flows: ArrayLike<number>, x: number): number {
  let p = 0;
  for (let t = flows.length - 1; t >= 0; t--) p = p * x + flows[t];
  return p;
}

/** The root of P in (lo, hi) where P(lo), P(hi) have opposite signs, by bisection to the last bit. */
function bisect(flows: ArrayLike<number>, lo: number, hi: number): number {
  let plo = poly(flows, lo);
  for (let k = 0; k < 2000; k++) {
    const mid = 0.5 * (lo + hi);
    if (mid <= lo || mid >= hi) break;
    const pm = poly(flows, mid);
    if (pm === 0) return mid;
    if (pm < 0 === plo < 0) {
      lo = mid;
      plo = pm;
    } else hi = mid;
  }
  // The closer end of the final bracket.
  return Math.abs(poly(flows, lo)) <= Math.abs(poly(flows, hi)) ? lo : hi;
}

/**
 * Internal rate of return: the rate r > −1 with Σ_t flows[t] (1 + r)^−t = 0, as numpy_financial.irr
 * defines it — among several, the one closest to zero; NaN when there is none.
 *
 * The roots are those of P(x) = Σ flows[t] x^t for x = 1/(1 + r) > 0. With one sign change in the
 * flows (an investment, then returns: the usual project) Descartes' rule gives exactly one
 * positive root, found by bisection to the last bit. With more sign changes the positive axis is
 * scanned (4000 points, geometrically spaced over the roots' Cauchy bound) for sign changes of P and
 * each is bisected; a pair of roots closer together than the scan's spacing can then be missed.
 */
export function internalRateOfReturn(flows: ArrayLike<number>): number {
  // Drop trailing zero coefficients (they do not change the positive roots).
  let n = flows.length;
  while (n > 0 && flows[n - 1] === 0) n--;
  let first = 0;
  while (first < n && flows[first] === 0) first++;
  if (n - first < 2) return NaN;
  const a = Array.from({ length: n - first }, (_, t) => flows[first + t]);
  let changes = 0;
  for (let t = 1, s = Math.sign(a[0]); t < a.length; t++) {
    const st = Math.sign(a[t]);
    if (st !== 0 && st !== s) {
      changes++;
      s = st;
    }
  }
  if (changes === 0) return NaN;
  const lead = Math.abs(a[a.length - 1]);
  let bound = 0;
  for (let t = 0; t < a.length - 1; t++) bound = Math.max(bound, Math.abs(a[t]) / lead);
  bound += 1; // Cauchy: every root has |x| < 1 + max |a_t / a_n|.
  const roots: number[] = [];
  if (changes === 1) {
    roots.push(bisect(a, 0, bound));
  } else {
    const m = 4000;
    const lo = bound * 1e-12;
    let xPrev = lo;
    let pPrev = poly(a, xPrev);
    for (let k = 1; k <= m; k++) {
      const x = lo * Math.pow(bound / lo, k / m);
      const p = poly(a, x);
      if (p === 0) roots.push(x);
      else if (pPrev !== 0 && p < 0 !== pPrev < 0) roots.push(bisect(a, xPrev, x));
      xPrev = x;
      pPrev = p;
    }
  }
  let best = NaN;
  for (const x of roots) {
    const r = 1 / x - 1;
    if (Number.isNaN(best) || Math.abs(r) < Math.abs(best)) best = r;
  }
  return best;
}
