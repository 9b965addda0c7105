/**
 * Limited-memory BFGS for smooth unconstrained minimization (Nocedal & Wright, Algorithm 7.4, the
 * two-loop recursion), with the strong-Wolfe line search. Stops on iteration and evaluation
 * counts and on gradient/step/function tolerances, never on time.
 */
import type { ObjectiveWithGradient } from './objective.js';
import { wolfeLineSearch } from './lineSearch.js';

export interface LbfgsOptions {
  memory?: number;
  maxIterations?: number;
  maxEvaluations?: number;
  /** Stop when ‖∇f‖∞ ≤ gradientTolerance. */
  gradientTolerance?: number;
  /** Stop when the relative decrease of f over an iteration is below this. */
  functionTolerance?: number;
  /** Stop when max |step| ≤ stepTolerance. */
  stepTolerance?: number;
  /** Largest step length along the first (steepest-descent) direction, in x units. */
  initialStepLength?: number;
  /** Called after each accepted step with the new point, its value and the iteration's number (from 1); observes only. */
  onIteration?: (x: Float64Array, f: number, iteration: number) => void;
}

export interface LbfgsResult {
  x: Float64Array;
  f: number;
  iterations: number;
  evaluations: number;
  reason: 'gradient' | 'function' | 'step' | 'iterations' | 'evaluations' | 'line-search';
}

export function lbfgs(fg: ObjectiveWithGradient, x0: Float64Array, opts: LbfgsOptions = {}): LbfgsResult {
  const n = x0.length;
  const m = opts.memory ?? 10;
  const maxIterations = opts.maxIterations ?? 500;
  const maxEvaluations = opts.maxEvaluations ?? 4 * maxIterations;
  const gtol = opts.gradientTolerance ?? 1e-8;
  const ftol = opts.functionTolerance ?? 1e-12;
  const stol = opts.stepTolerance ?? 1e-10;

  let x: Float64Array = Float64Array.from(x0);
  let g: Float64Array = new Float64Array(n);
  let f = fg(x, g);
  let evaluations = 1;
  const sHist: Float64Array[] = [],
    yHist: Float64Array[] = [],
    rhoHist: number[] = [];
  const dir = new Float64Array(n);
  const alpha = new Float64Array(m);
  let xNew: Float64Array = new Float64Array(n),
    gNew: Float64Array = new Float64Array(n);
  let reason: LbfgsResult['reason'] = 'iterations';
  let iterations = 0;

  for (; iterations < maxIterations; iterations++) {
    if (normInf(g) <= gtol) {
      reason = 'gradient';
      break;
    }
    // Two-loop recursion: dir = −H∇f.
    for (let i = 0; i < n; i++) dir[i] = -g[i];
    const k = sHist.length;
    for (let j = k - 1; j >= 0; j--) {
      alpha[j] = rhoHist[j] * dot(sHist[j], dir);
      axpy(-alpha[j], yHist[j], dir);
    }
    if (k > 0) {
      const gamma = dot(sHist[k - 1], yHist[k - 1]) / dot(yHist[k - 1], yHist[k - 1]);
      for (let i = 0; i < n; i++) dir[i] *= gamma;
    }
    for (let j = 0; j < k; j++) {
      const beta = rhoHist[j] * dot(yHist[j], dir);
      axpy(alpha[j] - beta, sHist[j], dir);
    }
    let slope = dot(g, dir);
    if (!(slope < 0)) {
      // Not a descent direction (numerical trouble): restart from steepest descent.
      sHist.length = 0;
      yHist.length = 0;
      rhoHist.length = 0;
      for (let i = 0; i < n; i++) dir[i] = -g[i];
      slope = dot(g, dir);
    }
    const initialStep = k === 0 ? Math.min(1, (opts.initialStepLength ?? 1) / Math.max(normInf(dir), 1e-300)) : 1;
    const ls = wolfeLineSearch(fg, x, f, slope, dir, initialStep, xNew, gNew, { maxEvaluations: Math.min(25, maxEvaluations - evaluations) });
    evaluations += ls.evaluations;
    if (ls.step === 0) {
      if (k > 0) {
        sHist.length = 0;
        yHist.length = 0;
        rhoHist.length = 0;
        continue;
      }
      reason = 'line-search';
      break;
    }
    const s = new Float64Array(n),
      y = new Float64Array(n);
    let maxStep = 0;
    for (let i = 0; i < n; i++) {
      s[i] = xNew[i] - x[i];
      y[i] = gNew[i] - g[i];
      maxStep = Math.max(maxStep, Math.abs(s[i]));
    }
    const sy = dot(s, y);
    if (sy > 1e-12 * Math.sqrt(dot(s, s) * dot(y, y))) {
      if (sHist.length === m) {
        sHist.shift();
        yHist.shift();
        rhoHist.shift();
      }
      sHist.push(s);
      yHist.push(y);
      rhoHist.push(1 / sy);
    }
    const fOld = f;
    [x, xNew] = [xNew, x];
    [g, gNew] = [gNew, g];
    f = ls.f;
    opts.onIteration?.(x, f, iterations + 1);
    if (evaluations >= maxEvaluations) {
      reason = 'evaluations';
      iterations++;
      break;
    }
    if (maxStep <= stol) {
      reason = 'step';
      iterations++;
      break;
    }
    if (fOld - f <= ftol * Math.max(1, Math.abs(f))) {
      reason = 'function';
      iterations++;
      break;
    }
  }
  return { x, f, iterations, evaluations, reason };
}

function dot(a: Float64Array, b: Float64Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}
function axpy(alpha: number, x: Float64Array, y: Float64Array): void {
  for (let i = 0; i < x.length; i++) y[i] += alpha * x[i];
}
function normInf(a: Float64Array): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]));
  return m;
}
