/**
 * What the blockage solve (blockageSolve.ts: wakes and induction to a fixed point) covers, declared
 * for the solve plan (solvePlan.ts, its only reader): several turbine models and neighbours (each
 * pair with its types' curves, diameters and hub heights; neighbours solved, not in the AEP), the
 * linear, sos or max superposition, or the weighted sum as it takes it (weightedBlockageSolve.ts,
 * the AEP only), no ground mirror, sites that are not uniform (as the waked
 * solve takes them), the rotor averages of the waked setup. JavaScript only.
 */
import type { FarmShape, SolverDeclaration } from './solvePlanTypes.js';
import type { FarmModelSpec } from './farmModel.js';
import { WEIGHTED_SUM_SOLVER } from './superposition/weightedSumCovers.js';
import { AREA_OVERLAP_RULE, SITE_RULES } from './engine/wakedCovers.js';

export const BLOCKAGE_SOLVER: SolverDeclaration = {
  solver: 'blockage',
  summary: 'wakes and induction solved together to a fixed point (blockageSolve.ts)',
  takes: (model) => model.blockage ? `the model has the blockage model ${model.blockage}${model.superposition === 'weighted' ? ', around the weighted wake sum (weightedBlockageSolve.ts)' : ''}` : null,
  refuses: [
    { field: 'ground', refuses: (m) => (m.ground ?? 'none') !== 'none' ? 'the ground mirror is not supported with blockage' : null },
    // With the weighted sum (weightedBlockageSolve.ts): what the weighted sum takes (sites as below), the AEP without a gradient.
    ...WEIGHTED_SUM_SOLVER.refuses.filter((rule) => !SITE_RULES.includes(rule)).map((rule) => ({ ...rule, refuses: (m: FarmModelSpec, f: FarmShape) => m.superposition === 'weighted' ? rule.refuses(m, f) : null })),
    // A site (speed-up, TI, shear, per-point Weibull): each turbine's own free stream, as the waked solve (blockageSolve.ts).
    ...SITE_RULES,
    AREA_OVERLAP_RULE,
  ],
  nativeDeclines: () => 'blockage is solved in JavaScript only',
};
