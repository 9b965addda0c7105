// Four-lane double vectors for the wake kernels, and the kernels' own exp, log, pow and acos.
//
// Determinism: every kernel is written against one logical width of 4 lanes (GCC vector
// extensions). Compiled for baseline x86-64 a vector is two SSE2 registers, compiled with AVX2
// one register; each lane goes through the same IEEE-754 operations in the same order either
// way (+, −, ×, ÷ and √ are correctly rounded; no FMA: -ffp-contract=off, no -ffast-math), and
// reductions across lanes are written out in a fixed order. The transcendental functions below
// use only those operations and bit manipulation, so a result does not depend on the processor,
// the C library or the compiler's choice of instructions.
//
// This header is included by each instruction-set translation unit inside its own namespace;
// it defines no symbol with external linkage.
#pragma once
#include <stdint.h>
#include <string.h>
#include <immintrin.h>

typedef double v4d __attribute__((vector_size(32)));
typedef long long v4i __attribute__((vector_size(32)));
typedef unsigned long long v4u __attribute__((vector_size(32)));
// Eight lanes: two AVX2 registers or four SSE2 registers, so that each operation has independent
// work in flight (the waked kernel's lanes are speeds and never mix, so the width changes no bit).
typedef double v8d __attribute__((vector_size(64)));
typedef long long v8i __attribute__((vector_size(64)));
typedef unsigned long long v8u __attribute__((vector_size(64)));

#define WFLO_INLINE static inline __attribute__((always_inline))

template <class V> struct Lanes;
template <> struct Lanes<v4d> { typedef v4i I; typedef v4u U; enum { N = 4 }; };
template <> struct Lanes<v8d> { typedef v8i I; typedef v8u U; enum { N = 8 }; };

template <class V = v4d> WFLO_INLINE V splat(double a) { V r; for (int i = 0; i < Lanes<V>::N; i++) r[i] = a; return r; }
template <class V = v4d> WFLO_INLINE V loadv(const double* p) { V r; memcpy(&r, p, sizeof r); return r; }
WFLO_INLINE v4d load4(const double* p) { return loadv<v4d>(p); }
template <class V> WFLO_INLINE void storev(double* p, V a) { memcpy(p, &a, sizeof a); }
WFLO_INLINE void store4(double* p, v4d a) { storev(p, a); }
template <class V, class M> WFLO_INLINE V sel(M m, V a, V b) { return m ? a : b; }
template <class V> WFLO_INLINE V vmax(V a, V b) { return a > b ? a : b; }
template <class V> WFLO_INLINE V vmin(V a, V b) { return a < b ? a : b; }
template <class V> WFLO_INLINE V asDouble(typename Lanes<V>::I a) { V r; memcpy(&r, &a, sizeof r); return r; }
template <class V> WFLO_INLINE typename Lanes<V>::I asInt(V a) { typename Lanes<V>::I r; memcpy(&r, &a, sizeof r); return r; }

WFLO_INLINE v4d vsqrt(v4d a) {
#ifdef __AVX__
  __m256d r = _mm256_sqrt_pd((__m256d)a);
  return (v4d)r;
#else
  __m128d lo = _mm_set_pd(a[1], a[0]), hi = _mm_set_pd(a[3], a[2]);
  lo = _mm_sqrt_pd(lo);
  hi = _mm_sqrt_pd(hi);
  double t[4];
  _mm_storeu_pd(t, lo);
  _mm_storeu_pd(t + 2, hi);
  return load4(t);
#endif
}

WFLO_INLINE v8d vsqrt(v8d a) {
  double t[8];
  memcpy(t, &a, sizeof t);
  v4d lo = vsqrt(load4(t)), hi = vsqrt(load4(t + 4));
  store4(t, lo);
  store4(t + 4, hi);
  return loadv<v8d>(t);
}

// Bit l set where lane l of a mask is true (all-ones lanes from a comparison).
WFLO_INLINE int maskBits(v4i m) {
#ifdef __AVX__
  return _mm256_movemask_pd((__m256d)m);
#else
  __m128d h[2];
  memcpy(h, &m, sizeof h);
  return _mm_movemask_pd(h[0]) | (_mm_movemask_pd(h[1]) << 2);
#endif
}

// Stores the lanes of a set in bits (bit l: lane l) to p, packed in lane order; writes p[0..3]
// (the lanes past the packed ones are unspecified). Moves bits only: no value changes.
#ifdef __AVX2__
struct CompressTable {
  int32_t perm[16][8];
  constexpr CompressTable() : perm() {
    for (int b = 0; b < 16; b++) {
      int w = 0;
      for (int l = 0; l < 4; l++) if (b & (1 << l)) { perm[b][2 * w] = 2 * l; perm[b][2 * w + 1] = 2 * l + 1; w++; }
      for (; w < 4; w++) { perm[b][2 * w] = 0; perm[b][2 * w + 1] = 1; }
    }
  }
};
static constexpr CompressTable COMPRESS{};
WFLO_INLINE void compressStore(double* p, v4d a, int bits) {
  __m256i perm = _mm256_loadu_si256((const __m256i*)COMPRESS.perm[bits]);
  _mm256_storeu_ps((float*)p, _mm256_permutevar8x32_ps((__m256)a, perm));
}
#else
WFLO_INLINE void compressStore(double* p, v4d a, int bits) {
  int w = 0;
  for (int l = 0; l < 4; l++) { p[w] = a[l]; w += (bits >> l) & 1; }
}
#endif

// exp: x = n·ln2 + r, |r| ≤ ln2/2, n = x/ln2 rounded to nearest (the 1.5·2⁵² shifter), r with ln2
// split in a 32-bit head (n·LN2_HI exact) and a tail; e^r by its Taylor series to degree 13
// (truncation below 5e-18 relative), 2ⁿ built in the exponent field. Valid for |x| ≤ 700.
static const double SHIFTER = 6755399441055744.0;  // 1.5·2⁵²
static const double LOG2E = 1.4426950408889634;
static const double LN2_HI = 6.93147180369123816490e-01;
static const double LN2_LO = 1.90821492927058770002e-10;
static const double INV_FACT[14] = {
  1.0, 1.0, 1.0 / 2, 1.0 / 6, 1.0 / 24, 1.0 / 120, 1.0 / 720, 1.0 / 5040, 1.0 / 40320, 1.0 / 362880,
  1.0 / 3628800, 1.0 / 39916800, 1.0 / 479001600, 1.0 / 6227020800.0,
};

// e^r by Estrin's scheme (short dependency chains); the same operations in every lane.
template <class V> WFLO_INLINE V expPolynomial(V r) {
  const double* c = INV_FACT;
  V r2 = r * r, r4 = r2 * r2, r8 = r4 * r4;
  V q0 = c[0] + c[1] * r, q1 = c[2] + c[3] * r, q2 = c[4] + c[5] * r, q3 = c[6] + c[7] * r;
  V q4 = c[8] + c[9] * r, q5 = c[10] + c[11] * r, q6 = c[12] + c[13] * r;
  V s0 = q0 + q1 * r2, s1 = q2 + q3 * r2, s2 = q4 + q5 * r2;
  V t0 = s0 + s1 * r4, t1 = s2 + q6 * r4;
  return t0 + t1 * r8;
}

template <class V> WFLO_INLINE V vexp(V x) {
  typedef typename Lanes<V>::U U;
  typedef typename Lanes<V>::I I;
  V t = x * LOG2E + SHIFTER;
  V n = t - SHIFTER;
  V r = (x - n * LN2_HI) - n * LN2_LO;
  V p = expPolynomial(r);
  U bits = ((U)asInt<V>(t) + 1023ull) << 52;
  return p * asDouble<V>((I)bits);
}

WFLO_INLINE double sexp(double x) {
  double t = x * LOG2E + SHIFTER;
  double n = t - SHIFTER;
  double r = (x - n * LN2_HI) - n * LN2_LO;
  double p = expPolynomial(r);
  int64_t bits;
  memcpy(&bits, &t, sizeof bits);
  bits = (int64_t)(((uint64_t)bits + 1023u) << 52);
  double scale;
  memcpy(&scale, &bits, sizeof scale);
  return p * scale;
}

// log for positive normal x: x = 2ᵉ·m with m in [√½, √2), log m = 2 atanh(s), s = (m − 1)/(m + 1),
// |s| ≤ 0.1716, series to s²³ (truncation below 1e-19 relative).
static const double SQRT2 = 1.4142135623730951;
static const double TWO52 = 4503599627370496.0;
static const double INV_ODD[12] = {
  1.0, 1.0 / 3, 1.0 / 5, 1.0 / 7, 1.0 / 9, 1.0 / 11, 1.0 / 13, 1.0 / 15, 1.0 / 17, 1.0 / 19, 1.0 / 21, 1.0 / 23,
};

template <class V> WFLO_INLINE V vlog(V x) {
  typedef typename Lanes<V>::U U;
  typedef typename Lanes<V>::I I;
  U bits = (U)asInt<V>(x);
  U ebits = bits >> 52;
  V e = asDouble<V>((I)(ebits | 0x4330000000000000ull)) - (TWO52 + 1023.0);
  V m = asDouble<V>((I)((bits & 0x000fffffffffffffull) | 0x3ff0000000000000ull));
  auto big = m > SQRT2;
  m = sel(big, m * 0.5, m);
  e = sel(big, e + 1.0, e);
  V s = (m - 1.0) / (m + 1.0);
  V s2 = s * s;
  V p = splat<V>(INV_ODD[11]);
#pragma GCC unroll 16
  for (int k = 10; k >= 0; k--) p = p * s2 + INV_ODD[k];
  return e * LN2_HI + (2.0 * s * p + e * LN2_LO);
}

WFLO_INLINE double slog(double x) {
  uint64_t bits;
  memcpy(&bits, &x, sizeof bits);
  uint64_t ebits = (bits >> 52) | 0x4330000000000000ull;
  double e;
  memcpy(&e, &ebits, sizeof e);
  e -= TWO52 + 1023.0;
  uint64_t mbits = (bits & 0x000fffffffffffffull) | 0x3ff0000000000000ull;
  double m;
  memcpy(&m, &mbits, sizeof m);
  if (m > SQRT2) { m *= 0.5; e += 1.0; }
  double s = (m - 1.0) / (m + 1.0);
  double s2 = s * s;
  double p = INV_ODD[11];
  for (int k = 10; k >= 0; k--) p = p * s2 + INV_ODD[k];
  return e * LN2_HI + (2.0 * s * p + e * LN2_LO);
}

/** x^y for x > 0 (exp(y·log x)). */
WFLO_INLINE double spow(double x, double y) { return sexp(y * slog(x)); }

// asin on |z| ≤ ½ by its Taylor series (terms (2k)!/(4ᵏ(k!)²(2k+1)) z^(2k+1), to k = 26, below
// 1e-18), and acos from it: π/2 − asin x for |x| ≤ ½, 2 asin √((1 − x)/2) above, π − that below.
static const double HALF_PI = 1.5707963267948966;
static const double PI = 3.141592653589793;

struct AsinCoefficients {
  double c[27];
  constexpr AsinCoefficients() : c() {
    c[0] = 1.0;
    for (int k = 1; k <= 26; k++) c[k] = c[k - 1] * ((2.0 * k - 1) * (2.0 * k - 1)) / ((2.0 * k) * (2.0 * k + 1));
  }
};
static constexpr AsinCoefficients ASIN_C{};

WFLO_INLINE double sasinSmall(double z) {
  double z2 = z * z;
  double p = ASIN_C.c[26];
  for (int k = 25; k >= 0; k--) p = p * z2 + ASIN_C.c[k];
  return z * p;
}

WFLO_INLINE double sacos(double x) {
  if (x >= -0.5 && x <= 0.5) return HALF_PI - sasinSmall(x);
  if (x > 0.5) return 2.0 * sasinSmall(__builtin_sqrt((1.0 - x) * 0.5));
  return PI - 2.0 * sasinSmall(__builtin_sqrt((1.0 + x) * 0.5));
}
