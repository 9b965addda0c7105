/**
 * Maximum superposition: δ_total = max_i δ_i (the dominant wake wins). The derivative is 1 for
 * the dominant contributor and 0 for the others (a subgradient at exact ties).
 */
import type { Superposition } from './superposition.js';

export const maxDeficit: Superposition = {
  name: 'max',
  add: (acc, deficit) => (deficit > acc ? deficit : acc),
  finish: (acc) => acc,
  derivative: (deficit, total) => (deficit === total && total > 0 ? 1 : 0),
};
