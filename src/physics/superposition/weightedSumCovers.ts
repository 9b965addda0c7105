/**
 * What the weighted-sum solve (superposition/weightedSum.ts, Zong & Porté-Agel's momentum-conserving
 * sum) covers, declared for the solve plan (solvePlan.ts, its only reader): one turbine model
 * without neighbours, a Gaussian wake model at the rotor centre, a rose (one TI or a TI per bin) or a time series, the sqrmax
 * added turbulence, the waked inflow, no ground; sites that are not uniform as the waked solve
 * takes them. JavaScript only.
 */
import { deficitModel } from '../wake/registry.js';
import type { FarmShape, SolverDeclaration } from '../solvePlanTypes.js';
import { usesFreeStreamEngine } from '../engine/freeStreamCovers.js';
import { SITE_RULES } from '../engine/wakedCovers.js';

/** "several turbine models and neighbours", "several turbine models", "neighbouring turbines" or null. */
export function mixedFarmWords(farm: FarmShape): string | null {
  const several = farm.types.length > 1;
  if (!several && !farm.neighbours) return null;
  return several && farm.neighbours ? 'several turbine models and neighbours' : several ? 'several turbine models' : 'neighbouring turbines';
}

const no = (why: string): string => `the weighted sum ${why}; use 'linear' or 'sos'`;

export const WEIGHTED_SUM_SOLVER: SolverDeclaration = {
  solver: 'weighted-sum',
  summary: "Zong & Porté-Agel's momentum-conserving weighted sum (superposition/weightedSum.ts), a solve of its own",
  takes: (model) => (model.superposition === 'weighted' ? "the model's superposition is 'weighted'" : null),
  refuses: [
    // A site (speed-up, TI, shear, per-point Weibull): each turbine's own free stream (weightedSum.ts), as the waked solve takes it.
    ...SITE_RULES,
    {
      field: 'ground',
      refuses: (m) => ((m.ground ?? 'none') !== 'none' ? "the ground mirror is not supported with the weighted sum (use 'linear' or 'sos')" : null),
    },
    {
      field: 'superposition',
      needsFarm: true,
      refuses: (_m, f) => {
        const what = mixedFarmWords(f);
        return what ? no(`evaluates farms of one turbine model without neighbours only, and this farm has ${what}`) : null;
      },
    },
    {
      field: 'superposition',
      refuses: (_m, _f, needs) =>
        needs.mixedForm ? no('is a one-model solve of its own (physics/aep.ts), not the waked solve over a mix of turbine types') : null,
    },
    { field: 'superposition', refuses: (_m, _f, needs) => (needs.perTurbineWeights ? no('has no per-turbine weighted energy gradient') : null) },
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
      // Only an explicit `inflow: free-stream` (Ct at the free stream, PyWake has no such solve with its WeightedSum): without one the weighted sum takes the waked inflow.
      refuses: (m, f) =>
        usesFreeStreamEngine(f.types[0], m) ? no("is a waked-inflow solve (PyWake's PropagateDownwind): leave `inflow: free-stream` out") : null,
    },
  ],
  nativeDeclines: () => 'the weighted sum is solved in JavaScript only',
};
