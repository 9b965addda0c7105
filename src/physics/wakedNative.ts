/**
 * The waked-inflow engine on the native kernel (nativeKernel.ts): one runner per farm model
 * (turbine, wind, model), evaluating any block of directions of a layout into results by
 * direction. The reach table that screens out (target, source) pairs no wake can touch is built
 * here from the model's own reach bound (wakedAep.ts does the same per direction); screening never
 * changes a result, only which exact zeros are computed.
 */
import type { Turbine } from './turbine.js';
import type { WindResource } from './windResource.js';
import type { FarmModelSpec } from './farmModel.js';
import { curveArrays, requireAddon, setTiBound, wakedConfig, type IsaChoice, type NativeRunner } from './nativeKernel.js';

export type NativeWakedRunner = NativeRunner;

/** What the runner needs of wakedAep.ts's WakedSetup (the model's reach bound, the TI hint, the rotation). */
export interface ReachSource {
  model: { reach(dx: number, ctMax: number, tiMax: number): number };
  ctMax: number;
  hint: { tiCap: number };
  useEffectiveTi: boolean;
  turbulence: unknown;
  cosByDir: Float64Array;
  sinByDir: Float64Array;
}

/** A runner for the spec, or null when the native kernel does not cover its options. */
export function createNativeWakedRunner(turbine: Turbine, wind: WindResource, spec: FarmModelSpec, setup: ReachSource, isa: IsaChoice = 'best'): NativeWakedRunner | null {
  const cfg = wakedConfig(turbine, wind, spec, isa);
  if (!cfg) return null;
  const addon = requireAddon();
  const curves = curveArrays(turbine);
  const stats = new Float64Array(2);
  const ti0 = wind.turbulenceIntensity;
  const tiLearned = setup.useEffectiveTi && setup.turbulence !== null;
  let reach = new Float64Array(0);
  let reachTi = NaN;
  const nDir = wind.directionsDeg.length;
  return {
    run(x, y, withGradient, out, dirFrom = 0, dirTo = nDir) {
      const tiBound = tiLearned ? setup.hint.tiCap : ti0;
      // Reach for every dx up to the layout's diagonal (any direction's downstream extent).
      let minX = Infinity, maxX = -Infinity, minY = Infinity, maxY = -Infinity;
      for (let i = 0; i < x.length; i++) {
        minX = Math.min(minX, x[i]); maxX = Math.max(maxX, x[i]); minY = Math.min(minY, y[i]); maxY = Math.max(maxY, y[i]);
      }
      const step = turbine.diameter / 8;
      const extent = Math.hypot(maxX - minX, maxY - minY);
      const bounded = Number.isFinite(setup.model.reach(1000 * turbine.diameter, setup.ctMax, tiBound));
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
      addon.waked(cfg, curves.powerSpeeds, curves.powerW, curves.ctSpeeds, curves.ctValues, setup.cosByDir, setup.sinByDir,
        wind.speeds, wind.probability, reach, x, y, dirFrom, dirTo, withGradient ? 1 : 0,
        out.perDirectionMwh, out.perTurbineByDir, out.gradXByDir, out.gradYByDir, stats);
      if (tiLearned && stats[1] > 0) setup.hint.tiCap = Math.max(stats[1] * 1.05, ti0);
      return stats[0];
    },
  };
}
