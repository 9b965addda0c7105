/**
 * Root-sum-square superposition: δ_total = √(Σ δ_i²) (Katić et al., EWEC 1986; the IEA37
 * case-study rule). ∂δ_total/∂δ_i = δ_i / δ_total.
 */
import type { Superposition } from './superposition.js';

export const sumOfSquares: Superposition = {
  name: 'sos',
  add: (acc, deficit) => acc + deficit * deficit,
  finish: (acc) => Math.sqrt(acc),
  derivative: (deficit, total) => (total > 0 ? deficit / total : 0),
};
