/**
 * Objective terms of the waked solve: what the solve's flow is worth, and where its adjoint starts.
 *
 * After the forward pass of every condition the solve hands the term the flow by downstream
 * position (effective speed, TI, Ct, each turbine's type and index); the term adds the condition's
 * value and, with the gradient, writes ∂J/∂u_p into `seed` (the backward pass's ū, in the term's
 * units per `gradientScale`). The solve knows nothing of energy: AEP is the term below, and other
 * objectives that depend on the solved flow (value-weighted energy, a loads proxy) are terms of their
 * own, passed to engine/solveWaked.ts. Objectives that depend on the layout in other ways (cables,
 * foundations, cost) combine with a term's total in optimize/ and need nothing from the solver.
 *
 * A direction may be solved twice (the candidate screen assumed a TI bound that a turbine then
 * exceeded): `startDirection` marks, `retryDirection` returns to the mark.
 */
import { powerAt, powerSlopeAt, type Turbine } from '../turbine.js';

/** The flow of one solved condition, by downstream position p (turbine order[p], type typeAt[p]). */
export interface ConditionFlow {
  /** Index of the condition in the setup's conditions, and its weight (probability or time share). */
  k: number;
  weight: number;
  /** A per-point Weibull site: each turbine's own probability of the condition, by position (times `weight`); null: `weight` for every turbine. */
  weightAt: Float64Array | null;
  n: number;
  /** Turbines with index < own are the farm's own (neighbours after them). */
  own: number;
  types: readonly Turbine[];
  order: Int32Array;
  typeAt: Int32Array;
  u: Float64Array;
  ti: Float64Array;
  ct: Float64Array;
}

export interface ObjectiveTerm {
  /** Gradient units per unit of seed (applied once per direction, when the wind-frame gradient is rotated back). */
  readonly gradientScale: number;
  /** A new evaluation of n turbines over nDir result directions. */
  begin(n: number, nDir: number): void;
  startDirection(): void;
  retryDirection(): void;
  /**
   * Adds the condition's value; with `seed`, writes ∂J/∂u by position (0 for turbines that do not
   * count) and, when flow.weightAt is given, ∂J/∂weightAt by position into `weightSeed`.
   */
  condition(flow: ConditionFlow, seed: Float64Array | null, weightSeed?: Float64Array | null): void;
  /** The direction is solved; its value goes to result direction `resultDirection`. */
  endDirection(resultDirection: number): void;
}

/**
 * AEP: Σ_d Σ_k w_k Σ_{own j} P(u_j) · hours · 1e-6 [MWh], by direction and by turbine (neighbours'
 * energy by turbine too, though it is not part of the AEP).
 */
export class AepTerm implements ObjectiveTerm {
  readonly gradientScale: number;
  perDirectionMwh = new Float64Array(0);
  perTurbineMwh = new Float64Array(0);
  private before = new Float64Array(0);
  private energyOfDirection = 0;

  constructor(hoursPerYear = 8760) {
    this.gradientScale = hoursPerYear * 1e-6;
  }

  begin(n: number, nDir: number): void {
    this.perDirectionMwh = new Float64Array(nDir);
    this.perTurbineMwh = new Float64Array(n);
    this.before = new Float64Array(n);
  }

  startDirection(): void {
    this.before.set(this.perTurbineMwh);
    this.energyOfDirection = 0;
  }

  retryDirection(): void {
    this.perTurbineMwh.set(this.before);
    this.energyOfDirection = 0;
  }

  condition(flow: ConditionFlow, seed: Float64Array | null, weightSeed?: Float64Array | null): void {
    const { n, own, types, order, typeAt, u, weight, weightAt } = flow;
    const mwh = this.gradientScale;
    const perTurbine = this.perTurbineMwh;
    let energyOfDirection = this.energyOfDirection;
    for (let p = 0; p < n; p++) {
      const energy = (weightAt !== null ? weight * weightAt[p] : weight) * powerAt(types[typeAt[p]], u[p]);
      if (order[p] < own) energyOfDirection += energy;
      perTurbine[order[p]] += energy * mwh;
    }
    this.energyOfDirection = energyOfDirection;
    if (seed)
      for (let p = 0; p < n; p++) seed[p] = order[p] < own ? (weightAt !== null ? weight * weightAt[p] : weight) * powerSlopeAt(types[typeAt[p]], u[p]) : 0;
    if (seed && weightAt !== null && weightSeed) for (let p = 0; p < n; p++) weightSeed[p] = order[p] < own ? weight * powerAt(types[typeAt[p]], u[p]) : 0;
  }

  endDirection(resultDirection: number): void {
    this.perDirectionMwh[resultDirection] += this.energyOfDirection * this.gradientScale;
  }

  /** Σ of the directions in order. */
  total(): number {
    let aep = 0;
    for (let d = 0; d < this.perDirectionMwh.length; d++) aep += this.perDirectionMwh[d];
    return aep;
  }
}
