/**
 * Linear superposition: δ_total = Σ δ_i (Lissaman 1979). ∂δ_total/∂δ_i = 1.
 * Not clipped: a total above 1 gives a negative speed, which produces no power.
 */
import type { Superposition } from './superposition.js';

export const linear: Superposition = {
  name: 'linear',
  add: (acc, deficit) => acc + deficit,
  finish: (acc) => acc,
  derivative: () => 1,
};
