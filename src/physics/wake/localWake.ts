/**
 * The contract of the wake deficit models used by the waked-inflow engine (wakedAep.ts), where a
 * source turbine's wake depends on the flow it actually sees: its thrust coefficient Ct (taken at
 * its effective speed) and its turbulence intensity TI.
 *
 * A model is built once from its parameters. For each source and flow condition,
 * `prepareSource(ct, ti)` writes the source's coefficients (`coefficientCount` numbers) into a
 * Float64Array at an offset; `deficit` then gives, for a point at (dx downstream, cw² squared
 * crosswind distance) from that source, the deficit as a fraction of the reference speed, and if
 * asked its partial derivatives: g[0] = ∂/∂dx, g[1] = ∂/∂cw², g[2] = ∂/∂Ct, g[3] = ∂/∂TI.
 * `wakeRadius` (used by added-turbulence models) gives the radius with g[0] = ∂/∂dx,
 * g[1] = ∂/∂Ct, g[2] = ∂/∂TI.
 */
export interface LocalWakeModel {
  readonly name: string;
  readonly coefficientCount: number;
  /** True when the wake depends on the source's turbulence intensity. */
  readonly usesTurbulence: boolean;
  /** True for a top-hat wake averaged over the target rotor by area overlap (Jensen). */
  readonly averagesOverRotor: boolean;
  prepareSource(ct: number, ti: number, coef: Float64Array, offset: number): void;
  deficit(dx: number, cw2: number, coef: Float64Array, offset: number, g: Float64Array | null): number;
  /**
   * Optional, for rotor averages: atDistance(dx, …) keeps the part of deficit() that depends on dx
   * only; deficitAtRadius(cw², g) then gives deficit(dx, cw², …) bit for bit for each point at that
   * distance (g given exactly when atDistance was told `withGradient`).
   */
  atDistance?(dx: number, coef: Float64Array, offset: number, withGradient: boolean): void;
  deficitAtRadius?(cw2: number, g: Float64Array | null): number;
  wakeRadius(dx: number, coef: Float64Array, offset: number, g: Float64Array | null): number;
  /**
   * Crosswind distance beyond which `deficit` returns exactly 0 and which exceeds the wake radius,
   * for every source with Ct ≤ ctMax and TI ≤ tiMax (Infinity when the model cannot bound it). The engine skips
   * such pairs once per direction instead of once per speed; results do not change.
   */
  reach(dx: number, ctMax: number, tiMax: number): number;
}

/** What a model factory receives: parameters by name and the turbine geometry. */
export interface LocalWakeSetup {
  params: Readonly<Record<string, number>>;
  diameter: number;
  /** Target rotor radius (the area-overlap average of top-hat models). */
  targetRadius: number;
  induction: 'mom1d' | 'madsen';
  /** Area-overlap averaging for top-hat models (false: the value at the evaluation point). */
  areaOverlap: boolean;
}

export interface LocalWakeFactory {
  readonly name: string;
  /** Parameter defaults (documented in each model's file). */
  readonly defaults: Readonly<Record<string, number>>;
  create(setup: LocalWakeSetup): LocalWakeModel;
}
