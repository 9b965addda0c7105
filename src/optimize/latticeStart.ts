/**
 * Lattice starting layouts tuned by a derivative-free search: the few numbers of a lattice
 * (geometry/latticeLayout.ts: angle, aspect, shear, offset; and for the boundary-grid family a
 * share of the turbines spread evenly along the site's boundary, its phase and the inset of the
 * lattice behind it) are chosen to maximize the AEP of the layout they describe, before any
 * gradient method runs. On IEA37 case study 1 with 36 and 64 turbines, a tuned lattice plus one
 * gradient polish is above every published layout.
 *
 * Search: `samples` random parameter vectors, then Nelder–Mead from the best `refineCount` of
 * them (`refineEvaluations` each); the `keep` best distinct results are returned. A lattice with
 * more points than turbines loses its least productive points, one at a time. Every AEP is with
 * the evaluator given (the real wake model, or the search's cheaper rose). Deterministic per rng
 * state; the work is counted in AEP evaluations.
 */
import type { FarmEvaluator } from '../physics/aep.js';
import type { PreparedBoundary } from '../geometry/preparedBoundary.js';
import { fitLattice, type LatticeShape } from '../geometry/latticeLayout.js';
import { perimeterLength, perimeterPoint } from '../geometry/structuredLayouts.js';
import type { Rng } from '../util/rng.js';
import { nelderMead } from './nelderMead.js';

export type LatticeFamily = 'lattice' | 'boundary-grid';

export interface LatticeSearchOptions {
  family: LatticeFamily;
  samples: number;
  refineCount: number;
  refineEvaluations: number;
  keep: number;
}

export interface LatticeCandidate {
  x: Float64Array;
  y: Float64Array;
  aep: number;
  params: number[];
}

const MARGIN_M = 1e-3;
const LOG_ASPECT = [Math.log(0.3), Math.log(3)] as const;
/** Initial Nelder–Mead steps by parameter (angle, log aspect, shear, u, v, share, phase, inset). */
const STEPS = [0.1, 0.15, 0.08, 0.15, 0.15, 0.08, 0.1, 0.2];

const frac = (v: number) => v - Math.floor(v);
const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/** The lattice shape a parameter vector stands for (every real vector is valid). */
export function shapeOf(p: number[]): LatticeShape {
  return {
    angle: p[0]!,
    aspect: Math.exp(clamp(p[1]!, LOG_ASPECT[0], LOG_ASPECT[1])),
    shear: frac(p[2]! + 0.5) - 0.5,
    offsetU: frac(p[3]!),
    offsetV: frac(p[4]!),
  };
}

/**
 * The layout of a parameter vector: boundary points first (boundary-grid only), then the fitted
 * lattice; null when the lattice cannot hold the rest. May hold more than n points.
 */
export function latticeLayoutOf(
  site: PreparedBoundary,
  n: number,
  minSpacing: number,
  family: LatticeFamily,
  p: number[],
): { x: number[]; y: number[] } | null {
  const x: number[] = [],
    y: number[] = [];
  let inset = MARGIN_M;
  if (family === 'boundary-grid') {
    const perimeter = perimeterLength(site);
    const capacity = Math.floor(perimeter / minSpacing);
    const count = Math.round(clamp(p[5]!, 0, 1) * Math.min(n, capacity));
    const phase = frac(p[6]!);
    const point = new Float64Array(2);
    const minSq = (minSpacing + MARGIN_M) ** 2;
    for (let k = 0; k < count; k++) {
      perimeterPoint(site, ((phase + k) / count) * perimeter, MARGIN_M, point);
      let clear = true;
      for (let j = 0; j < x.length && clear; j++) if ((point[0]! - x[j]!) ** 2 + (point[1]! - y[j]!) ** 2 < minSq) clear = false;
      if (clear) {
        x.push(point[0]!);
        y.push(point[1]!);
      }
    }
    if (x.length > 0) inset = minSpacing * clamp(p[7]!, 1, 2.5) + 2 * MARGIN_M;
  }
  if (x.length < n) {
    const fit = fitLattice(site, shapeOf(p), n - x.length, minSpacing + MARGIN_M, inset);
    if (!fit) return null;
    for (let k = 0; k < fit.points.length; k += 2) {
      x.push(fit.points[k]!);
      y.push(fit.points[k + 1]!);
    }
  }
  return { x, y };
}

function randomParams(family: LatticeFamily, rng: Rng): number[] {
  const p = [rng.uniform(0, Math.PI), rng.uniform(LOG_ASPECT[0], LOG_ASPECT[1]), rng.uniform(-0.5, 0.5), rng.next(), rng.next()];
  if (family === 'boundary-grid') p.push(rng.uniform(0.2, 0.9), rng.next(), rng.uniform(1, 2));
  return p;
}

export function latticeSearch(
  evaluator: FarmEvaluator,
  site: PreparedBoundary,
  n: number,
  minSpacing: number,
  rng: Rng,
  opts: LatticeSearchOptions,
): { candidates: LatticeCandidate[]; evaluations: number } {
  let evaluations = 0;
  /** Layout of p cut down to n turbines (least productive dropped) and its AEP; null if none. */
  const build = (p: number[]): LatticeCandidate | null => {
    const layout = latticeLayoutOf(site, n, minSpacing, opts.family, p);
    if (!layout) return null;
    const { x, y } = layout;
    while (x.length > n) {
      const perTurbine = evaluator.aep(Float64Array.from(x), Float64Array.from(y)).perTurbineMwh;
      evaluations++;
      let worst = 0;
      for (let k = 1; k < x.length; k++) if (perTurbine[k]! < perTurbine[worst]!) worst = k;
      x.splice(worst, 1);
      y.splice(worst, 1);
    }
    const lx = Float64Array.from(x),
      ly = Float64Array.from(y);
    evaluations++;
    return { x: lx, y: ly, aep: evaluator.aep(lx, ly).aepMwh, params: p.slice() };
  };
  const sampled: { p: number[]; aep: number }[] = [];
  for (let k = 0; k < opts.samples; k++) {
    const p = randomParams(opts.family, rng);
    sampled.push({ p, aep: build(p)?.aep ?? -Infinity });
  }
  sampled.sort((a, b) => b.aep - a.aep);
  const refined: LatticeCandidate[] = [];
  for (const start of sampled.slice(0, opts.refineCount)) {
    if (!(start.aep > -Infinity)) continue;
    const r = nelderMead((p) => -(build(p)?.aep ?? -Infinity), start.p, STEPS.slice(0, start.p.length), opts.refineEvaluations);
    const best = build(r.x);
    if (best) refined.push(best);
  }
  if (refined.length === 0) {
    for (const s of sampled.slice(0, opts.keep)) {
      const b = s.aep > -Infinity ? build(s.p) : null;
      if (b) refined.push(b);
    }
  }
  refined.sort((a, b) => b.aep - a.aep);
  const distinct: LatticeCandidate[] = [];
  for (const r of refined) {
    if (distinct.length >= opts.keep) break;
    if (distinct.some((d) => Math.abs(d.aep - r.aep) <= 1e-9 * r.aep)) continue;
    distinct.push(r);
  }
  return { candidates: distinct, evaluations };
}
