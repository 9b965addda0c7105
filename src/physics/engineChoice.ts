/**
 * The solve plan's rules under the names the input readers and engines import: which combinations
 * of models a farm may use (`farmConflict`, asked by every input reader and every engine), the
 * inflow a model resolves to, and the error a refused combination raises. The choosing itself —
 * solver, kernel and why — is solvePlan.ts's alone, from what each solver declares it covers.
 */
import { farmConflict } from './solvePlan.js';
import type { FarmModelSpec } from './farmModel.js';

export { farmConflict, oneModelFarm } from './solvePlan.js';
export { inflowOf, usesFreeStreamEngine } from './engine/freeStreamCovers.js';
export { FarmConflictError } from './farmConflictError.js';
export type { FarmConflict, FarmShape, SolverKind as EngineKind } from './solvePlanTypes.js';

/** Why a model's ground cannot be computed with its other options, or null (the `ground` field's line). */
export function groundConflict(model: FarmModelSpec): string | null {
  const conflict = farmConflict(model);
  return conflict && conflict.field === 'ground' ? conflict.message : null;
}
