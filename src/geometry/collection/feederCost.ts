/**
 * The cable cost of some feeders of a network given as parent pointers (`par[i] >= n`: i hangs on
 * a substation): each node's load is the number of turbines at or below it, and its edge to its
 * parent costs the cheapest cable for that load per metre times the edge's length. Used by the
 * local improvement moves (nodeSwap.ts, subtreeReattach.ts) to price a feeder before and after a move.
 */
import { distance, type RoutingProblem } from './routingProblem.js';

/** Cost of the edges leaving `nodes` (every node of the feeders priced); `scratch`: n entries of working space. */
export function feederCost(problem: RoutingProblem, par: Int32Array, nodes: readonly number[], scratch: Int32Array): number {
  const n = problem.n;
  for (const v of nodes) scratch[v] = 0;
  for (const v of nodes) {
    let j = v;
    for (;;) {
      scratch[j]++;
      if (par[j] >= n) break;
      j = par[j];
    }
  }
  let cost = 0;
  for (const v of nodes) cost += problem.choice.costForLoad[scratch[v]] * distance(problem, v, par[v]);
  return cost;
}
