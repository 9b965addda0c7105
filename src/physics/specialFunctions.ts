/**
 * Special functions the wake models need, to double precision (JavaScript has none of them):
 * - erf(x): for |x| ≤ 6 the all-positive series erf(x) = (2/√π)·e^(−x²)·Σₙ 2ⁿx^(2n+1)/(1·3···(2n+1))
 *   (Abramowitz & Stegun 7.1.6; no cancellation), ±1 beyond (erfc(6) ≈ 2e-17).
 * - lnGamma / gamma: Lanczos approximation (g = 7, 9 coefficients; relative error ≈ 1e-15).
 * - digamma: recurrence ψ(x) = ψ(x + 1) − 1/x up to x ≥ 12, then the asymptotic series
 *   ψ(x) = ln x − 1/(2x) − Σ B₂ₖ/(2k x^(2k)).
 */
const TWO_OVER_SQRT_PI = 1.1283791670955126;

export function erf(x: number): number {
  const ax = Math.abs(x);
  if (ax > 6) return x > 0 ? 1 : -1;
  const x2 = ax * ax;
  let term = ax,
    sum = ax;
  for (let n = 0; n < 500; n++) {
    term *= (2 * x2) / (2 * n + 3);
    sum += term;
    if (term < 1e-17 * sum) break;
  }
  const v = TWO_OVER_SQRT_PI * Math.exp(-x2) * sum;
  return x < 0 ? -v : v;
}

const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905, -0.13857109526572012,
  9.9843695780195716e-6, 1.5056327351493116e-7,
];

export function gamma(x: number): number {
  if (x < 0.5) return Math.PI / (Math.sin(Math.PI * x) * gamma(1 - x));
  const z = x - 1;
  let a = LANCZOS[0];
  const t = z + 7.5;
  for (let i = 1; i < 9; i++) a += LANCZOS[i] / (z + i);
  return Math.sqrt(2 * Math.PI) * Math.pow(t, z + 0.5) * Math.exp(-t) * a;
}

export function digamma(x: number): number {
  let result = 0;
  while (x < 12) {
    result -= 1 / x;
    x += 1;
  }
  const inv = 1 / x,
    inv2 = inv * inv;
  return result + Math.log(x) - 0.5 * inv - inv2 * (1 / 12 - inv2 * (1 / 120 - inv2 * (1 / 252 - inv2 * (1 / 240 - inv2 * (1 / 132)))));
}

/** Taylor coefficients of asin(z)/z in z² (k = 0…26), as native/simd.h ASIN_C builds them. */
const ASIN_C: number[] = (() => {
  const c = [1];
  for (let k = 1; k <= 26; k++) c.push((c[k - 1] * ((2 * k - 1) * (2 * k - 1))) / (2 * k * (2 * k + 1)));
  return c;
})();

function asinSmall(z: number): number {
  const z2 = z * z;
  let p = ASIN_C[26];
  for (let k = 25; k >= 0; k--) p = p * z2 + ASIN_C[k];
  return z * p;
}

/**
 * acos(x) by the native kernel's own operations (native/simd.h sacos: the asin series on
 * |z| ≤ ½, with acos x = 2 asin √((1 − x)/2) beyond), so that the formulas using it give the same
 * bits in both kernels (rotor/areaOverlap.ts; kernelFormulas.test.ts). Within 2 ulps of Math.acos.
 */
export function acosKernel(x: number): number {
  if (x >= -0.5 && x <= 0.5) return Math.PI / 2 - asinSmall(x);
  if (x > 0.5) return 2 * asinSmall(Math.sqrt((1 - x) * 0.5));
  return Math.PI - 2 * asinSmall(Math.sqrt((1 + x) * 0.5));
}
