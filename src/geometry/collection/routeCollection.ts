/**
 * Route a collection system. Starts: the Esau–Williams construction (esauWilliams.ts) for each
 * trade-off weight λ in ROUTING_LAMBDAS, then SWEEP_STARTS sweep starts (sweepGroups.ts:
 * Esau–Williams restricted to angular groups of one feeder's size). Each start is improved by
 * subtree re-attachment (subtreeReattach.ts), then rounds of node swaps (nodeSwap.ts) and
 * re-attachment while a round lowers the cost. The cheapest network wins (ties: the earlier start).
 * Deterministic: the same input gives the same network. Cable type per edge: the cheapest type whose
 * capacity covers the edge's load. Every start keeps the network connected, within capacity,
 * crossing-free and out of the exclusion zones (each move checks it, and checkNetwork.ts re-checks
 * every network that would become the best: an invalid one is dropped, never returned).
 */
import { RuntimeFailure } from '../../util/errors.js';
import { checkNetwork } from './checkNetwork.js';
import type { CollectionInput } from './collectionInput.js';
import { networkOf, type CollectionNetwork } from './collectionNetwork.js';
import { esauWilliams } from './esauWilliams.js';
import { prepareRouting, type RoutingProblem } from './routingProblem.js';
import { improveByNodeSwap } from './nodeSwap.js';
import { improveBySubtreeReattach } from './subtreeReattach.js';
import { sweepGroups } from './sweepGroups.js';

export const ROUTING_LAMBDAS = [1, 0.9, 0.8] as const;
/** Sweep starts: cutting offsets 0, 0, 1, 1, 2, 2 counter-clockwise and clockwise (at most 2 × capacity). */
export const SWEEP_STARTS = 6;

/** Subtree re-attachment and node swaps in turn, until a round of both lowers the cost no more (at most 20 rounds). */
function improve(problem: RoutingProblem, start: Int32Array): Int32Array {
  let current = improveBySubtreeReattach(problem, start);
  let cost = networkOf(problem, current).totalCost;
  for (let round = 0; round < 20; round++) {
    const next = improveBySubtreeReattach(problem, improveByNodeSwap(problem, current));
    const nextCost = networkOf(problem, next).totalCost;
    if (!(nextCost < cost)) break;
    current = next;
    cost = nextCost;
  }
  return current;
}

export function routeCollection(input: CollectionInput, lambdas: readonly number[] = ROUTING_LAMBDAS): CollectionNetwork {
  const problem = prepareRouting(input);
  let best: CollectionNetwork | undefined;
  // Cheaper than the best so far, and valid when checked from scratch (a start the construction
  // could not make valid, e.g. around exclusion zones, is dropped rather than returned).
  const substations = input.substations;
  const better = (network: CollectionNetwork): boolean =>
    (best === undefined || network.totalCost < best.totalCost)
    && checkNetwork(network, input.cables, input.turbines.x, input.turbines.y, substations, problem.exclusions).length === 0;
  for (const lambda of lambdas) {
    const start = esauWilliams(problem, lambda);
    if (start === null) continue;
    const network = networkOf(problem, improve(problem, start));
    if (better(network)) best = network;
  }
  const sweeps = Math.min(2 * problem.choice.maxCapacity, SWEEP_STARTS);
  for (let sweep = 0; sweep < sweeps; sweep++) {
    const start = esauWilliams(problem, 1, sweepGroups(problem, sweep >> 1, (sweep & 1) === 1));
    if (start === null) continue;
    const network = networkOf(problem, improve(problem, start));
    if (better(network)) best = network;
  }
  if (best === undefined) {
    throw new RuntimeFailure(`${input.source ?? 'collection'}: found no valid network: some turbines cannot reach a substation past the exclusion zones, the other cables and the cable capacity`);
  }
  return best;
}
