/**
 * How the deficits of several upstream turbines combine at one downstream turbine.
 * A rule folds deficits one at a time into an accumulator, finishes it into the total deficit,
 * and gives ∂total/∂deficit_i for the exact gradient.
 */
export interface Superposition {
  readonly name: string;
  add(accumulator: number, deficit: number): number;
  finish(accumulator: number): number;
  /** ∂total/∂deficit for one contributor, given the finished total. */
  derivative(deficit: number, total: number): number;
}
