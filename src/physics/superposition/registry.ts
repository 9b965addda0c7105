/** Superposition rules by name. */
import type { SuperpositionName } from '../farmModel.js';
import type { Superposition } from './superposition.js';
import { sumOfSquares } from './sumOfSquares.js';
import { linear } from './linear.js';
import { maxDeficit } from './max.js';

/** Rules that fold deficits one at a time (the weighted sum is a solve of its own: weightedSum.ts). */
export const SUPERPOSITIONS: Readonly<Partial<Record<SuperpositionName, Superposition>>> = {
  sos: sumOfSquares,
  linear,
  max: maxDeficit,
};
