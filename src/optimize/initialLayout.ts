/**
 * The layout an optimization starts from: random feasible (from the seed), a grid clipped to the
 * site, or a given layout. Deterministic.
 */
import type { PreparedBoundary } from '../geometry/preparedBoundary.js';
import { randomFeasibleLayout } from '../geometry/sampling.js';
import { gridLayout } from '../geometry/gridLayout.js';
import { InputError } from '../util/errors.js';
import type { Rng } from '../util/rng.js';
import type { InitialLayoutKind } from './settings.js';

export function initialLayout(
  kind: InitialLayoutKind, site: PreparedBoundary | null, n: number, minSpacing: number, rng: Rng,
  given: { x: Float64Array; y: Float64Array } | null,
): { x: Float64Array; y: Float64Array } {
  if (kind === 'given') {
    if (!given) throw new InputError(`initial layout 'given': the case has no layout`);
    if (given.x.length !== n) throw new InputError(`initial layout 'given': the case's layout has ${given.x.length} turbines, expected ${n}`);
    return { x: Float64Array.from(given.x), y: Float64Array.from(given.y) };
  }
  if (!site) throw new InputError(`initial layout '${kind}' needs a site boundary`);
  return kind === 'grid' ? gridLayout(site, n, minSpacing) : randomFeasibleLayout(site, n, minSpacing, rng);
}
