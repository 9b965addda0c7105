/**
 * Gross and net energy of a layout, per turbine: what the wake-loss colours, titles and report
 * tables show. Net is the farm model's per-turbine AEP; gross is the AEP the same turbine would
 * make alone in the same wind (one lone-turbine evaluation: without wakes every turbine of a
 * layout sees the free stream, so they all share it).
 *
 *   wake loss_i = 1 − net_i / gross,   farm wake loss = 1 − Σ net_i / (N · gross)
 *   capacity factor = AEP / (N · P_rated · 8760 h)
 */
import type { Case } from '../optimize/case.js';
import { createFarmEvaluator } from '../physics/aep.js';

export interface TurbineYield {
  aepMwh: number;
  grossAepMwh: number;
  /** 1 − AEP / gross AEP. */
  wakeLoss: number;
  capacityFactor: number;
  /** Net AEP by turbine, MWh. */
  netByTurbine: Float64Array;
  /** Wake loss fraction by turbine. */
  lossByTurbine: Float64Array;
  /** Energy by wind direction (the rose's order), MWh. */
  perDirectionMwh: Float64Array;
}

/** AEP of one turbine alone in the case's wind, MWh. */
export function loneTurbineAepMwh(c: Pick<Case, 'turbine' | 'wind' | 'model'>): number {
  return createFarmEvaluator(c.turbine, c.wind, c.model).aep(new Float64Array(1), new Float64Array(1)).aepMwh;
}

/** Capacity factor of `aepMwh` for `n` turbines of the case's rated power. */
export function capacityFactorOf(aepMwh: number, n: number, ratedPowerW: number): number {
  return aepMwh / (n * ratedPowerW * 1e-6 * 8760);
}

export function turbineYield(c: Pick<Case, 'turbine' | 'wind' | 'model'>, x: Float64Array, y: Float64Array): TurbineYield {
  const r = createFarmEvaluator(c.turbine, c.wind, c.model).aep(x, y);
  const lone = loneTurbineAepMwh(c);
  const n = x.length;
  const lossByTurbine = new Float64Array(n);
  for (let i = 0; i < n; i++) lossByTurbine[i] = lone > 0 ? 1 - r.perTurbineMwh[i] / lone : 0;
  const gross = lone * n;
  return {
    aepMwh: r.aepMwh,
    grossAepMwh: gross,
    wakeLoss: gross > 0 ? 1 - r.aepMwh / gross : 0,
    capacityFactor: capacityFactorOf(r.aepMwh, n, c.turbine.ratedPowerW),
    netByTurbine: r.perTurbineMwh,
    lossByTurbine,
    perDirectionMwh: r.perDirectionMwh,
  };
}
