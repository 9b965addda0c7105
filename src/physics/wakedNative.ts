/**
 * The waked-inflow engine on the native kernel (nativeKernel.ts): one runner per farm model
 * (turbine, wind, model), evaluating any block of directions of a layout into results by
 * direction. The reach table that screens out (target, source) pairs no wake can touch is built
 * here from the model's own reach bound (wakedAep.ts does the same per direction); screening never
 * changes a result, only which exact zeros are computed.
 *
 * A site that is not uniform (site/site.ts): the fields are sampled here, in TypeScript, at every
 * turbine for every direction of the call, or once per call when no field has a wind-direction
 * dimension (the speed factor s·f_shear and, with a TI field, the ambient TI); the kernel takes them as each turbine's free stream U·s_i and ambient TI₀_i (the
 * deficit reference and the added turbulence as engine/siteWork.ts states) and, with the gradient,
 * returns their adjoints ∂AEP/∂s_i and ∂AEP/∂TI₀_i by direction, which are chained here through
 * the fields' ∂/∂x, ∂/∂y into the direction's gradient rows, and through their ∂/∂h (the shear
 * s·f'(h) + ∂s/∂h·f and a TI field's h dimension) into the ∂AEP/∂h_i rows (gradHByDir) when the
 * caller asks for them — engine/siteWork.ts's gsh, so optimize/hubHeight.ts runs on this kernel.
 * The deficits do not depend on h when every turbine has the same hub height and there is no ground
 * mirror (the native kernel takes neither several models nor the mirror), so that chain is the whole ∂/∂h.
 *
 * Per-turbine weights (weightedAep.ts): the kernel seeds its adjoint with w_i·P·∂power/∂u, so the
 * gradient rows (and the site adjoints) are those of Σ_i w_i·AEP_i; the energies stay each turbine's own.
 */
import type { Turbine } from './turbine.js';
import type { WindResource } from './windResource.js';
import type { FarmModelSpec } from './farmModel.js';
import { curveArrays, requireAddon, setTiBound, wakedConfig, type ByDirection, type IsaChoice, type NativeRunner } from './nativeKernel.js';
import { createSiteSamples, sampleSite, type Site } from './site/site.js';

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
}

/**
 * The site sampled at every turbine for a block of directions, [d·n + i], and the kernel's adjoints.
 * A site whose fields have no wind-direction dimension gives every direction the same samples: it
 * is sampled once per call (the kernel's rows are copies) and its derivatives are kept by turbine.
 */
class SiteRows {
  n = -1;
  speed = new Float64Array(0); speedDx = new Float64Array(0); speedDy = new Float64Array(0);
  ti = new Float64Array(0); tiDx = new Float64Array(0); tiDy = new Float64Array(0);
  speedDh = new Float64Array(0); tiDh = new Float64Array(0);
  speedBar = new Float64Array(0); tiBar = new Float64Array(0);
  /** Whether a field depends on the wind direction (the derivatives are then by direction, else by turbine). */
  private readonly byDirection: boolean;
  private identity = new Int32Array(0);
  private samples = createSiteSamples(0);
  constructor(private readonly site: Site, private readonly directionsDeg: Float64Array) {
    this.byDirection = [site.speedup, site.ti].some((f) => f !== null && f.dims.includes('wd'));
  }

  /** Samples directions dirFrom…dirTo−1 at hub height `hub` (a turbine outside a field's grid: the InputError of sampleSite). */
  fill(x: Float64Array, y: Float64Array, dirFrom: number, dirTo: number, withGradient: boolean, hub: number): void {
    const n = x.length, nDir = this.directionsDeg.length, withTi = this.site.ti !== null;
    if (n !== this.n) {
      this.n = n;
      const rows = () => new Float64Array(nDir * n);
      const partials = () => new Float64Array(this.byDirection ? nDir * n : n);
      this.speed = rows(); this.speedBar = rows(); this.speedDx = partials(); this.speedDy = partials(); this.speedDh = partials();
      if (withTi) { this.ti = rows(); this.tiBar = rows(); this.tiDx = partials(); this.tiDy = partials(); this.tiDh = partials(); }
      this.identity = Int32Array.from({ length: n }, (_, i) => i);
      this.samples = createSiteSamples(n);
    }
    const s = this.samples;
    const hubAt = () => hub;
    for (let d = dirFrom; d < dirTo; d++) {
      // Without a wd dimension the first direction's samples (and its message, if a turbine is outside) stand for all.
      if (this.byDirection || d === dirFrom) sampleSite(this.site, x, y, this.identity, hubAt, this.directionsDeg[d], s);
      const at = d * n;
      this.speed.set(s.speed, at);
      if (withTi) this.ti.set(s.ti, at);
      if (withGradient && (this.byDirection || d === dirFrom)) {
        const to = this.byDirection ? at : 0;
        this.speedDx.set(s.speedDx, to); this.speedDy.set(s.speedDy, to); this.speedDh.set(s.speedDh, to);
        if (withTi) { this.tiDx.set(s.tiDx, to); this.tiDy.set(s.tiDy, to); this.tiDh.set(s.tiDh, to); }
      }
    }
  }

  /**
   * Adds the gradient through the fields, ∂AEP/∂s_i·∂s_i/∂x + ∂AEP/∂TI₀_i·∂TI₀_i/∂x, to the rows, and
   * writes ∂AEP/∂h_i = ∂AEP/∂s_i·∂s_i/∂h + ∂AEP/∂TI₀_i·∂TI₀_i/∂h into gradHByDir where out has it.
   */
  chain(out: ByDirection, dirFrom: number, dirTo: number): void {
    const n = this.n, withTi = this.site.ti !== null;
    const gx = out.gradXByDir, gy = out.gradYByDir, gh = out.gradHByDir;
    const withH = gh !== undefined && gh.length > 0;
    const { speedBar, tiBar, speedDx, speedDy, speedDh, tiDx, tiDy, tiDh } = this;
    for (let d = dirFrom; d < dirTo; d++) {
      const at0 = d * n, k0 = this.byDirection ? at0 : 0;
      for (let i = 0; i < n; i++) {
        const at = at0 + i, k = k0 + i;
        const sb = speedBar[at];
        if (withTi) {
          const tb = tiBar[at];
          gx[at] += sb * speedDx[k] + tb * tiDx[k];
          gy[at] += sb * speedDy[k] + tb * tiDy[k];
          if (withH) gh![at] = sb * speedDh[k] + tb * tiDh[k];
        } else {
          gx[at] += sb * speedDx[k];
          gy[at] += sb * speedDy[k];
          if (withH) gh![at] = sb * speedDh[k];
        }
      }
    }
  }
}

/**
 * A runner for a model the solve plan gives the native kernel (solvePlan.ts; engine/wakedCovers.ts nativeDeclines). Its
 * `atHubHeight(h)` is the runner for the turbines at hub height h: on a site the height enters only
 * through the sampled free stream (the kernel's configuration, the reach table and the learned TI
 * bound do not depend on it), so the hub-height optimizer's many heights share one of each.
 */
export function createNativeWakedRunner(turbine: Turbine, wind: WindResource, spec: FarmModelSpec, setup: ReachSource, isa: IsaChoice = 'best'): NativeWakedRunner {
  const cfg = wakedConfig(turbine, wind, spec, isa);
  const addon = requireAddon();
  const curves = curveArrays(turbine);
  const stats = new Float64Array(2);
  const ti0 = wind.turbulenceIntensity;
  const tiLearned = setup.useEffectiveTi && setup.turbulence !== null;
  let reach = new Float64Array(0);
  let reachTi = NaN;
  // Whether the model's reach is finite at the TI bound (asked again only when the bound changes).
  let bounded = false, boundedTi = NaN;
  const nDir = wind.directionsDeg.length;
  const siteRows = setup.site !== null ? new SiteRows(setup.site, wind.directionsDeg) : null;
  // The screens' bound on an ambient TI: the rose's, or the largest the site gives.
  const tiAmbient = siteRows !== null ? setup.ambientTiMax : ti0;
  const none = new Float64Array(0);
  const run = (hub: number, x: Float64Array, y: Float64Array, withGradient: boolean, out: ByDirection, dirFrom: number, dirTo: number, weights?: Float64Array): number => {
    // Slots 20–27 of the addon (the site's arrays, then the bins'): empty where not used; slot 28 the weights.
    const weight = withGradient && weights !== undefined ? weights : none;
    const tiBound = tiLearned ? setup.hint.tiCap : tiAmbient;
    // Reach for every dx up to the layout's diagonal (any direction's downstream extent).
    let minX = Infinity, maxX = -Infinity, minY = Infinity, maxY = -Infinity;
    for (let i = 0; i < x.length; i++) {
      minX = Math.min(minX, x[i]); maxX = Math.max(maxX, x[i]); minY = Math.min(minY, y[i]); maxY = Math.max(maxY, y[i]);
    }
    const step = turbine.diameter / 8;
    const extent = Math.hypot(maxX - minX, maxY - minY);
    if (tiBound !== boundedTi) { bounded = Number.isFinite(setup.model.reach(1000 * turbine.diameter, setup.ctMax, tiBound)); boundedTi = tiBound; }
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
    if (siteRows === null) {
      addon.waked(cfg, curves.powerSpeeds, curves.powerW, curves.ctSpeeds, curves.ctValues, setup.cosByDir, setup.sinByDir,
        wind.speeds, wind.probability, reach, x, y, dirFrom, dirTo, withGradient ? 1 : 0,
        out.perDirectionMwh, out.perTurbineByDir, out.gradXByDir, out.gradYByDir, stats,
        none, none, none, none, none, none, none, none, weight);
    } else {
      siteRows.fill(x, y, dirFrom, dirTo, withGradient, hub);
      addon.waked(cfg, curves.powerSpeeds, curves.powerW, curves.ctSpeeds, curves.ctValues, setup.cosByDir, setup.sinByDir,
        wind.speeds, wind.probability, reach, x, y, dirFrom, dirTo, withGradient ? 1 : 0,
        out.perDirectionMwh, out.perTurbineByDir, out.gradXByDir, out.gradYByDir, stats,
        siteRows.speed, siteRows.ti, withGradient ? siteRows.speedBar : none, withGradient ? siteRows.tiBar : none,
        none, none, none, none, weight);
      if (withGradient) siteRows.chain(out, dirFrom, dirTo);
    }
    if (tiLearned && stats[1] > 0) setup.hint.tiCap = Math.max(stats[1] * 1.05, tiAmbient);
    return stats[0];
  };
  const at = (hub: number): NativeWakedRunner => ({
    run: (x, y, withGradient, out, dirFrom = 0, dirTo = nDir, weights) => run(hub, x, y, withGradient, out, dirFrom, dirTo, weights),
    atHubHeight: at,
  });
  return at(turbine.hubHeight);
}
