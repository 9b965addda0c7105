/**
 * A per-turbine weighted AEP term of the waked solve: J = Σ_{own i} w_i · AEP_i [MWh-weighted], with
 * AEP_i = Σ_d Σ_k w_k P(u_i) · hours · 1e-6. Its adjoint seed is w_i · w_k · P'(u_i) for turbine i at
 * its downstream position, so one backward pass gives ∂J/∂(x, y) for any weights (an economic
 * objective's ∂LCOE/∂AEP_i, which may differ by turbine). Neighbours (index ≥ own) count for
 * nothing; their energy is still reported by turbine.
 */
import { powerAt, powerSlopeAt } from '../turbine.js';
import type { ConditionFlow, ObjectiveTerm } from './objective.js';

export class WeightedAepTerm implements ObjectiveTerm {
  readonly gradientScale: number;
  /** Energy by turbine (neighbours included), MWh. */
  perTurbineMwh = new Float64Array(0);
  /** Σ_i w_i · AEP_i over own turbines. */
  weightedMwh = 0;
  private before = new Float64Array(0);
  private weightedBefore = 0;

  /** weights[i] for own turbine i (length: the farm's own turbine count). */
  constructor(
    readonly weights: Float64Array,
    hoursPerYear = 8760,
  ) {
    this.gradientScale = hoursPerYear * 1e-6;
  }

  begin(n: number, _nDir: number): void {
    this.perTurbineMwh = new Float64Array(n);
    this.before = new Float64Array(n);
    this.weightedMwh = 0;
  }

  startDirection(): void {
    this.before.set(this.perTurbineMwh);
    this.weightedBefore = this.weightedMwh;
  }

  retryDirection(): void {
    this.perTurbineMwh.set(this.before);
    this.weightedMwh = this.weightedBefore;
  }

  condition(flow: ConditionFlow, seed: Float64Array | null, weightSeed?: Float64Array | null): void {
    const { n, own, types, order, typeAt, u, weight, weightAt } = flow;
    const mwh = this.gradientScale;
    const w = this.weights;
    let weighted = 0;
    for (let p = 0; p < n; p++) {
      const i = order[p];
      const energy = (weightAt !== null ? weight * weightAt[p] : weight) * powerAt(types[typeAt[p]], u[p]);
      this.perTurbineMwh[i] += energy * mwh;
      if (i < own) weighted += w[i] * energy;
    }
    this.weightedMwh += weighted * mwh;
    if (seed)
      for (let p = 0; p < n; p++)
        seed[p] = order[p] < own ? w[order[p]] * (weightAt !== null ? weight * weightAt[p] : weight) * powerSlopeAt(types[typeAt[p]], u[p]) : 0;
    if (seed && weightAt !== null && weightSeed)
      for (let p = 0; p < n; p++) weightSeed[p] = order[p] < own ? w[order[p]] * weight * powerAt(types[typeAt[p]], u[p]) : 0;
  }

  endDirection(_resultDirection: number): void {}
}
