/**
 * The layout an optimization starts from, deterministic per seed:
 * - random: random feasible (random sequential adsorption);
 * - grid: a square grid clipped to the site;
 * - given: the case's layout;
 * - rings / hex / rows: a structured layout (geometry/structuredLayouts.ts), rows facing the
 *   dominant wind direction;
 * - greedy: turbines placed one at a time at the best of a few candidate spots (greedyPlacement.ts);
 * - structured: one of rings, hex, rows, greedy, random, chosen by the seed (rings most often:
 *   the best known IEA37 case study 1 layouts are ring-shaped).
 */
import type { PreparedBoundary } from '../geometry/preparedBoundary.js';
import { randomFeasibleLayout } from '../geometry/sampling.js';
import { gridLayout } from '../geometry/gridLayout.js';
import { structuredLayout } from '../geometry/structuredLayouts.js';
import type { FarmEvaluator } from '../physics/aep.js';
import type { WindResource } from '../physics/windResource.js';
import { InputError } from '../util/errors.js';
import type { Rng } from '../util/rng.js';
import type { InitialLayoutKind } from './settings.js';
import { greedyPlacement } from './greedyPlacement.js';

/** Kinds `structured` chooses from, with their weights. */
const STRUCTURED_MIX: [InitialLayoutKind, number][] = [
  ['rings', 0.45],
  ['hex', 0.15],
  ['rows', 0.1],
  ['greedy', 0.15],
  ['random', 0.15],
];

export function pickStructuredKind(rng: Rng): InitialLayoutKind {
  let u = rng.next();
  for (const [kind, weight] of STRUCTURED_MIX) {
    if (u < weight) return kind;
    u -= weight;
  }
  return 'rings';
}

/** The direction with the most energy (Σ p·v³ over speeds), radians clockwise from north. */
export function dominantDirectionRad(wind: WindResource): number {
  const ns = wind.speeds.length;
  let best = 0,
    bestEnergy = -Infinity;
  for (let d = 0; d < wind.directionsDeg.length; d++) {
    let energy = 0;
    for (let s = 0; s < ns; s++) energy += wind.probability[d * ns + s]! * wind.speeds[s]! ** 3;
    if (energy > bestEnergy) {
      bestEnergy = energy;
      best = d;
    }
  }
  return (wind.directionsDeg[best]! * Math.PI) / 180;
}

export function initialLayout(
  kind: InitialLayoutKind,
  site: PreparedBoundary | null,
  n: number,
  minSpacing: number,
  rng: Rng,
  given: { x: Float64Array; y: Float64Array } | null,
  evaluator?: FarmEvaluator,
): { x: Float64Array; y: Float64Array } {
  if (kind === 'given') {
    if (!given) throw new InputError(`initial layout 'given': the case has no layout`);
    if (given.x.length !== n) throw new InputError(`initial layout 'given': the case's layout has ${given.x.length} turbines, expected ${n}`);
    return { x: Float64Array.from(given.x), y: Float64Array.from(given.y) };
  }
  if (!site) throw new InputError(`initial layout '${kind}' needs a site boundary`);
  if (kind === 'structured') kind = pickStructuredKind(rng);
  switch (kind) {
    case 'grid':
      return gridLayout(site, n, minSpacing);
    case 'rings':
    case 'hex':
      return structuredLayout(site, n, minSpacing, kind, rng);
    case 'rows':
      return structuredLayout(site, n, minSpacing, 'rows', rng, { directionRad: evaluator ? dominantDirectionRad(evaluator.wind) : 0 });
    case 'greedy':
      if (!evaluator) return randomFeasibleLayout(site, n, minSpacing, rng);
      return greedyPlacement(evaluator, site, n, minSpacing, rng);
    default:
      return randomFeasibleLayout(site, n, minSpacing, rng);
  }
}
