/** Superposition rules by name. */
import type { SuperpositionName } from '../farmModel.js';
import type { Superposition } from './superposition.js';
import { sumOfSquares } from './sumOfSquares.js';
import { linear } from './linear.js';
import { maxDeficit } from './max.js';

export const SUPERPOSITIONS: Readonly<Record<SuperpositionName, Superposition>> = {
  sos: sumOfSquares,
  linear,
  max: maxDeficit,
};
