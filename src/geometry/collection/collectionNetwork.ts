/**
 * A collection network: one edge per turbine, from the turbine to the next node toward its
 * substation (`parent[i]`, a turbine index < n or a substation n + k). Each edge's load is the
 * number of turbines whose power it carries (the turbine's subtree), its cable the cheapest type
 * covering that load; total length and cost, and both per cable type.
 */
import { distance, type RoutingProblem } from './routingProblem.js';

export interface CollectionEdge {
  /** The turbine the edge leaves (toward its substation). */
  from: number;
  /** The next node: a turbine index, or n + k for substation k. */
  to: number;
  cable: number;
  load: number;
  length: number;
}

export interface CollectionNetwork {
  turbineCount: number;
  substationCount: number;
  parent: Int32Array;
  load: Int32Array;
  cable: Int32Array;
  edges: CollectionEdge[];
  totalLength: number;
  totalCost: number;
  lengthByCable: number[];
  costByCable: number[];
}

/**
 * Subtree sizes of a parent array (each turbine counts itself); -1 for every turbine when the
 * array has a cycle or a parent that is no node.
 */
export function subtreeLoads(parent: Int32Array, n: number, m: number): Int32Array {
  const load = new Int32Array(n).fill(1);
  for (let i = 0; i < n; i++) {
    let j = parent[i];
    let steps = 0;
    while (j < n) {
      if (j < 0 || steps++ > n) return new Int32Array(n).fill(-1);
      load[j]++;
      j = parent[j];
    }
    if (j >= n + m) return new Int32Array(n).fill(-1);
  }
  return load;
}

/** The network of a parent array (assumed a forest rooted at the substations). */
export function networkOf(problem: RoutingProblem, parent: Int32Array): CollectionNetwork {
  const { n, m, choice, cables } = problem;
  const load = subtreeLoads(parent, n, m);
  const cable = new Int32Array(n);
  const edges: CollectionEdge[] = [];
  const lengthByCable = cables.map(() => 0);
  const costByCable = cables.map(() => 0);
  let totalLength = 0;
  let totalCost = 0;
  for (let i = 0; i < n; i++) {
    const t = load[i] >= 1 && load[i] <= choice.maxCapacity ? choice.typeForLoad[load[i]] : -1;
    cable[i] = t;
    const length = distance(problem, i, parent[i]);
    edges.push({ from: i, to: parent[i], cable: t, load: load[i], length });
    totalLength += length;
    if (t >= 0) {
      lengthByCable[t] += length;
      costByCable[t] += length * cables[t].costPerMetre;
      totalCost += length * cables[t].costPerMetre;
    } else {
      totalCost = Infinity;
    }
  }
  return { turbineCount: n, substationCount: m, parent: parent.slice(), load, cable, edges, totalLength, totalCost, lengthByCable, costByCable };
}

/**
 * Re-roots the subtree of v at its turbine w and hangs w from node u: the parents on the path
 * w … v are reversed (each now points to the node that was its child), then w's parent is u.
 * Used by the subtree re-attachment move and the perturbation kicks; the caller saves and restores.
 */
export function rerootAndHang(par: Int32Array, v: number, w: number, u: number): void {
  let prev = u;
  let cur = w;
  for (;;) {
    const next = par[cur];
    par[cur] = prev;
    if (cur === v) break;
    prev = cur;
    cur = next;
  }
}
