/**
 * Deterministic pseudo-random numbers: the same seed gives the same stream on every machine.
 * SplitMix64 seeds a xoshiro128** generator; all arithmetic is 32-bit integer (Math.imul), so
 * there is no platform-dependent floating point in the stream itself.
 */
export interface Rng {
  /** Uniform in [0, 1), 53-bit resolution is not needed; 32 bits are used. */
  next(): number;
  /** Uniform in [lo, hi). */
  uniform(lo: number, hi: number): number;
  /** Integer in [0, n). */
  int(n: number): number;
  /** Standard normal (Box-Muller; deterministic). */
  normal(): number;
}

function splitmix32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x9e3779b9) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
}

/** Create a generator from any integer seed (negative and > 2^32 seeds are folded in). */
export function createRng(seed: number): Rng {
  if (!Number.isFinite(seed)) throw new Error(`seed must be a finite number, got ${seed}`);
  const hi = Math.floor(seed / 4294967296) >>> 0;
  const mix = splitmix32((seed >>> 0) ^ Math.imul(hi, 0x27d4eb2d));
  let a = mix(),
    b = mix(),
    c = mix(),
    d = mix();
  if ((a | b | c | d) === 0) a = 1;
  const nextU32 = (): number => {
    const result = Math.imul(rotl(Math.imul(b, 5), 7), 9) >>> 0;
    const t = b << 9;
    c ^= a;
    d ^= b;
    b ^= c;
    a ^= d;
    c ^= t;
    d = rotl(d, 11);
    return result;
  };
  let spareNormal: number | null = null;
  const rng: Rng = {
    next: () => nextU32() / 4294967296,
    uniform: (lo, hi2) => lo + (hi2 - lo) * (nextU32() / 4294967296),
    int: (n) => Math.floor((nextU32() / 4294967296) * n),
    normal: () => {
      if (spareNormal !== null) {
        const s = spareNormal;
        spareNormal = null;
        return s;
      }
      let u = 0;
      while (u === 0) u = nextU32() / 4294967296;
      const v = nextU32() / 4294967296;
      const r = Math.sqrt(-2 * Math.log(u));
      spareNormal = r * Math.sin(2 * Math.PI * v);
      return r * Math.cos(2 * Math.PI * v);
    },
  };
  return rng;
}

function rotl(x: number, k: number): number {
  return ((x << k) | (x >>> (32 - k))) >>> 0;
}
