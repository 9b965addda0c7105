/**
 * A layout's constraint values and their Jacobian, as the optimizers use them
 * (optimize/layoutProblem.ts `layoutConstraints`, here unscaled: metres): g ≤ 0 is feasible, in the
 * order n boundary values (−signed distance to the site's edge), n per exclusion zone (zone by
 * zone: −clearance), then every pair i < j (s_ij + margin − distance). The Jacobian is sparse (a
 * boundary row touches one turbine, a pair row two): it is read from the optimizers' own
 * `addWeightedGradient`, with weights that make each turbine's entry belong to one row only —
 * one call per boundary group, and one per round of a round-robin schedule of the pairs (each
 * round a set of pairs no two of which share a turbine).
 */
import type { Case } from '../case/case.js';
import { caseSpacing } from '../optimize/caseEvaluator.js';
import { layoutConstraints } from '../optimize/layoutProblem.js';
import { prepareBoundary } from '../geometry/preparedBoundary.js';

export interface ConstraintValues {
  /** g_k(x, y) in metres; ≤ 0 where satisfied. */
  values: Float64Array;
  /** Non-zero pattern of ∂g/∂(x, y): row k, column j (j < n: x_j; j ≥ n: y_{j−n}), value. */
  jacRow: Float64Array;
  jacCol: Float64Array;
  jacValue: Float64Array;
  nBoundary: number;
  nZones: number;
  nPairs: number;
}

/** Rounds of a round-robin over n players: every pair i < j exactly once, no player twice in a round. */
function* pairRounds(n: number): Generator<[number, number][]> {
  const m = n % 2 === 0 ? n : n + 1; // m − 1 is a bye when n is odd
  for (let r = 0; r < m - 1; r++) {
    const round: [number, number][] = [];
    const add = (a: number, b: number) => {
      if (a < n && b < n) round.push(a < b ? [a, b] : [b, a]);
    };
    add(r, m - 1);
    for (let k = 1; k < m / 2; k++) add((r + k) % (m - 1), (r - k + m - 1) % (m - 1));
    yield round;
  }
}

export function constraintValues(c: Pick<Case, 'boundary' | 'turbines' | 'minSpacing'>, x: Float64Array, y: Float64Array, marginM: number): ConstraintValues {
  const n = x.length;
  const g = layoutConstraints(c.boundary, n, caseSpacing(c), 1, marginM);
  const z = new Float64Array(2 * n);
  z.set(x, 0);
  z.set(y, n);
  const values = new Float64Array(g.count);
  g.values(z, values);
  const nZones = c.boundary ? prepareBoundary(c.boundary).exclusions.length : 0;
  const nBoundary = c.boundary ? n * (1 + nZones) : 0;
  const nPairs = (n * (n - 1)) / 2;
  const entries = 2 * nBoundary + 4 * nPairs;
  const jacRow = new Float64Array(entries),
    jacCol = new Float64Array(entries),
    jacValue = new Float64Array(entries);
  let e = 0;
  const weights = new Float64Array(g.count),
    grad = new Float64Array(2 * n);
  const emit = (row: number, col: number) => {
    jacRow[e] = row;
    jacCol[e] = col;
    jacValue[e] = grad[col];
    e++;
  };
  for (let group = 0; group * n < nBoundary; group++) {
    weights.fill(0, 0, nBoundary).fill(1, group * n, (group + 1) * n);
    grad.fill(0);
    g.addWeightedGradient(z, weights, grad);
    for (let i = 0; i < n; i++) {
      emit(group * n + i, i);
      emit(group * n + i, n + i);
    }
  }
  weights.fill(0);
  const pairRow = (i: number, j: number) => nBoundary + i * n - (i * (i + 1)) / 2 + (j - i - 1);
  for (const round of pairRounds(n)) {
    for (const [i, j] of round) weights[pairRow(i, j)] = 1;
    grad.fill(0);
    g.addWeightedGradient(z, weights, grad);
    for (const [i, j] of round) {
      const row = pairRow(i, j);
      weights[row] = 0;
      emit(row, i);
      emit(row, j);
      emit(row, n + i);
      emit(row, n + j);
    }
  }
  if (e !== entries) throw new Error(`constraint Jacobian: ${e} entries written, ${entries} expected`);
  return { values, jacRow, jacCol, jacValue, nBoundary, nZones, nPairs };
}
