/**
 * The waked-inflow engine on the native kernel (nativeKernel.ts): one runner per farm model
 * (turbine, wind, model), evaluating any block of directions of a layout into results by
 * direction. The reach table that screens out (target, source) pairs no wake can touch is built
 * here from the model's own reach bound (wakedAep.ts does the same per direction); screening never
 * changes a result, only which exact zeros are computed.
 *
 * The conditions are the setup's (windConditions.ts): a rose's grid, or a time series' samples
 * grouped by direction (the kernel's condStart; one row of results per sample direction, added to
 * the summary rose's direction by sumByDirection), each condition with its own ambient TI where
 * they differ (a series' TI, a rose's TI per bin: condTi).
 *
 * A site that is not uniform (site/site.ts): the fields are sampled here, in TypeScript, at every
 * turbine for every direction of the call (site/siteRows.ts, once per layout at the fields' wd
 * nodes: the speed factor s·f_shear, with a TI field the ambient TI, with a per-point Weibull the
 * f, A, k of each turbine); the kernel takes them as each turbine's free stream U·s_i and ambient
 * TI₀_i (the deficit reference and the added turbulence as engine/siteWork.ts states) and each
 * turbine's own probability P_i of every condition, which it forms itself (site/siteWeibull.ts) and
 * differentiates into the gradient; with the gradient it returns the adjoints ∂AEP/∂s_i and
 * ∂AEP/∂TI₀_i by direction, which are chained here through the fields' ∂/∂x, ∂/∂y into the
 * direction's gradient rows; and through
 * their ∂/∂h (the shear s·f'(h) + ∂s/∂h·f and a TI field's h dimension) into the ∂AEP/∂h_i rows
 * (gradHByDir) when the caller asks for them — engine/siteWork.ts's gsh, so optimize/hubHeight.ts
 * runs on this kernel. The deficits do not depend on h when every turbine has the same hub height
 * and there is no ground mirror (the native kernel takes one turbine model), so that chain is the
 * whole ∂/∂h without the mirror.
 *
 * Per-turbine weights (weightedAep.ts): the kernel seeds its adjoint with w_i·P·∂power/∂u, so the
 * gradient rows (and the site adjoints) are those of Σ_i w_i·AEP_i; the energies stay each turbine's own.
 */
import type { Turbine } from './turbine.js';
import type { WindResource } from './windResource.js';
import type { FarmModelSpec } from './farmModel.js';
import { curveArrays, requireAddon, setTiBound, wakedConfig, type ByDirection, type IsaChoice, type NativeRunner } from './nativeKernel.js';
import type { Site } from './site/site.js';
import { SiteRows } from './site/siteRows.js';
import type { WindConditions } from './windConditions.js';

/** A native runner whose gradient may be that of a per-turbine weighted energy Σ_i w_i·AEP_i (weights by turbine; absent: the AEP). */
export interface NativeWakedRunner extends NativeRunner {
  run(x: Float64Array, y: Float64Array, withGradient: boolean, out: ByDirection, dirFrom?: number, dirTo?: number, weights?: Float64Array): number;
  /** The runner for the same farm with every turbine at hub height h (sharing this one's configuration and scratch). */
  atHubHeight(h: number): NativeWakedRunner;
}

/** What the runner needs of wakedAep.ts's WakedSetup (the model's reach bound, the TI hint, the rotation). */
export interface ReachSource {
  model: { reach(dx: number, ctMax: number, tiMax: number): number };
  ctMax: number;
  hint: { tiCap: number };
  useEffectiveTi: boolean;
  turbulence: unknown;
  cosByDir: Float64Array;
  sinByDir: Float64Array;
  /** A site that is not uniform, else null; the largest ambient TI the rose and the site give. */
  site: Site | null;
  ambientTiMax: number;
  /** The conditions visited (a time series: its sample directions, each with its samples; TI per condition). */
  conditions: WindConditions;
  /** A per-point Weibull site: each condition's speed bin and w_d/w_s (wakedSetup.ts), else null. */
  weibullBins: { lower: Float64Array; upper: Float64Array; scale: number } | null;
}

/**
 * A runner for a model the solve plan gives the native kernel (solvePlan.ts; engine/wakedCovers.ts nativeDeclines). Its
 * `atHubHeight(h)` is the runner for the turbines at hub height h: on a site the height enters only
 * through the sampled free stream (the kernel's configuration, the reach table and the learned TI
 * bound do not depend on it), so the hub-height optimizer's many heights share one of each.
 */
export function createNativeWakedRunner(
  turbine: Turbine,
  wind: WindResource,
  spec: FarmModelSpec,
  setup: ReachSource,
  isa: IsaChoice = 'best',
): NativeWakedRunner {
  const cfg = wakedConfig(turbine, wind, spec, isa);
  const addon = requireAddon();
  const curves = curveArrays(turbine);
  const stats = new Float64Array(2);
  const ti0 = wind.turbulenceIntensity;
  const tiLearned = setup.useEffectiveTi && setup.turbulence !== null;
  let reach = new Float64Array(0);
  let reachTi = NaN;
  const { conditions } = setup;
  // The directions visited (a time series: its distinct sample directions, each a row of the results).
  const nDir = conditions.directionsDeg.length;
  const series = wind.series !== undefined;
  const siteRows = setup.site !== null ? new SiteRows(setup.site, turbine.hubHeight, conditions.directionsDeg) : null;
  // Whether the model's reach is finite at the TI bound (asked again only when the bound changes).
  let bounded = false,
    boundedTi = NaN;
  // The screens' bound on an ambient TI: the largest of the conditions and the site.
  const tiAmbient = setup.ambientTiMax;
  const none = new Float64Array(0);
  // Conditions other than the rose's grid: a time series' runs by direction, each sample its speed and weight.
  const condStart = series ? Float64Array.from(conditions.start) : none;
  const speeds = series ? conditions.speed : wind.speeds;
  // The conditions' weights (a per-point Weibull: 1, each turbine's own P multiplies them in the kernel).
  const probability = conditions.weight;
  // A TI per condition (a series' samples, a rose's TI per bin) unless every one is the resource's.
  const condTi = conditions.turbulenceIntensity.some((t) => t !== ti0) ? conditions.turbulenceIntensity : none;
  let weibullBins = none;
  if (setup.weibullBins !== null) {
    const ns = wind.speeds.length,
      b = setup.weibullBins;
    weibullBins = new Float64Array(2 * ns + 1);
    weibullBins.set(b.lower.subarray(0, ns), 0);
    weibullBins.set(b.upper.subarray(0, ns), ns);
    weibullBins[2 * ns] = b.scale;
  }
  const run = (
    hub: number,
    x: Float64Array,
    y: Float64Array,
    withGradient: boolean,
    out: ByDirection,
    dirFrom: number,
    dirTo: number,
    weights?: Float64Array,
  ): number => {
    // Slots 20–23 of the addon: the site's arrays; 24–27 the conditions' and the Weibull's; 28 the weights (each empty where not used).
    const weight = withGradient && weights !== undefined ? weights : none;
    const tiBound = tiLearned ? setup.hint.tiCap : tiAmbient;
    // Reach for every dx up to the layout's diagonal (any direction's downstream extent).
    let minX = Infinity,
      maxX = -Infinity,
      minY = Infinity,
      maxY = -Infinity;
    for (let i = 0; i < x.length; i++) {
      minX = Math.min(minX, x[i]);
      maxX = Math.max(maxX, x[i]);
      minY = Math.min(minY, y[i]);
      maxY = Math.max(maxY, y[i]);
    }
    const step = turbine.diameter / 8;
    const extent = Math.hypot(maxX - minX, maxY - minY);
    if (tiBound !== boundedTi) {
      bounded = Number.isFinite(setup.model.reach(1000 * turbine.diameter, setup.ctMax, tiBound));
      boundedTi = tiBound;
    }
    if (!bounded) reach = new Float64Array(0);
    else {
      const need = Math.ceil(extent / step) + 2;
      if (reach.length < need || reachTi !== tiBound) {
        reach = new Float64Array(Math.max(need, reach.length));
        reachTi = tiBound;
        for (let k = 0; k < reach.length; k++) reach[k] = setup.model.reach(k * step, setup.ctMax, tiBound);
      }
    }
    setTiBound(cfg, bounded ? tiBound : Infinity);
    // Without a site, slots 20–23 and the Weibull's 26–27 are empty.
    if (siteRows !== null) siteRows.fill(x, y, dirFrom, dirTo, withGradient, hub);
    const site = siteRows !== null;
    addon.waked(
      cfg,
      curves.powerSpeeds,
      curves.powerW,
      curves.ctSpeeds,
      curves.ctValues,
      setup.cosByDir,
      setup.sinByDir,
      speeds,
      probability,
      reach,
      x,
      y,
      dirFrom,
      dirTo,
      withGradient ? 1 : 0,
      out.perDirectionMwh,
      out.perTurbineByDir,
      out.gradXByDir,
      out.gradYByDir,
      stats,
      site ? siteRows.speed : none,
      site ? siteRows.ti : none,
      site && withGradient ? siteRows.speedBar : none,
      site && withGradient ? siteRows.tiBar : none,
      condStart,
      condTi,
      site ? siteRows.weibull : none,
      site ? weibullBins : none,
      weight,
    );
    if (site && withGradient) siteRows.chain(out.gradXByDir, out.gradYByDir, dirFrom, dirTo, out.gradHByDir);
    if (tiLearned && stats[1] > 0) setup.hint.tiCap = Math.max(stats[1] * 1.05, tiAmbient);
    return stats[0];
  };
  const rows = series ? { rows: { count: nDir, resultDirection: conditions.resultDirection } } : {};
  const at = (hub: number): NativeWakedRunner => ({
    ...rows,
    run: (x, y, withGradient, out, dirFrom = 0, dirTo = nDir, weights) => run(hub, x, y, withGradient, out, dirFrom, dirTo, weights),
    atHubHeight: at,
  });
  return at(turbine.hubHeight);
}
