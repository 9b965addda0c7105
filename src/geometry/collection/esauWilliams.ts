/**
 * Esau–Williams construction of a capacitated, crossing-free collection network. Every turbine
 * starts as its own feeder, joined straight to its nearest allowed substation (its gate). Each step
 * joins two feeders a ≠ b by an edge i–j (i in a, j in b, j among i's 12 nearest allowed
 * neighbours): a's gate is removed and a hangs from j, re-rooted at i. The join chosen is the one
 * with the smallest trade-off d(i, j) − λ·gate(a) < 0 (gate(a) the length of a's gate edge; λ = 1
 * is the classic method, other λ give the variants the router also tries) among those that keep
 * the merged feeder within the largest cable's capacity and cross no existing edge (gates
 * included). Ties go to the lower i, then to the nearer (then lower-index) j — deterministic. A join
 * that crosses a turbine–turbine edge is never tried again (those edges stay); one that crosses
 * only a gate is tried again later (gates disappear). Stops when no join has a negative trade-off.
 * A turbine without any allowed gate (all blocked by exclusion zones) has trade-offs −∞ and must
 * join a feeder that has one; returns null when that is impossible. With `group` given (the sweep
 * starts, sweepGroups.ts), only turbines of the same group may be joined.
 */
import { edgesCross } from './segmentCrossing.js';
import { distance, type RoutingProblem } from './routingProblem.js';

export function esauWilliams(problem: RoutingProblem, lambda: number, group?: Int32Array): Int32Array | null {
  const { n, px, py, neighbours, gates } = problem;
  const capacity = problem.choice.maxCapacity;
  const comp = new Int32Array(n);
  const members: number[][] = [];
  const size = new Int32Array(n);
  const gateNode = new Int32Array(n); // per component: the turbine whose gate edge it keeps, -1 none
  const gateLen = new Float64Array(n);
  const gateOf = new Int32Array(n); // per turbine: its gate substation node, -1 none
  const dist: Float64Array[] = [];
  for (let i = 0; i < n; i++) {
    comp[i] = i;
    members.push([i]);
    size[i] = 1;
    gateOf[i] = gates[i].length > 0 ? gates[i][0] : -1;
    gateNode[i] = gateOf[i] >= 0 ? i : -1;
    gateLen[i] = gateOf[i] >= 0 ? distance(problem, i, gateOf[i]) : Infinity;
    dist.push(Float64Array.from(neighbours[i], (j) => distance(problem, i, j)));
  }
  // Turbine–turbine edges built so far (undirected), for the crossing checks and the final tree.
  const ea: number[] = [];
  const eb: number[] = [];
  const banned = neighbours.map((nb) => new Uint8Array(nb.length));
  // The gate node whose gate edge a candidate was last found to cross (-1: none yet).
  const blockedBy = neighbours.map((nb) => new Int32Array(nb.length).fill(-1));
  const isGate = new Uint8Array(n);
  for (let i = 0; i < n; i++) isGate[i] = gateNode[i] >= 0 ? 1 : 0;
  // Each round: every join with a negative trade-off, in order (trade-off, then i, then j's rank in
  // i's neighbour list); the first that crosses nothing is made.
  let slots = 0;
  for (const nb of neighbours) slots += nb.length;
  const candT = new Float64Array(slots);
  const candD = new Float64Array(slots);
  const candI = new Int32Array(slots);
  const candK = new Int32Array(slots);
  const orderAll = new Int32Array(slots);
  for (;;) {
    let count = 0;
    for (let i = 0; i < n; i++) {
      const a = comp[i];
      const g = gateLen[a];
      const nb = neighbours[i];
      for (let k = 0; k < nb.length; k++) {
        if (group !== undefined && group[i] !== group[nb[k]]) continue;
        const b = comp[nb[k]];
        if (b === a || banned[i][k] || size[a] + size[b] > capacity) continue;
        if (gateNode[a] < 0 && gateNode[b] < 0) continue;
        const t = g === Infinity ? -Infinity : dist[i][k] - lambda * g;
        if (!(t < 0)) continue;
        candT[count] = t;
        candD[count] = dist[i][k];
        candI[count] = i;
        candK[count] = k;
        count++;
      }
    }
    if (count === 0) break;
    // A binary heap of the candidates, popped in order until a join crosses nothing.
    const less = (p: number, q: number): boolean => {
      if (candT[p] !== candT[q]) return candT[p] < candT[q];
      if (candT[p] === -Infinity && candD[p] !== candD[q]) return candD[p] < candD[q];
      return p < q; // pushed in (i, k) order: the index breaks ties as the rule says
    };
    const heap = orderAll;
    let heapSize = count;
    for (let c = 0; c < count; c++) heap[c] = c;
    const siftDown = (at: number): void => {
      for (;;) {
        const l = 2 * at + 1;
        if (l >= heapSize) return;
        const r = l + 1;
        const m = r < heapSize && less(heap[r], heap[l]) ? r : l;
        if (!less(heap[m], heap[at])) return;
        const tmp = heap[m];
        heap[m] = heap[at];
        heap[at] = tmp;
        at = m;
      }
    };
    for (let c = (count >> 1) - 1; c >= 0; c--) siftDown(c);
    let joined = false;
    while (heapSize > 0) {
      const c = heap[0];
      heap[0] = heap[--heapSize];
      siftDown(0);
      const bi = candI[c];
      const bk = candK[c];
      const j = neighbours[bi][bk];
      const known = blockedBy[bi][bk];
      if (known >= 0 && isGate[known] && comp[known] !== comp[bi]) continue; // still crosses the gate it crossed before
      let crossesTree = false;
      let crossesGate = false;
      for (let e = 0; e < ea.length && !crossesTree; e++) {
        if (edgesCross(bi, j, ea[e], eb[e], px, py)) crossesTree = true;
      }
      if (crossesTree) {
        banned[bi][bk] = 1;
        continue;
      }
      for (let c2 = 0; c2 < n && !crossesGate; c2++) {
        const gn = gateNode[c2];
        if (gn >= 0 && c2 !== comp[bi] && edgesCross(bi, j, gn, gateOf[gn], px, py)) {
          crossesGate = true;
          blockedBy[bi][bk] = gn;
        }
      }
      if (crossesGate) continue;
      // Join: a hangs from j; the merged feeder keeps b's gate (a's when b has none).
      const a = comp[bi];
      const b = comp[j];
      ea.push(bi);
      eb.push(j);
      if (gateNode[a] >= 0) isGate[gateNode[a]] = 0;
      if (gateNode[b] < 0) {
        gateNode[b] = gateNode[a];
        gateLen[b] = gateLen[a];
        if (gateNode[b] >= 0) isGate[gateNode[b]] = 1;
      }
      for (const v of members[a]) {
        comp[v] = b;
        members[b].push(v);
      }
      members[a] = [];
      size[b] += size[a];
      size[a] = 0;
      gateNode[a] = -1;
      joined = true;
      break;
    }
    if (!joined) break;
  }
  // Orient the tree: from each gate node outward over the turbine–turbine edges.
  const adj: number[][] = Array.from({ length: n }, () => []);
  for (let e = 0; e < ea.length; e++) {
    adj[ea[e]].push(eb[e]);
    adj[eb[e]].push(ea[e]);
  }
  const parent = new Int32Array(n).fill(-1);
  for (let c = 0; c < n; c++) {
    if (members[c].length === 0) continue;
    const root = gateNode[c];
    if (root < 0) return null;
    parent[root] = gateOf[root];
    const stack = [root];
    while (stack.length > 0) {
      const v = stack.pop()!;
      for (const w of adj[v]) {
        if (w !== parent[v]) {
          parent[w] = v;
          stack.push(w);
        }
      }
    }
  }
  return parent;
}
