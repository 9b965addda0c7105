/**
 * Sequential greedy placement: turbines are added one at a time, each at the spot (of a fixed
 * number of candidates: points on the boundary and random points inside) that gives the partial
 * farm the highest AEP with the real wake model. Boundary spots come first because a turbine on
 * the edge of the site wakes the fewest others. Deterministic per rng state; costs about
 * n × candidates AEP evaluations of farms of growing size.
 */
import type { FarmEvaluator } from '../physics/aep.js';
import type { PreparedBoundary } from '../geometry/preparedBoundary.js';
import { signedDistanceAt } from '../geometry/boundaryDistance.js';
import { perimeterLength, perimeterPoint } from '../geometry/structuredLayouts.js';
import { randomFeasibleLayout } from '../geometry/sampling.js';
import type { Rng } from '../util/rng.js';

export function greedyPlacement(
  evaluator: FarmEvaluator,
  site: PreparedBoundary,
  n: number,
  minSpacing: number,
  rng: Rng,
  candidates = 40,
  marginM = 1e-3,
): { x: Float64Array; y: Float64Array } {
  const grad = new Float64Array(2);
  const point = new Float64Array(2);
  const perimeter = perimeterLength(site);
  const minSq = (minSpacing + marginM) ** 2;
  const xs: number[] = [],
    ys: number[] = [];
  const box = site.box;
  for (let placed = 0; placed < n; placed++) {
    let bestX = NaN,
      bestY = NaN,
      bestAep = -Infinity;
    const x = new Float64Array(placed + 1),
      y = new Float64Array(placed + 1);
    for (let j = 0; j < placed; j++) {
      x[j] = xs[j]!;
      y[j] = ys[j]!;
    }
    let found = 0;
    for (let attempt = 0; attempt < 100 * candidates && found < candidates; attempt++) {
      let px: number, py: number;
      if (attempt % 2 === 0) {
        perimeterPoint(site, rng.next() * perimeter, marginM, point);
        px = point[0]!;
        py = point[1]!;
      } else {
        px = rng.uniform(box.minX, box.maxX);
        py = rng.uniform(box.minY, box.maxY);
      }
      if (signedDistanceAt(site, px, py, grad) < marginM * 0.999) continue;
      let clear = true;
      for (let j = 0; j < placed && clear; j++) if ((px - xs[j]!) ** 2 + (py - ys[j]!) ** 2 < minSq) clear = false;
      if (!clear) continue;
      found++;
      x[placed] = px;
      y[placed] = py;
      const aep = evaluator.aep(x, y).aepMwh;
      if (aep > bestAep) {
        bestAep = aep;
        bestX = px;
        bestY = py;
      }
    }
    if (found === 0) return randomFeasibleLayout(site, n, minSpacing, rng);
    xs.push(bestX);
    ys.push(bestY);
  }
  return { x: Float64Array.from(xs), y: Float64Array.from(ys) };
}
