/**
 * What the blockage solve (blockageSolve.ts: wakes and induction to a fixed point) covers, declared
 * for the solve plan (solvePlan.ts, its only reader): several turbine models and neighbours (each
 * pair with its types' curves, diameters and hub heights; neighbours solved, not in the AEP), the
 * linear, sos or max superposition, or the weighted sum as it takes it (weightedBlockageSolve.ts,
 * the AEP only), no ground mirror, sites that are not uniform (as the waked
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
import type { CoverRule, FarmShape, SolveNeeds, SolverDeclaration } from './solvePlanTypes.js';
import type { FarmModelSpec } from './farmModel.js';
import { mixedFarmWords } from './superposition/weightedSumCovers.js';
import { deficitModel } from './wake/registry.js';
import { usesFreeStreamEngine } from './engine/freeStreamCovers.js';
import { AREA_OVERLAP_RULE, SITE_RULES } from './engine/wakedCovers.js';

const no = (why: string): string => `blockage with the weighted sum ${why}; use 'linear' or 'sos'`;

/** What blockage around the weighted sum (weightedBlockageSolve.ts) does not take. */
const WEIGHTED_WITH_BLOCKAGE: readonly CoverRule[] = [
  {
    field: 'superposition',
    refuses: (_m, _f, needs) => (needs.mixedForm ? no('is a one-model solve of its own (physics/aep.ts), not the solve over a mix of turbine types') : null),
  },
  { field: 'ground', refuses: (m) => ((m.ground ?? 'none') !== 'none' ? 'the ground mirror is not supported with blockage' : null) },
  {
    field: 'superposition',
    needsFarm: true,
    refuses: (_m, f) => {
      const what = mixedFarmWords(f);
      return what ? no(`evaluates farms of one turbine model without neighbours only, and this farm has ${what}`) : null;
    },
  },
  { field: 'superposition', needsFarm: true, refuses: (_m, f) => (f.wind.series ? no('does not take a time series yet') : null) },
  {
    field: 'superposition',
    needsFarm: true,
    refuses: (_m, f) => (f.wind.turbulenceIntensityByBin ? no('does not take a turbulence intensity per bin yet') : null),
  },
  {
    field: 'superposition',
    needsFarm: true,
    refuses: (m) => (deficitModel(m.wake)?.profile !== 'gaussian' ? no(`needs a Gaussian wake model, not ${m.wake}`) : null),
  },
  {
    field: 'superposition',
    needsFarm: true,
    refuses: (m) =>
      m.rotorAverage !== undefined && m.rotorAverage !== 'center'
        ? no(`is evaluated at the rotor centre only, not with the '${m.rotorAverage}' rotor average`)
        : null,
  },
  {
    field: 'superposition',
    needsFarm: true,
    refuses: (m) =>
      m.turbulenceSuperposition !== undefined && m.turbulenceSuperposition !== 'sqrmax'
        ? no(`takes the sqrmax added-turbulence superposition only, not ${m.turbulenceSuperposition}`)
        : null,
  },
  {
    field: 'superposition',
    needsFarm: true,
    refuses: (m, f) =>
      usesFreeStreamEngine(f.types[0], m)
        ? no(`runs in the waked-inflow engine, which ${m.wake} with a constant Ct does not use (give the turbine a Ct_curve, or a model such as niayifar2016)`)
        : null,
  },
];

export const BLOCKAGE_SOLVER: SolverDeclaration = {
  solver: 'blockage',
  summary: 'wakes and induction solved together to a fixed point (blockageSolve.ts)',
  takes: (model) =>
    model.blockage
      ? `the model has the blockage model ${model.blockage}${model.superposition === 'weighted' ? ', around the weighted wake sum (weightedBlockageSolve.ts)' : ''}`
      : null,
  refuses: [
    { field: 'ground', refuses: (m) => ((m.ground ?? 'none') !== 'none' ? 'the ground mirror is not supported with blockage' : null) },
    // With the weighted sum (weightedBlockageSolve.ts, written for these): one model without neighbours, a rose with one TI, a
    // Gaussian wake at the rotor centre, sqrmax, the waked inflow (sites as below). Stated here, not borrowed from the weighted
    // sum's declaration, so that lifting one of the weighted sum's refusals does not lift it for this solve.
    ...WEIGHTED_WITH_BLOCKAGE.map((rule) => ({
      ...rule,
      refuses: (m: FarmModelSpec, f: FarmShape, needs: SolveNeeds) => (m.superposition === 'weighted' ? rule.refuses(m, f, needs) : null),
    })),
    {
      field: 'blockage',
      refuses: (_m, _f, needs) => (needs.perTurbineWeights ? 'blockage has no per-turbine weighted energy gradient (leave blockage out)' : null),
    },
    {
      field: 'blockage',
      refuses: (_m, _f, needs) =>
        needs.conditionFlows
          ? 'blockage is solved by its own engine: the flow of each condition covers the waked solve and the weighted sum (leave blockage out)'
          : null,
    },
    // A site (speed-up, TI, shear, per-point Weibull): each turbine's own free stream, as the waked solve (blockageSolve.ts).
    ...SITE_RULES,
    AREA_OVERLAP_RULE,
  ],
  nativeDeclines: () => 'blockage is solved in JavaScript only',
};
