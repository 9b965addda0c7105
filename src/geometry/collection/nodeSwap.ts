/**
 * Local improvement of a collection network by exchanging two turbines a and b of different
 * feeders, b among a's 12 nearest allowed turbines, in one of two ways: (1) a takes b's place in
 * b's feeder (b's parent and b's children) and b takes a's; (2) the two turbine sets with a and b
 * exchanged are each re-connected as a minimum spanning tree (Prim; a turbine's distance to the
 * "root" is its nearest allowed substation, so a set may become several feeders; turbine pairs
 * through an exclusion zone are not used). Feeder sizes do not grow, so capacity holds. A swap is taken
 * when it lowers the total cable cost by more than 1e-12 relative and none of the new edges
 * crosses another edge or passes through an exclusion zone. Turbines a in index order, b in
 * neighbour order, first improvement taken; passes repeat until one finds none (at most 100).
 * Deterministic. With `focus` given (after a perturbation, perturbation.ts), only pairs with a
 * focused turbine are tried, and the turbines of both feeders of a taken swap become focused.
 */
import { blockingZone } from './exclusionBlock.js';
import { edgesCross } from './segmentCrossing.js';
import { distance, type RoutingProblem } from './routingProblem.js';
import { feederCost as priceFeeders } from './feederCost.js';

export function improveByNodeSwap(problem: RoutingProblem, parent: Int32Array, focus?: Uint8Array): Int32Array {
  const { n, px, py, neighbours, exclusions } = problem;
  const par = parent.slice();
  const root = new Int32Array(n);
  const members: number[][] = Array.from({ length: n }, () => []);
  const children: number[][] = Array.from({ length: n }, () => []);
  const loadScratch = new Int32Array(n);
  const both: number[] = [];
  const feederCost = (nodes: number[]): number => priceFeeders(problem, par, nodes, loadScratch);
  const rebuild = (): void => {
    for (let i = 0; i < n; i++) {
      members[i].length = 0;
      children[i].length = 0;
    }
    for (let i = 0; i < n; i++) {
      if (par[i] < n) children[par[i]].push(i);
      let r = i;
      while (par[r] < n) r = par[r];
      root[i] = r;
      members[r].push(i);
    }
  };
  const open = (i: number, j: number): boolean => exclusions.length === 0 || blockingZone(exclusions, px[i], py[i], px[j], py[j]) === undefined;
  // Does edge i-j cross any edge of the current network other than itself?
  const crossesAny = (i: number, j: number): boolean => {
    for (let e = 0; e < n; e++) {
      if ((e === i && par[e] === j) || (e === j && par[e] === i)) continue;
      if (edgesCross(i, j, e, par[e], px, py)) return true;
    }
    return false;
  };
  // Prim over `nodes` (at most 2 × capacity turbines) with the substations as one virtual root.
  const inTree = new Uint8Array(n);
  const bestD = new Float64Array(n);
  const bestTo = new Int32Array(n);
  const primInto = (nodes: number[]): void => {
    for (const v of nodes) {
      inTree[v] = 0;
      const g = problem.gates[v];
      bestD[v] = g.length > 0 ? distance(problem, v, g[0]) : Infinity;
      bestTo[v] = g.length > 0 ? g[0] : -1;
    }
    for (let step = 0; step < nodes.length; step++) {
      let pick = -1;
      for (const v of nodes) if (!inTree[v] && (pick < 0 || bestD[v] < bestD[pick])) pick = v;
      if (pick < 0 || bestTo[pick] < 0) {
        par[nodes[0]] = -1;
        return;
      }
      inTree[pick] = 1;
      par[pick] = bestTo[pick];
      for (const v of nodes) {
        if (inTree[v]) continue;
        const d = distance(problem, v, pick);
        if (d < bestD[v] && open(v, pick)) {
          bestD[v] = d;
          bestTo[v] = pick;
        }
      }
    }
  };
  const saved = new Int32Array(n);
  const groupA: number[] = [];
  const groupB: number[] = [];
  // The whole network crossing-free and every parent set?
  const valid = (nodes: number[]): boolean => {
    for (const v of nodes) if (par[v] < 0) return false;
    for (const v of nodes) if (crossesAny(v, par[v])) return false;
    return true;
  };
  rebuild();
  for (let pass = 0; pass < 100; pass++) {
    let improved = false;
    for (let a = 0; a < n; a++) {
      for (const b of neighbours[a]) {
        if (root[a] === root[b]) continue;
        if (focus !== undefined && !focus[a] && !focus[b]) continue;
        both.length = 0;
        for (const q of members[root[a]]) both.push(q);
        for (const q of members[root[b]]) both.push(q);
        const before = feederCost(both);
        const pa = par[a];
        const pb = par[b];
        const ca = children[a];
        const cb = children[b];
        par[a] = pb;
        par[b] = pa;
        for (const c of ca) par[c] = b;
        for (const c of cb) par[c] = a;
        let take = feederCost(both) < before - 1e-12 * before;
        if (take) {
          const fresh: [number, number][] = [[a, pb], [b, pa], ...ca.map((c): [number, number] => [c, b]), ...cb.map((c): [number, number] => [c, a])];
          take = fresh.every(([i, j]) => open(i, j) && !crossesAny(i, j));
        }
        if (take) {
          if (focus !== undefined) for (const q of both) focus[q] = 1;
          rebuild();
          improved = true;
          break;
        }
        par[a] = pa;
        par[b] = pb;
        for (const c of ca) par[c] = a;
        for (const c of cb) par[c] = b;
        // (2) Exchange a and b between the two sets and re-connect each set as an MST.
        for (const q of both) saved[q] = par[q];
        groupA.length = 0;
        groupB.length = 0;
        for (const q of members[root[a]]) groupA.push(q === a ? b : q);
        for (const q of members[root[b]]) groupB.push(q === b ? a : q);
        primInto(groupA);
        primInto(groupB);
        take = par[groupA[0]] >= 0 && par[groupB[0]] >= 0 && feederCost(both) < before - 1e-12 * before && valid(both);
        if (take) {
          if (focus !== undefined) for (const q of both) focus[q] = 1;
          rebuild();
          improved = true;
          break;
        }
        for (const q of both) par[q] = saved[q];
      }
    }
    if (!improved) break;
  }
  return par;
}
