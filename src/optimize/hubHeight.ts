/**
 * Hub height as a design variable (issue 31): a case's `optimize: {hub_height: {min, max}}` lets
 * the gradient method choose one hub height for the farm's turbine model (every turbine of the type
 * shares it) within [min, max], alongside the positions. The scaled variables of layoutProblem.ts
 * gain one entry, z = [x/L, y/L, h/H] with H = HUB_SCALE_M, and two bound constraints
 * (min − h)/H ≤ 0, (h − max)/H ≤ 0. H is a metre, not the rotor diameter: ∂AEP/∂h summed over the
 * farm is n times a turbine's, and in units of L it sent L-BFGS's first steps to negative heights
 * (measured on examples/hub-height-shear.yaml). An iterate outside the bounds is evaluated at the
 * nearest bound (zero gradient in h there): the bound constraints' penalty brings it back.
 *
 * The gradient ∂AEP/∂h is exact through the site's free stream (engine/siteWork.ts, and the native
 * kernel's site adjoints chained in physics/wakedNative.ts: the shear
 * f(h) and a speed-up or TI field's h dimension, U·Ū_p·(∂s/∂h·f + s·f') + T̄I₀_p·∂T/∂h summed over
 * the turbines). Nothing else in the solve depends on h when every turbine has the same hub height
 * (vertical offsets between turbines are 0) and there is no ground mirror (whose image sits at −h):
 * hubHeightProblem refuses the cases where something would (several models, neighbours, the
 * mirror), where nothing does (no shear, no field over h: the variable would change nothing), and
 * a cost objective (the cost model's tower cost depends on the height; not differentiated yet).
 */
import type { Case } from '../case/case.js';
import type { FarmModelSpec } from '../physics/farmModel.js';
import { siteDependsOnHeight } from '../physics/site/site.js';
import { createFarmEvaluator } from '../physics/aep.js';
import type { InequalityConstraints } from './augmentedLagrangian.js';
import type { ObjectiveWithGradient } from './objective.js';
import type { FarmEvaluator } from '../physics/aep.js';

/** The hub height's unit in the scaled variables, metres. */
export const HUB_SCALE_M = 1;

/** The bounds of the hub-height variable, metres. */
export interface HubHeightRange {
  min: number;
  max: number;
}

/** Why a case cannot optimize its hub height (one sentence), or null; `field` is the case field to name. */
export function hubHeightProblem(c: Case, range: HubHeightRange): { field: string; message: string } | null {
  const at = 'optimize.hub_height';
  if (!(range.min < range.max)) return { field: at, message: `min (${range.min} m) must be below max (${range.max} m)` };
  if (range.min < c.turbine.diameter / 2)
    return { field: `${at}.min`, message: `min (${range.min} m) is below half the rotor diameter (${c.turbine.diameter} m): the blades would hit the ground` };
  if (range.max > 400) return { field: `${at}.max`, message: `max (${range.max} m) is above 400 m (the tallest hubs built are about 200 m): metres expected` };
  if (c.turbines !== undefined || (c.neighbours !== undefined && c.neighbours.x.length > 0)) {
    return {
      field: at,
      message:
        'a hub height is optimized for a farm of one turbine model without neighbours only (different hub heights put vertical offsets into the wakes, which the gradient does not differentiate yet)',
    };
  }
  if (c.model.ground === 'mirror')
    return { field: at, message: 'not with ground: mirror (the image turbine sits at −h, which the gradient does not differentiate yet)' };
  // The weighted sum's tangents (superposition/weightedSumGradient.ts) are by coordinate only; blockage returns ∂AEP/∂h (blockageSolve.ts).
  if (c.model.superposition === 'weighted')
    return { field: at, message: "not with superposition: weighted (its gradient does not carry ∂/∂h through the site yet): use 'linear' or 'sos'" };
  const site = c.model.site;
  if (!site || !siteDependsOnHeight(site)) {
    return {
      field: at,
      message: 'the hub height would change nothing: the case has no site shear and no speedup or ti field over h (give site.shear, or a field with an h grid)',
    };
  }
  if (c.objective !== undefined && c.objective !== 'aep') {
    return {
      field: at,
      message: `not with objective '${c.objective}' yet (the cost model's tower cost depends on the hub height; its derivative is not wired): optimize the AEP`,
    };
  }
  if (site.weibull)
    return {
      field: at,
      message: "not on a per-point Weibull site yet (the derivative of each turbine's probabilities with respect to the height is not wired)",
    };
  if (site.shear?.kind === 'log' && !(range.min > site.shear.z0))
    return { field: `${at}.min`, message: `min (${range.min} m) must be above the log law's z0 (${site.shear.z0} m)` };
  if (site.outside !== 'limit') {
    for (const field of [site.speedup, site.ti]) {
      const a = field ? field.dims.indexOf('h') : -1;
      if (a < 0) continue;
      const g = field!.coords[a];
      if (range.min < g[0] || range.max > g[g.length - 1]) {
        return {
          field: at,
          message: `[${range.min}, ${range.max}] m reaches outside site.${field!.name}'s h grid (${g[0]}…${g[g.length - 1]} m; extend the grid or narrow the range)`,
        };
      }
    }
  }
  return null;
}

/** The case with its turbine model at hub height h. */
export function withHubHeight(c: Case, h: number): Case {
  return { ...c, turbine: { ...c.turbine, hubHeight: h } };
}

/** Where the variable starts: the turbine's own hub height, moved into the range. */
export function startHubHeight(c: Case, range: HubHeightRange): number {
  return Math.min(Math.max(c.turbine.hubHeight, range.min), range.max);
}

/** The case's evaluator at hub height h (the last one kept: a line search asks for the same h many times). */
function evaluatorAt(c: Case, model: FarmModelSpec): (h: number) => FarmEvaluator {
  let lastH = NaN;
  let last: FarmEvaluator | null = null;
  return (h) => {
    // The solve plan gives the kernel that computes ∂AEP/∂h (gradH): the native one where it takes the model (physics/solvePlan.ts).
    // A new height: the last evaluator's own at h where its engine has one (the native kernel's shares its configuration).
    if (last === null || h !== lastH) {
      last = last?.atHubHeight?.(h) ?? createFarmEvaluator(withHubHeight(c, h).turbine, c.wind, model, undefined, 'best', { hubHeightGradient: true });
      lastH = h;
    }
    return last;
  };
}

/** −1000·AEP/aepRef of z = [x/L, y/L, h/H] with its exact gradient (layoutProblem.ts's aepObjective with the hub height). */
export function aepHubObjective(
  c: Case,
  range: HubHeightRange,
  model: FarmModelSpec,
  scale: number,
  aepRef: number,
  counter: { evaluations: number },
): ObjectiveWithGradient {
  const at = evaluatorAt(c, model);
  const factor = -1000 / aepRef;
  return (z, grad) => {
    const n = (z.length - 1) / 2;
    const x = new Float64Array(n),
      y = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      x[i] = z[i] * scale;
      y[i] = z[n + i] * scale;
    }
    const raw = z[2 * n] * HUB_SCALE_M;
    const h = Math.min(Math.max(raw, range.min), range.max);
    const r = at(h).aepWithGradient(x, y) as ReturnType<FarmEvaluator['aepWithGradient']> & { gradH?: Float64Array };
    counter.evaluations++;
    let gh = 0;
    if (r.gradH && h === raw) for (let i = 0; i < n; i++) gh += r.gradH[i];
    for (let i = 0; i < n; i++) {
      grad[i] = factor * r.gradX[i] * scale;
      grad[n + i] = factor * r.gradY[i] * scale;
    }
    grad[2 * n] = factor * gh * HUB_SCALE_M;
    return factor * r.aepMwh;
  };
}

/** The layout's constraints (on the first 2n variables) and the hub height's two bounds (variable 2n). */
export function withHubBounds(inner: InequalityConstraints, n: number, range: HubHeightRange): InequalityConstraints {
  const m = inner.count;
  return {
    count: m + 2,
    values(z, out) {
      inner.values(z, out);
      out[m] = range.min / HUB_SCALE_M - z[2 * n];
      out[m + 1] = z[2 * n] - range.max / HUB_SCALE_M;
    },
    addWeightedGradient(z, w, grad) {
      inner.addWeightedGradient(z, w, grad);
      grad[2 * n] += w[m + 1] - w[m];
    },
  };
}
