/**
 * Sweep groups, the starts the router tries beside plain Esau–Williams: each turbine goes to its
 * nearest allowed substation; around each substation the turbines are sorted by polar angle
 * (atan2, ties: nearer first, then lower index; counter-clockwise, or clockwise for the mirrored starts) and cut into consecutive groups of the largest
 * cable's capacity, starting at the `offset`-th turbine of that order (offsets 0 … capacity − 1 give
 * the different cuttings). Esau–Williams restricted to joins within a group then builds a feeder per
 * group (sector), which suits substations at the edge of a farm.
 */
import type { RoutingProblem } from './routingProblem.js';

export function sweepGroups(problem: RoutingProblem, offset: number, clockwise = false): Int32Array {
  const { n, px, py, gates } = problem;
  const capacity = problem.choice.maxCapacity;
  const group = new Int32Array(n).fill(-1);
  let next = 0;
  for (let s = n; s < n + problem.m; s++) {
    const mine: number[] = [];
    for (let i = 0; i < n; i++) if (gates[i].length > 0 && gates[i][0] === s) mine.push(i);
    const angle = (i: number): number => Math.atan2(py[i] - py[s], px[i] - px[s]);
    const dist = (i: number): number => Math.hypot(px[i] - px[s], py[i] - py[s]);
    mine.sort((a, b) => angle(a) - angle(b) || dist(a) - dist(b) || a - b);
    // The largest angular gap is where the sweep starts (for a substation at the farm's edge, the
    // side with no turbines), then the offset shifts the cutting.
    let start = 0;
    let gap = -1;
    for (let k = 0; k < mine.length; k++) {
      const prev = mine[(k + mine.length - 1) % mine.length];
      let g = angle(mine[k]) - angle(prev);
      if (g <= 0) g += 2 * Math.PI;
      if (g > gap) {
        gap = g;
        start = k;
      }
    }
    if (clockwise) {
      mine.reverse();
      start = (mine.length - start) % mine.length;
    }
    for (let k = 0; k < mine.length; k++) {
      const i = mine[(start + offset + k) % mine.length];
      group[i] = next + Math.floor(k / capacity);
    }
    next += Math.ceil(mine.length / capacity) + 1;
  }
  // Turbines with no allowed gate: a group of their own each (they must join across groups, which
  // the restricted construction cannot do; such inputs rely on the unrestricted starts).
  for (let i = 0; i < n; i++) if (group[i] < 0) group[i] = next++;
  return group;
}
