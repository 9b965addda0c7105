/**
 * The contract every wake deficit model implements (one model per file in this folder).
 *
 * A model is prepared once per flow condition (its thrust coefficient and rotor diameter), which
 * gives a kernel: a small immutable object evaluated for every (source, target) pair with the
 * target's position relative to the source in the wind frame (dx downstream, dy crosswind, metres).
 * The deficit is a fraction of the free-stream speed; 0 where the target is not waked (dx <= 0).
 */
export interface WakeKernel {
  /** Deficit at (dx, dy). */
  value(dx: number, dy: number): number;
  /**
   * Deficit at (dx, dy); writes ∂deficit/∂dx to out[offset] and ∂deficit/∂dy to out[offset + 1].
   */
  valueAndGradient(dx: number, dy: number, out: Float64Array, offset: number): number;
}

export interface WakeDeficitModel {
  readonly name: string;
  /** Parameter names with their defaults (documented in the model's file). */
  readonly defaults: Readonly<Record<string, number>>;
  /** Whether the deficit depends on Ct (then kernels are prepared per Ct value). */
  prepare(ct: number, diameter: number, params: Readonly<Record<string, number>>): WakeKernel;
}
