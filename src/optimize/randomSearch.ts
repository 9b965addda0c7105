/**
 * Gradient-free random search: move one turbine by a random step; keep the move if the layout
 * stays feasible and the AEP rises. The step shrinks linearly from `initialStep` to `finalStep`
 * (metres) over the iterations. Works for non-smooth models (Jensen's top hat) and as a polish
 * after a gradient method. Needs a feasible start; every accepted layout is feasible.
 */
import type { FarmEvaluator } from '../physics/aep.js';
import type { PreparedBoundary } from '../geometry/preparedBoundary.js';
import { signedDistanceAt } from '../geometry/boundaryDistance.js';
import type { Rng } from '../util/rng.js';
import { pairMinimum, type SpacingRule } from '../geometry/pairSpacing.js';

export interface RandomSearchOptions {
  iterations: number;
  initialStep: number;
  finalStep: number;
  /** One spacing, or each turbine's (a pair keeps the larger; geometry/pairSpacing.ts). */
  minSpacing: SpacingRule;
  /** Keep turbines this far inside the boundary and beyond the spacing (metres). */
  marginM?: number;
}

export interface RandomSearchResult {
  x: Float64Array;
  y: Float64Array;
  aep: number;
  accepted: number;
  evaluations: number;
}

export function randomSearch(
  evaluator: FarmEvaluator,
  site: PreparedBoundary | null,
  x0: Float64Array,
  y0: Float64Array,
  rng: Rng,
  opts: RandomSearchOptions,
): RandomSearchResult {
  const n = x0.length;
  const x = Float64Array.from(x0),
    y = Float64Array.from(y0);
  const margin = opts.marginM ?? 1e-3;
  const rule = opts.minSpacing;
  const minSq = typeof rule === 'number' ? (rule + margin) ** 2 : NaN;
  const grad2 = new Float64Array(2);
  let aep = evaluator.aep(x, y).aepMwh;
  let evaluations = 1,
    accepted = 0;
  for (let t = 0; t < opts.iterations; t++) {
    const frac = opts.iterations > 1 ? t / (opts.iterations - 1) : 1;
    const step = opts.initialStep + (opts.finalStep - opts.initialStep) * frac;
    const i = rng.int(n);
    const nx = x[i] + step * rng.normal();
    const ny = y[i] + step * rng.normal();
    if (site && signedDistanceAt(site, nx, ny, grad2) < margin) continue;
    let clear = true;
    for (let j = 0; j < n; j++) {
      if (j === i) continue;
      const dx = nx - x[j],
        dy = ny - y[j];
      if (dx * dx + dy * dy < (typeof rule === 'number' ? minSq : (pairMinimum(rule, i, j) + margin) ** 2)) {
        clear = false;
        break;
      }
    }
    if (!clear) continue;
    const ox = x[i],
      oy = y[i];
    x[i] = nx;
    y[i] = ny;
    const candidate = evaluator.aep(x, y).aepMwh;
    evaluations++;
    if (candidate > aep) {
      aep = candidate;
      accepted++;
    } else {
      x[i] = ox;
      y[i] = oy;
    }
  }
  return { x, y, aep, accepted, evaluations };
}
