/**
 * The perturbation (kick) of the router's iterated local search: a few subtree re-attachments
 * chosen by a seeded pseudo-random generator, taken whatever they cost as long as they keep the
 * network valid (every feeder within the largest cable's capacity, the new edge crossing no other
 * edge; candidate joins are the allowed ones of routingProblem.ts, so no edge through an exclusion
 * zone). The moves are local: each starts at a turbine near the previous move. The turbines of
 * every feeder a move changes are returned as the focus of the re-improvement (subtreeReattach.ts,
 * nodeSwap.ts). Deterministic for a given generator state.
 */
import { edgesCross } from './segmentCrossing.js';
import { rerootAndHang } from './collectionNetwork.js';
import type { RoutingProblem } from './routingProblem.js';

/** A seeded linear congruential generator (Numerical Recipes constants): the same seed, the same draws. */
export class KickRandom {
  private s: number;
  constructor(seed: number) {
    this.s = seed >>> 0;
  }
  /** A whole number in 0 … k − 1. */
  below(k: number): number {
    this.s = (Math.imul(this.s, 1664525) + 1013904223) >>> 0;
    return Math.floor((this.s / 2 ** 32) * k);
  }
}

/**
 * Apply `moves` random valid re-attachments to `par` (changed in place). Returns the focus (1 for
 * every turbine of a changed feeder), or null when no valid move was found (par unchanged then).
 */
export function kick(problem: RoutingProblem, par: Int32Array, random: KickRandom, moves: number): Uint8Array | null {
  const { n, px, py, neighbours, gates } = problem;
  const capacity = problem.choice.maxCapacity;
  const focus = new Uint8Array(n);
  const children: number[][] = Array.from({ length: n }, () => []);
  const root = new Int32Array(n);
  const size = new Int32Array(n);
  const inSub = new Uint8Array(n);
  const rebuild = (): void => {
    for (let i = 0; i < n; i++) {
      children[i].length = 0;
      size[i] = 0;
    }
    for (let i = 0; i < n; i++) if (par[i] < n) children[par[i]].push(i);
    for (let i = 0; i < n; i++) {
      let r = i;
      while (par[r] < n) r = par[r];
      root[i] = r;
      size[r]++;
    }
  };
  rebuild();
  let made = 0;
  let near = -1;
  for (let attempt = 0; attempt < 8 * moves && made < moves; attempt++) {
    const v = near < 0 || neighbours[near].length === 0 ? random.below(n) : neighbours[near][random.below(neighbours[near].length)];
    const sub = [v];
    for (let k = 0; k < sub.length; k++) sub.push(...children[sub[k]]);
    const w = sub[random.below(sub.length)];
    const cands = [...neighbours[w], ...gates[w]];
    if (cands.length === 0) continue;
    for (const s of sub) inSub[s] = 1;
    const r1 = root[v];
    const first = random.below(cands.length);
    let done = false;
    for (let c = 0; c < cands.length && !done; c++) {
      const u = cands[(first + c) % cands.length];
      if (u < n && inSub[u]) continue;
      if (u === par[w] && w === v) continue;
      const r2 = u < n ? root[u] : -1;
      if (r2 >= 0 && r2 !== r1 && size[r2] + sub.length > capacity) continue;
      const saved = sub.map((s) => par[s]);
      // Re-root the subtree at w (reverse the path w … v) and hang w from u.
      rerootAndHang(par, v, w, u);
      let ok = true;
      for (let e = 0; e < n && ok; e++) if (e !== w && edgesCross(w, u, e, par[e], px, py)) ok = false;
      if (!ok) {
        sub.forEach((s, k) => {
          par[s] = saved[k];
        });
        continue;
      }
      for (let i = 0; i < n; i++) if (root[i] === r1 || (r2 >= 0 && root[i] === r2)) focus[i] = 1;
      done = true;
    }
    for (const s of sub) inSub[s] = 0;
    if (done) {
      made++;
      near = w;
      rebuild();
    }
  }
  return made > 0 ? focus : null;
}
