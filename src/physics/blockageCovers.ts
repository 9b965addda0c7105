/**
 * What the blockage solve (blockageSolve.ts: wakes and induction to a fixed point) covers, declared
 * for the solve plan (solvePlan.ts, its only reader): several turbine models and neighbours (each
 * pair with its types' curves, diameters and hub heights; neighbours solved, not in the AEP), the
 * linear, sos or max superposition, no ground mirror, sites that are not uniform (as the waked
 * solve takes them), the rotor averages of the waked setup. JavaScript only.
 */
import type { SolverDeclaration } from './solvePlanTypes.js';
import { AREA_OVERLAP_RULE, SITE_RULES } from './engine/wakedCovers.js';

export const BLOCKAGE_SOLVER: SolverDeclaration = {
  solver: 'blockage',
  summary: 'wakes and induction solved together to a fixed point (blockageSolve.ts)',
  takes: (model) => model.blockage ? `the model has the blockage model ${model.blockage}` : null,
  refuses: [
    { field: 'ground', refuses: (m) => (m.ground ?? 'none') !== 'none' ? 'the ground mirror is not supported with blockage' : null },
    { field: 'superposition', refuses: (m) => m.superposition === 'weighted' ? 'blockage is solved with the linear, sos or max wake superposition, not weighted' : null },
    // A site (speed-up, TI, shear, per-point Weibull): each turbine's own free stream, as the waked solve (blockageSolve.ts).
    ...SITE_RULES,
    AREA_OVERLAP_RULE,
  ],
  nativeDeclines: () => 'blockage is solved in JavaScript only',
};
