/**
 * Nelder–Mead simplex search for a few parameters (Nelder & Mead 1965; the standard reflection
 * 1, expansion 2, contraction ½, shrink ½ of Lagarias et al. 1998): minimizes f without
 * gradients, for objectives that are piecewise smooth in their parameters (a lattice's shape,
 * where the set of lattice points inside a site changes in steps). Stops after `maxEvaluations`
 * calls of f or when the simplex's spread of values falls below `tolerance`. Deterministic.
 */

export interface NelderMeadResult {
  x: number[];
  f: number;
  evaluations: number;
}

export function nelderMead(f: (x: number[]) => number, x0: number[], steps: number[], maxEvaluations: number, tolerance = 1e-9): NelderMeadResult {
  const d = x0.length;
  let evaluations = 0;
  const value = (x: number[]): number => {
    evaluations++;
    const v = f(x);
    return Number.isFinite(v) ? v : Infinity;
  };
  const simplex: number[][] = [x0.slice()];
  for (let i = 0; i < d; i++) {
    const q = x0.slice();
    q[i]! += steps[i]!;
    simplex.push(q);
  }
  const values = simplex.map((q) => value(q));
  const order = Array.from({ length: d + 1 }, (_, i) => i);
  while (evaluations < maxEvaluations) {
    order.sort((a, b) => values[a]! - values[b]!);
    const best = order[0]!,
      worst = order[d]!,
      secondWorst = order[d - 1]!;
    if (Math.abs(values[worst]! - values[best]!) <= tolerance * Math.max(1, Math.abs(values[best]!))) break;
    const centroid = new Array<number>(d).fill(0);
    for (let k = 0; k < d; k++) {
      const q = simplex[order[k]!]!;
      for (let i = 0; i < d; i++) centroid[i]! += q[i]! / d;
    }
    const along = (t: number): number[] => centroid.map((c, i) => c + t * (simplex[worst]![i]! - c));
    const reflected = along(-1);
    const fr = value(reflected);
    if (fr < values[best]!) {
      const expanded = along(-2);
      const fe = value(expanded);
      if (fe < fr) {
        simplex[worst] = expanded;
        values[worst] = fe;
      } else {
        simplex[worst] = reflected;
        values[worst] = fr;
      }
    } else if (fr < values[secondWorst]!) {
      simplex[worst] = reflected;
      values[worst] = fr;
    } else {
      const contracted = fr < values[worst]! ? along(-0.5) : along(0.5);
      const fc = value(contracted);
      if (fc < Math.min(fr, values[worst]!)) {
        simplex[worst] = contracted;
        values[worst] = fc;
      } else {
        const b = simplex[best]!;
        for (const k of order.slice(1)) {
          simplex[k] = simplex[k]!.map((v, i) => b[i]! + 0.5 * (v - b[i]!));
          values[k] = value(simplex[k]!);
        }
      }
    }
  }
  let bestIndex = 0;
  for (let k = 1; k <= d; k++) if (values[k]! < values[bestIndex]!) bestIndex = k;
  return { x: simplex[bestIndex]!, f: values[bestIndex]!, evaluations };
}
