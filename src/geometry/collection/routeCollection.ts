/**
 * Route a collection system. Starts: the Esau–Williams construction (esauWilliams.ts) for each
 * trade-off weight λ in ROUTING_LAMBDAS, then SWEEP_STARTS sweep starts (sweepGroups.ts:
 * Esau–Williams restricted to angular groups of one feeder's size). Each start is improved by
 * subtree re-attachment (subtreeReattach.ts), then rounds of node swaps (nodeSwap.ts) and
 * re-attachment while a round lowers the cost. The cheapest improved start (ties: the earlier)
 * then goes through an iterated local search: kickCount(n) times, a kick of KICK_MOVES random valid
 * re-attachments near each other (perturbation.ts, a seeded generator) is re-improved by the same
 * two moves restricted to the feeders it changed; the next kick starts from it when it costs at
 * most KICK_ACCEPT (1 %) more than the best network found, which is returned. Deterministic: the same input gives the same network. Cable type per edge: the cheapest type whose
 * capacity covers the edge's load. Every start keeps the network connected, within capacity,
 * crossing-free and out of the exclusion zones (each move checks it, and checkNetwork.ts re-checks
 * every network that would become the best: an invalid one is dropped, never returned).
 *
 * The best network is then polished: the two moves, unrestricted, until a round changes nothing
 * (POLISH_ROUNDS at most), so that the returned network is a fixed point of the improvement.
 *
 * A start (`input.start`, a parent array: a network the caller already has, e.g. the one an
 * optimizer kept while it moved the turbines) is a suggestion, never trusted: checked from
 * scratch (checkNetwork.ts) at these positions, ignored when it is not a valid network there,
 * else polished the same way and returned when it costs no more than the router's own network.
 * So routing is idempotent: routing again with the returned network as the start returns it
 * again (both candidates are fixed points of the polish, and a tie goes to the start), which is
 * what lets a verifier re-route a row with the row's own network as the start and require the
 * same network back (runner/gate/rowGate.ts).
 */
import { checkNetwork } from './checkNetwork.js';
import type { CollectionInput } from './collectionInput.js';
import { networkOf, type CollectionNetwork } from './collectionNetwork.js';
import { esauWilliams } from './esauWilliams.js';
import { prepareRouting, type RoutingProblem } from './routingProblem.js';
import { improveByNodeSwap } from './nodeSwap.js';
import { kick, KickRandom } from './perturbation.js';
import { improveBySubtreeReattach } from './subtreeReattach.js';
import { sweepGroups } from './sweepGroups.js';
import { diagnoseUncablable, UncablableLayout } from './uncablable.js';

export const ROUTING_LAMBDAS = [1, 0.9, 0.8] as const;
/** Sweep starts: cutting offsets 0, 0, 1, 1, 2, 2 counter-clockwise and clockwise (at most 2 × capacity). */
export const SWEEP_STARTS = 6;

/** Iterated local search after the starts: at most this many kicks (perturbation.ts), each followed by re-improvement. */
export const KICKS = 400;
/** Work bound of the kicks: at most KICK_WORK / n² kicks for n turbines. */
export const KICK_WORK = 640_000;
/** Random re-attachments per kick. */
export const KICK_MOVES = 5;
/** A kicked and re-improved network is kept (as the point the next kick starts from) when it costs at most this much more than the best so far. */
export const KICK_ACCEPT = 0.01;
/** The kicks' generator seed (fixed: the router is deterministic). */
const KICK_SEED = 29;

/** The number of kicks for n turbines: min(kicks, ⌊KICK_WORK / n²⌋) — 400 up to 40 turbines, 177 at 60, 16 at 200. */
export function kickCount(n: number, kicks = KICKS): number {
  return Math.min(kicks, Math.floor(KICK_WORK / Math.max(1, n * n)));
}

/** Rounds of the full improvement in the final polish (each is a fixed point check; 2–3 are typical). */
export const POLISH_ROUNDS = 50;

/** Subtree re-attachment and node swaps in turn, until a round of both lowers the cost no more (at most 20 rounds). */
function improve(problem: RoutingProblem, start: Int32Array, focus?: Uint8Array): Int32Array {
  let current = improveBySubtreeReattach(problem, start, focus);
  let cost = networkOf(problem, current).totalCost;
  for (let round = 0; round < 20; round++) {
    const next = improveBySubtreeReattach(problem, improveByNodeSwap(problem, current, focus), focus);
    const nextCost = networkOf(problem, next).totalCost;
    if (!(nextCost < cost)) break;
    current = next;
    cost = nextCost;
  }
  return current;
}

/** improve() again and again until it changes nothing (at most POLISH_ROUNDS rounds). */
function polish(problem: RoutingProblem, start: Int32Array): Int32Array {
  let current = start;
  for (let round = 0; round < POLISH_ROUNDS; round++) {
    const next = improve(problem, current);
    let same = true;
    for (let i = 0; i < next.length && same; i++) if (next[i] !== current[i]) same = false;
    if (same) return current;
    current = next;
  }
  return current;
}

/** A caller's start as a parent array of this problem (whole numbers naming a node other than the turbine itself), or null. */
function startParent(problem: RoutingProblem, start: ArrayLike<number> | undefined): Int32Array | null {
  if (start === undefined || start.length !== problem.n) return null;
  const parent = new Int32Array(problem.n);
  for (let i = 0; i < problem.n; i++) {
    const p = start[i];
    if (!Number.isInteger(p) || p < 0 || p >= problem.n + problem.m || p === i) return null;
    parent[i] = p;
  }
  return parent;
}

export function routeCollection(input: CollectionInput, lambdas: readonly number[] = ROUTING_LAMBDAS, kicks = KICKS): CollectionNetwork {
  const problem = prepareRouting(input);
  let best: CollectionNetwork | undefined;
  // Cheaper than the best so far, and valid when checked from scratch (a start the construction
  // could not make valid, e.g. around exclusion zones, is dropped rather than returned).
  const substations = input.substations;
  const better = (network: CollectionNetwork): boolean =>
    (best === undefined || network.totalCost < best.totalCost) &&
    checkNetwork(network, input.cables, input.turbines.x, input.turbines.y, substations, problem.exclusions).length === 0;
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
  // Iterated local search from the best start: kick, re-improve around the kick; the result is
  // kept as the next kick's start when within KICK_ACCEPT of the best so far (a threshold
  // acceptance: it lets the search cross to other valleys), and the best network found is returned.
  if (best !== undefined) {
    const random = new KickRandom(KICK_SEED);
    let current: Int32Array = best.parent.slice();
    let bestParent = current;
    let bestCost = best.totalCost;
    const count = kickCount(problem.n, kicks);
    for (let k = 0; k < count; k++) {
      const trial = current.slice();
      const focus = kick(problem, trial, random, KICK_MOVES);
      if (focus === null) continue;
      const next = improve(problem, trial, focus);
      const nextCost = networkOf(problem, next).totalCost;
      if (nextCost <= bestCost * (1 + KICK_ACCEPT)) current = next;
      if (nextCost < bestCost - 1e-12 * bestCost) {
        bestParent = next;
        bestCost = nextCost;
      }
    }
    const network = networkOf(problem, bestParent);
    if (better(network)) best = network;
  }
  const check = (network: CollectionNetwork): boolean =>
    Number.isFinite(network.totalCost) && checkNetwork(network, input.cables, input.turbines.x, input.turbines.y, substations, problem.exclusions).length === 0;
  if (best !== undefined) {
    // The fixed point is returned whenever it is valid and no dearer (a strict test could keep an
    // unpolished network over a rounding tie, and break idempotence).
    const polished = networkOf(problem, polish(problem, best.parent));
    if (polished.totalCost <= best.totalCost && check(polished)) best = polished;
  }
  const given = startParent(problem, input.start);
  if (given !== null && check(networkOf(problem, given))) {
    const polished = networkOf(problem, polish(problem, given));
    if (check(polished) && (best === undefined || polished.totalCost <= best.totalCost)) best = polished;
  }
  if (best === undefined) {
    // Which turbines and why (uncablable.ts); permanent: the same layout fails again.
    const why = diagnoseUncablable(input);
    throw new UncablableLayout(`${input.source ?? 'collection'}: found no valid network: ${why.reason}`, why.turbines);
  }
  return best;
}
