/**
 * Everything about a waked evaluation that does not depend on the layout: the turbine types and
 * the wind conditions, and the components the solve is assembled from, each chosen once here —
 * the wake deficit model of every (source type, target type) pair, the superposition rule, added
 * turbulence, the rotor average, the ground, the deficit reference and TI feedback — together
 * with the fast path the forward pass takes (`batch`: the linear-width Gaussian's batch form at
 * the rotor centre; else the pointwise pair deficit of engine/pairDeficit.ts).
 */
import type { Turbine } from '../turbine.js';
import type { WindResource } from '../windResource.js';
import { wakeModelOf, type FarmModelSpec } from '../farmModel.js';
import type { Superposition } from '../superposition/superposition.js';
import { SUPERPOSITIONS } from '../superposition/registry.js';
import type { LocalWakeModel } from '../wake/localWake.js';
import { CrespoHernandez, type TurbulenceSuperpositionName } from '../turbulence/crespoHernandez.js';
import { rotorPoints, type RotorPoints } from '../rotor/rotorPoints.js';
import { GaussianLocalWake } from '../wake/gaussianLocal.js';
import { windConditions, type WindConditions } from '../windConditions.js';
import { siteTiMax, type Site } from '../site/site.js';
import { weibullBins } from '../site/siteWeibull.js';
import { checkWakedSetup } from '../solvePlan.js';

export interface WakedSetup {
  /** The first (with one type, the only) turbine type. */
  turbine: Turbine;
  /** Turbine types a TurbineMix indexes (length T ≥ 1). */
  types: readonly Turbine[];
  wind: WindResource;
  /** The model of type 0 waking type 0. */
  model: LocalWakeModel;
  /** Wake model of source type a on target type b at [a·T + b]. */
  pairModels: LocalWakeModel[];
  superposition: Superposition;
  /** The superposition rule as the inline code of the passes: 0 linear, 1 squared sum, 2 max. */
  supKind: number;
  turbulence: CrespoHernandez | null;
  /** Added turbulence of source type a on target type b at [a·T + b] (null without a turbulence model). */
  pairTurbulence: CrespoHernandez[] | null;
  turbulenceSuperposition: TurbulenceSuperpositionName;
  referenceIsEffective: boolean;
  /** The free-stream reference is the target's own free stream U_p (TurbOPark, `WS_jlk`), not the source's U_q: differs on a site only. */
  referenceIsTarget: boolean;
  useEffectiveTi: boolean;
  freeStream: boolean;
  points: RotorPoints | null;
  /** 1/ξ for wake expansion continuation (crosswind distances divided by ξ, as PyWake's `wec`). */
  invWec: number;
  /** The ground as a mirror: each pair's deficit also from the source's image below the ground (farmModel.ts `ground`). */
  mirror: boolean;
  /**
   * The forward pass's fast path: the linear-width Gaussian's batch form (wake/gaussianLocal.ts
   * accumulateLinearGaussian) with its Ct→a relation, or null for the pointwise pair deficit.
   */
  batch: 'mom1d' | 'madsen' | null;
  /** Performance hint, not a result input: the largest effective TI seen so far, times 1.05. */
  hint: { tiCap: number };
  /** Largest thrust coefficient of any type (bounds every wake's reach), and by type. */
  ctMax: number;
  ctMaxByType: Float64Array;
  /** By type: rotor radius, D²/8 of the Gaussian models (0 for others). */
  radiusByType: Float64Array;
  d2ByType: Float64Array;
  maxRadius: number;
  minDiameter: number;
  minCutIn: number;
  cosByDir: Float64Array;
  sinByDir: Float64Array;
  /** The directions and (speed, weight, TI) conditions visited (windConditions.ts); cos/sinByDir are by its directions. */
  conditions: WindConditions;
  /** A site that is not uniform (site/site.ts; engine/siteWork.ts), or null: one free stream for every turbine. */
  site: Site | null;
  /**
   * A per-point Weibull site (site/siteWeibull.ts): each condition's speed bin and the factor w_d/w_s;
   * the conditions' weights are then 1 and each turbine's own probability multiplies its power.
   */
  weibullBins: { lower: Float64Array; upper: Float64Array; scale: number } | null;
  /** The largest ambient TI of any turbine: the rose's (conditions.tiMax), or the site's TI field's if larger. */
  ambientTiMax: number;
}

/** The inline code of a superposition rule: 0 linear, 1 squared sum, 2 max. */
export function superpositionKind(name: string): number {
  return name === 'linear' ? 0 : name === 'sos' ? 1 : 2;
}

export function wakedSetup(turbines: Turbine | readonly Turbine[], wind: WindResource, spec: FarmModelSpec): WakedSetup {
  const types: readonly Turbine[] = Array.isArray(turbines) ? turbines : [turbines as Turbine];
  if (types.length === 0) throw new Error('a waked setup needs at least one turbine type');
  const turbine = types[0];
  // What no solver building this setup computes (area overlap without a top hat, a site with the free-stream inflow, a
  // per-point Weibull site over a time series): the waked solver's declaration, read by the solve plan (exit 2, one line).
  checkWakedSetup(spec, { types, neighbours: false, wind });
  const wake = wakeModelOf(spec.wake);
  const defaults = wake.wakedDefaults;
  const factory = wake.waked;
  const superposition = SUPERPOSITIONS[spec.superposition];
  if (!superposition) throw new Error(`unknown superposition '${spec.superposition}'`);
  const rotorAverage = spec.rotorAverage ?? defaults.rotorAverage;
  const areaOverlap = rotorAverage === 'area-overlap';
  const pairModels: LocalWakeModel[] = [];
  for (const source of types) {
    for (const target of types) {
      pairModels.push(
        factory.create({
          params: spec.params ?? {},
          diameter: source.diameter,
          targetRadius: target.diameter / 2,
          induction: spec.ct2a ?? defaults.ct2a,
          areaOverlap,
        }),
      );
    }
  }
  const model = pairModels[0];
  const turbulenceName = spec.turbulence ?? defaults.turbulence;
  const pairTurbulence =
    turbulenceName === 'crespo-hernandez'
      ? types.flatMap((source) =>
          types.map(
            (target) =>
              new CrespoHernandez(
                { ...defaults.turbulenceParams, ...spec.turbulenceParams },
                spec.turbulenceCt2a ?? 'mom1d',
                source.diameter,
                target.diameter / 2,
                true,
              ),
          ),
        )
      : null;
  const turbulence = pairTurbulence ? pairTurbulence[0] : null;
  const ctMaxByType = Float64Array.from(types, (t) => (t.thrust.kind === 'constant' ? t.thrust.ct : Math.max(...t.thrust.ct)));
  let conditions = windConditions(wind);
  const weibull = spec.site?.weibull ?? null;
  let bins: WakedSetup['weibullBins'] = null;
  if (weibull) {
    // Each turbine's own probabilities replace the rose's (a time series is refused above: checkWakedSetup).
    const b = weibullBins(wind.speeds, conditions.directionsDeg);
    const ns = wind.speeds.length;
    bins = {
      lower: Float64Array.from({ length: conditions.count }, (_, k) => b.lower[k % ns]),
      upper: Float64Array.from({ length: conditions.count }, (_, k) => b.upper[k % ns]),
      scale: b.wdBin / weibull.sectorWidth,
    };
    conditions = { ...conditions, weight: new Float64Array(conditions.count).fill(1) };
  }
  const nDir = conditions.directionsDeg.length;
  const cosByDir = new Float64Array(nDir),
    sinByDir = new Float64Array(nDir);
  for (let d = 0; d < nDir; d++) {
    const theta = ((270 - conditions.directionsDeg[d]) * Math.PI) / 180;
    cosByDir[d] = Math.cos(theta);
    sinByDir[d] = Math.sin(theta);
  }
  const freeStream = spec.inflow === 'free-stream';
  const points = areaOverlap ? null : rotorPoints(rotorAverage);
  const mirror = (spec.ground ?? 'none') === 'mirror';
  const nTypes = types.length;
  const site = spec.site ?? null;
  let maxRadius = 0,
    minDiameter = Infinity,
    minCutIn = Infinity;
  for (const t of types) {
    maxRadius = Math.max(maxRadius, t.diameter / 2);
    minDiameter = Math.min(minDiameter, t.diameter);
    minCutIn = Math.min(minCutIn, t.cutIn);
  }
  return {
    turbine,
    types,
    wind,
    model,
    pairModels,
    superposition,
    supKind: superpositionKind(superposition.name),
    turbulence,
    pairTurbulence,
    turbulenceSuperposition: spec.turbulenceSuperposition ?? 'sqrmax',
    referenceIsEffective: !freeStream && (spec.deficitReference ?? defaults.deficitReference) === 'source-effective',
    referenceIsTarget: !freeStream && (spec.deficitReference ?? defaults.deficitReference) === 'free-stream' && defaults.freeStreamReference === 'target',
    useEffectiveTi: !freeStream && (spec.useEffectiveTi ?? defaults.useEffectiveTi),
    freeStream,
    points,
    invWec: 1 / (spec.params?.wec ?? 1),
    mirror,
    batch: points === null && model instanceof GaussianLocalWake && !mirror && site === null ? model.inlineLinear : null,
    hint: { tiCap: Infinity },
    ctMax: Math.max(...ctMaxByType),
    ctMaxByType,
    radiusByType: Float64Array.from(types, (t) => t.diameter / 2),
    d2ByType: Float64Array.from(
      pairModels.filter((_, i) => i % (nTypes + 1) === 0),
      (m) => (m instanceof GaussianLocalWake ? m.d2over8 : 0),
    ),
    maxRadius,
    minDiameter,
    minCutIn,
    cosByDir,
    sinByDir,
    conditions,
    site,
    weibullBins: bins,
    ambientTiMax: site !== null ? Math.max(conditions.tiMax, siteTiMax(site)) : conditions.tiMax,
  };
}
