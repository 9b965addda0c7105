/**
 * A checked collection input prepared for the routing heuristics: every node's coordinates in one
 * pair of arrays (turbines 0..n-1, then substations n..n+m-1), the cheapest cable per load, each
 * turbine's K = 12 nearest turbines it may be joined to (edges through an exclusion zone left
 * out), and the substations each turbine may be joined to, nearest first.
 */
import type { ExclusionZone } from '../boundary.js';
import { cableChoice, type CableChoice, type CableType } from './cableCatalogue.js';
import { checkCollectionInput, type CollectionInput } from './collectionInput.js';
import { blockingZone } from './exclusionBlock.js';

export const NEIGHBOURS = 12;

export interface RoutingProblem {
  n: number;
  m: number;
  px: Float64Array;
  py: Float64Array;
  cables: readonly CableType[];
  choice: CableChoice;
  exclusions: readonly ExclusionZone[];
  /** Turbine i's allowed turbine neighbours, nearest first (ties: lower index). */
  neighbours: Int32Array[];
  /** Turbine i's allowed substation nodes (n + k), nearest first. */
  gates: Int32Array[];
}

/** Euclidean distance between nodes i and j (sqrt of the sum of squares: Math.hypot is several times slower in V8, and coordinates of a farm cannot overflow). */
export function distance(p: RoutingProblem, i: number, j: number): number {
  const dx = p.px[i] - p.px[j];
  const dy = p.py[i] - p.py[j];
  return Math.sqrt(dx * dx + dy * dy);
}

export function prepareRouting(input: CollectionInput, neighbourCount = NEIGHBOURS): RoutingProblem {
  checkCollectionInput(input);
  const n = input.turbines.x.length;
  const m = input.substations.length;
  const px = new Float64Array(n + m);
  const py = new Float64Array(n + m);
  for (let i = 0; i < n; i++) {
    px[i] = input.turbines.x[i];
    py[i] = input.turbines.y[i];
  }
  input.substations.forEach((s, k) => {
    px[n + k] = s[0];
    py[n + k] = s[1];
  });
  const exclusions = input.exclusions ?? [];
  const open = (i: number, j: number): boolean => exclusions.length === 0 || blockingZone(exclusions, px[i], py[i], px[j], py[j]) === undefined;
  const problem: RoutingProblem = {
    n,
    m,
    px,
    py,
    cables: input.cables,
    choice: cableChoice(input.cables),
    exclusions,
    neighbours: [],
    gates: [],
  };
  const order = new Int32Array(n);
  const d = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      order[j] = j;
      d[j] = j === i ? Infinity : distance(problem, i, j);
    }
    const sorted = Array.from(order).sort((a, b) => d[a] - d[b] || a - b);
    const near: number[] = [];
    for (const j of sorted) {
      if (near.length >= neighbourCount || d[j] === Infinity) break;
      if (open(i, j)) near.push(j);
    }
    problem.neighbours.push(Int32Array.from(near));
    const subs = Array.from({ length: m }, (_, k) => n + k).filter((s) => open(i, s));
    subs.sort((a, b) => distance(problem, i, a) - distance(problem, i, b) || a - b);
    problem.gates.push(Int32Array.from(subs));
  }
  return problem;
}
