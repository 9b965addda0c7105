/**
 * Line search satisfying the strong Wolfe conditions (Nocedal & Wright, Numerical Optimization,
 * 2nd ed., Algorithms 3.5 and 3.6: bracketing, then zoom with cubic interpolation).
 * Deterministic; bounded by `maxEvaluations`.
 */
import type { ObjectiveWithGradient } from './objective.js';

export interface LineSearchResult {
  step: number;
  f: number;
  evaluations: number;
  /** false: no step satisfying the conditions was found (the best point seen is returned). */
  ok: boolean;
}

export interface LineSearchOptions {
  c1?: number;
  c2?: number;
  maxEvaluations?: number;
  maxStep?: number;
}

/**
 * Search along `direction` from x0 (value f0, directional derivative g0 < 0). On return `xOut`
 * and `gradOut` hold the accepted point and its gradient.
 */
export function wolfeLineSearch(
  fg: ObjectiveWithGradient,
  x0: Float64Array,
  f0: number,
  g0: number,
  direction: Float64Array,
  initialStep: number,
  xOut: Float64Array,
  gradOut: Float64Array,
  opts: LineSearchOptions = {},
): LineSearchResult {
  const c1 = opts.c1 ?? 1e-4,
    c2 = opts.c2 ?? 0.9;
  const maxEvaluations = opts.maxEvaluations ?? 25;
  const maxStep = opts.maxStep ?? 1e10;
  const n = x0.length;
  let evaluations = 0;

  const evalAt = (step: number): [number, number] => {
    for (let i = 0; i < n; i++) xOut[i] = x0[i] + step * direction[i];
    const f = fg(xOut, gradOut);
    evaluations++;
    let d = 0;
    for (let i = 0; i < n; i++) d += gradOut[i] * direction[i];
    return [f, d];
  };
  // Best point seen, to fall back to (the caller's arrays get it back at the end).
  let bestStep = 0,
    bestF = f0;
  const remember = (step: number, f: number) => {
    if (f < bestF) {
      bestF = f;
      bestStep = step;
    }
  };
  const finish = (step: number, f: number, ok: boolean): LineSearchResult => {
    if (!ok && bestStep !== step) {
      if (bestStep === 0) {
        for (let i = 0; i < n; i++) xOut[i] = x0[i];
        fg(xOut, gradOut);
        evaluations++;
        return { step: 0, f: f0, evaluations, ok: false };
      }
      const [fb] = evalAt(bestStep);
      return { step: bestStep, f: fb, evaluations, ok: false };
    }
    return { step, f, evaluations, ok };
  };

  const zoom = (lo: number, fLo: number, dLo: number, hi: number, fHi: number, dHi: number): LineSearchResult => {
    while (evaluations < maxEvaluations) {
      let step = cubicMinimizer(lo, fLo, dLo, hi, fHi, dHi);
      const left = Math.min(lo, hi),
        right = Math.max(lo, hi),
        width = right - left;
      if (!(step > left + 0.1 * width && step < right - 0.1 * width)) step = 0.5 * (lo + hi);
      const [f, d] = evalAt(step);
      remember(step, f);
      if (f > f0 + c1 * step * g0 || f >= fLo) {
        hi = step;
        fHi = f;
        dHi = d;
      } else {
        if (Math.abs(d) <= -c2 * g0) return { step, f, evaluations, ok: true };
        if (d * (hi - lo) >= 0) {
          hi = lo;
          fHi = fLo;
          dHi = dLo;
        }
        lo = step;
        fLo = f;
        dLo = d;
      }
      if (Math.abs(hi - lo) < 1e-14 * Math.max(1, Math.abs(lo))) break;
    }
    return finish(lo, fLo, false);
  };

  let prev = 0,
    fPrev = f0,
    dPrev = g0;
  let step = Math.min(initialStep, maxStep);
  for (let iter = 0; evaluations < maxEvaluations; iter++) {
    const [f, d] = evalAt(step);
    remember(step, f);
    if (!Number.isFinite(f)) {
      step = 0.5 * (prev + step);
      continue;
    }
    if (f > f0 + c1 * step * g0 || (iter > 0 && f >= fPrev)) return zoom(prev, fPrev, dPrev, step, f, d);
    if (Math.abs(d) <= -c2 * g0) return { step, f, evaluations, ok: true };
    if (d >= 0) return zoom(step, f, d, prev, fPrev, dPrev);
    prev = step;
    fPrev = f;
    dPrev = d;
    if (step >= maxStep) break;
    step = Math.min(step * 2.5, maxStep);
  }
  return finish(prev, fPrev, false);
}

/** Minimizer of the cubic through (a, fa, da), (b, fb, db); NaN when it does not exist. */
function cubicMinimizer(a: number, fa: number, da: number, b: number, fb: number, db: number): number {
  const d1 = da + db - (3 * (fa - fb)) / (a - b);
  const disc = d1 * d1 - da * db;
  if (!(disc >= 0)) return NaN;
  const d2 = Math.sign(b - a) * Math.sqrt(disc);
  return b - ((b - a) * (db + d2 - d1)) / (db - da + 2 * d2);
}
