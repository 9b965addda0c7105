/**
 * What the blockage solve (blockageSolve.ts: wakes and induction to a fixed point) covers, declared
 * for the solve plan (solvePlan.ts, its only reader): one turbine model without neighbours, the
 * linear, sos or max superposition, no ground mirror, sites that are not uniform (as the waked
 * solve takes them), the rotor averages of the waked setup. JavaScript only.
 *
 * Why blockage stays in TypeScript (issue 41; measured with `node dist/bench/run.js blockage`,
 * 2026-12-08 00:26 UTC, 2 shared cores at load 9–13, CPU ms of one call; V80, Bastankhah 2014
 * linear, grids at 5D, 72 × 23 rose):
 *
 *   turbines   blockage (JS) AEP / +gradient   waked JS   waked native   blockage JS / waked native
 *   16             112 / 114                    36 / 13      1 / 1          ~150× / ~100×
 *   49             465 / 742                    26 / 26      3 / 6          135× / 124×
 *   100           2641 / 3835                   55 / 88     11 / 20         236× / 195×
 *
 * Blockage costs 30–50× the JavaScript waked solve itself: every pair in both directions (not only
 * upstream sources), several Gauss–Seidel sweeps per condition to 1e-10 m/s and an adjoint solved
 * by reverse sweeps. The native waked kernel is one downstream pass with the speeds as vector lanes;
 * a fixed point over all pairs with per-lane convergence does not fit that pass, so a port is a
 * second kernel (forward sweeps, induction pairs, reverse adjoint sweeps), not an option of the
 * first. The waked kernel's JS/native ratio on these farms (5–15×, bench section rotorground)
 * bounds what such a port would buy: 100 turbines from ~2.6 s to perhaps 0.2–0.5 s per AEP. Not
 * done in this turn, for want of time after the ground, rotor-average and ct2a ports; the solve
 * plan reports it ("blockage is solved in JavaScript only").
 */
import type { SolverDeclaration } from './solvePlanTypes.js';
import { AREA_OVERLAP_RULE, SITE_RULES } from './engine/wakedCovers.js';
import { mixedFarmWords } from './superposition/weightedSumCovers.js';

export const BLOCKAGE_SOLVER: SolverDeclaration = {
  solver: 'blockage',
  summary: 'wakes and induction solved together to a fixed point (blockageSolve.ts)',
  takes: (model) => model.blockage ? `the model has the blockage model ${model.blockage}` : null,
  refuses: [
    { field: 'ground', refuses: (m) => (m.ground ?? 'none') !== 'none' ? 'the ground mirror is not supported with blockage' : null },
    { field: 'superposition', refuses: (m) => m.superposition === 'weighted' ? 'blockage is solved with the linear, sos or max wake superposition, not weighted' : null },
    {
      field: 'blockage', needsFarm: true,
      refuses: (_m, f) => {
        const what = mixedFarmWords(f);
        return what ? `blockage is solved for farms of one turbine model without neighbours only, and this farm has ${what}: leave blockage out, or give the farm one model and no neighbours` : null;
      },
    },
    { field: 'blockage', refuses: (_m, _f, needs) => needs.mixedForm ? 'blockage is a one-model solve of its own (physics/aep.ts), not the waked solve over a mix of turbine types' : null },
    { field: 'blockage', refuses: (_m, _f, needs) => needs.perTurbineWeights ? 'blockage has no per-turbine weighted energy gradient (leave blockage out)' : null },
    { field: 'blockage', refuses: (_m, _f, needs) => needs.conditionFlows ? 'blockage is solved by its own engine: the flow of each condition covers the waked solve and the weighted sum (leave blockage out)' : null },
    // A site (speed-up, TI, shear, per-point Weibull): each turbine's own free stream, as the waked solve (blockageSolve.ts).
    ...SITE_RULES,
    AREA_OVERLAP_RULE,
  ],
  nativeDeclines: () => 'blockage is solved in JavaScript only',
};
