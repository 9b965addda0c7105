/**
 * Local improvement of a collection network by subtree re-attachment: cut the edge from a turbine
 * v toward its substation, re-root v's subtree at any of its turbines w (the path w…v reversed)
 * and join w to a node u outside the subtree — one of w's 12 nearest allowed turbines or an
 * allowed substation. A move is taken when it lowers the total cable cost (cheapest type per
 * load) by more than 1e-12 relative, keeps every feeder within the largest cable's capacity and
 * the new edge crosses no other edge. Turbines v in index order, then w in subtree order, then u
 * in neighbour order (substations last); the first improving move is taken; passes repeat until
 * one finds none (at most 100 passes). Deterministic. With `focus` given (after a perturbation,
 * perturbation.ts), only moves of a focused turbine's subtree or onto a focused turbine are tried,
 * and every turbine of the feeders a taken move changes becomes focused (the array is updated).
 */
import { edgesCross } from './segmentCrossing.js';
import { rerootAndHang } from './collectionNetwork.js';
import type { RoutingProblem } from './routingProblem.js';
import { feederCost as priceFeeders } from './feederCost.js';

export function improveBySubtreeReattach(problem: RoutingProblem, parent: Int32Array, focus?: Uint8Array): Int32Array {
  const { n, px, py, neighbours, gates, choice } = problem;
  const capacity = choice.maxCapacity;
  const par = parent.slice();
  const children: number[][] = Array.from({ length: n }, () => []);
  const root = new Int32Array(n);
  const feederSize = new Int32Array(n);
  const members: number[][] = Array.from({ length: n }, () => []);

  const feederCostOf = new Float64Array(n);
  const both: number[] = [];
  const rebuild = (): void => {
    for (let i = 0; i < n; i++) {
      children[i].length = 0;
      members[i].length = 0;
      feederSize[i] = 0;
    }
    for (let i = 0; i < n; i++) if (par[i] < n) children[par[i]].push(i);
    for (let i = 0; i < n; i++) {
      let r = i;
      while (par[r] < n) r = par[r];
      root[i] = r;
      feederSize[r]++;
      members[r].push(i);
    }
    for (let r = 0; r < n; r++) if (members[r].length > 0) feederCostOf[r] = feederCost(members[r]);
  };
  // Cost of the feeders rooted at the given roots, under the current `par`.
  const loadScratch = new Int32Array(n);
  const feederCost = (nodes: number[]): number => priceFeeders(problem, par, nodes, loadScratch);
  const subtreeOf = (v: number): number[] => {
    const out = [v];
    for (let k = 0; k < out.length; k++) out.push(...children[out[k]]);
    return out;
  };
  const inSub = new Uint8Array(n);
  const saved = new Int32Array(n);

  rebuild();
  for (let pass = 0; pass < 100; pass++) {
    let improved = false;
    for (let v = 0; v < n; v++) {
      const sub = subtreeOf(v);
      for (const s of sub) inSub[s] = 1;
      const r1 = root[v];
      let moved = false;
      for (const w of sub) {
        const nbw = neighbours[w];
        const gw = gates[w];
        for (let c = 0; c < nbw.length + gw.length; c++) {
          const u = c < nbw.length ? nbw[c] : gw[c - nbw.length];
          if (u < n && inSub[u]) continue;
          if (focus !== undefined && !focus[v] && !(u < n && focus[u])) continue;
          if (u === par[w] && w === v) continue;
          const r2 = u < n ? root[u] : -1;
          if (r2 >= 0 && r2 !== r1 && feederSize[r2] + sub.length > capacity) continue;
          const two = r2 >= 0 && r2 !== r1;
          const before = feederCostOf[r1] + (two ? feederCostOf[r2] : 0);
          // Apply: reverse the path w … v, hang w from u.
          for (const s of sub) saved[s] = par[s];
          rerootAndHang(par, v, w, u);
          let after: number;
          if (two) {
            both.length = 0;
            for (const q of members[r1]) both.push(q);
            for (const q of members[r2]) both.push(q);
            after = feederCost(both);
          } else {
            after = feederCost(members[r1]);
          }
          let take = after < before - 1e-12 * before;
          if (take) {
            for (let e = 0; e < n && take; e++) {
              if (e !== w && edgesCross(w, u, e, par[e], px, py)) take = false;
            }
          }
          if (take) {
            moved = true;
            if (focus !== undefined) {
              for (const q of members[r1]) focus[q] = 1;
              if (two) for (const q of members[r2]) focus[q] = 1;
            }
            break;
          }
          for (const s of sub) par[s] = saved[s];
        }
        if (moved) break;
      }
      for (const s of sub) inSub[s] = 0;
      if (moved) {
        rebuild();
        improved = true;
      }
    }
    if (!improved) break;
  }
  return par;
}
