/**
 * Gross and net energy of a layout, per turbine: what the wake-loss colours, titles and report
 * tables show. Net is the farm model's per-turbine AEP; gross is the AEP the same turbine would
 * make alone in the same wind (one lone-turbine evaluation per turbine model: without wakes every
 * turbine of a model sees the free stream, so they all share it). Neighbouring turbines' wakes
 * count as wake loss. On a site that is not uniform (docs/site.md) the free stream differs from
 * place to place: each turbine's gross is then its model alone at its own position.
 *
 *   wake loss_i = 1 − net_i / gross_model(i),   farm wake loss = 1 − Σ net_i / Σ gross_model(i)
 *   capacity factor = AEP / (Σ_i P_rated,model(i) · 8760 h)
 */
import type { Case } from '../case/case.js';
import { createFarmEvaluator } from '../physics/aep.js';
import { caseEvaluator, type CasePhysics } from '../optimize/caseEvaluator.js';

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

/** Each own model's lone AEP (one entry for a farm of one model), MWh. */
function loneByModel(c: CasePhysics): Float64Array {
  const models = c.turbines ? c.turbines.types : [c.turbine];
  return Float64Array.from(models, (t) => loneTurbineAepMwh({ turbine: t, wind: c.wind, model: c.model }));
}

/**
 * Gross AEP and installed power of a case's turbines as its farm type fixes them, for summary
 * tables: NaN where the optimizer chooses the models (each row has its own), and the gross on a
 * site that is not uniform (it depends on the layout).
 */
export function caseGross(c: CasePhysics & Pick<Case, 'nTurbines'>): { grossMwh: number; ratedW: number } {
  // On a site that is not uniform the gross depends on where the turbines stand (turbineYield has it per layout).
  if (c.model.site)
    return {
      grossMwh: NaN,
      ratedW: c.turbines
        ? c.turbines.choice
          ? NaN
          : Array.from(c.turbines.typeOf, (t) => c.turbines!.types[t].ratedPowerW).reduce((a, b) => a + b, 0)
        : c.turbine.ratedPowerW * c.nTurbines,
    };
  if (!c.turbines) return { grossMwh: loneTurbineAepMwh(c) * c.nTurbines, ratedW: c.turbine.ratedPowerW * c.nTurbines };
  if (c.turbines.choice) return { grossMwh: NaN, ratedW: NaN };
  const lone = loneByModel(c);
  let grossMwh = 0,
    ratedW = 0;
  for (const t of c.turbines.typeOf) {
    grossMwh += lone[t];
    ratedW += c.turbines.types[t].ratedPowerW;
  }
  return { grossMwh, ratedW };
}

/**
 * Gross AEP and installed power of one layout (x, y) with models `typeOf` (default the case's), without
 * the waked solve: what a summary needs where the gross depends on the layout (a site that is not
 * uniform: each turbine alone at its own position; a farm type choosing its models: the row's own).
 * Returns a function so the lone-turbine evaluators are made once for many layouts of a case.
 */
export function layoutGrossOf(c: CasePhysics): (x: Float64Array, y: Float64Array, typeOf?: Int32Array) => { grossMwh: number; ratedW: number } {
  const models = c.turbines ? c.turbines.types : [c.turbine];
  const lone = c.model.site ? null : loneByModel(c);
  const alone = c.model.site ? models.map((t) => createFarmEvaluator(t, c.wind, c.model)) : null;
  return (x, y, typeOf) => {
    const types = typeOf ?? c.turbines?.typeOf;
    let grossMwh = 0,
      ratedW = 0;
    for (let i = 0; i < x.length; i++) {
      const t = types ? types[i] : 0;
      grossMwh += alone ? alone[t].aep(Float64Array.of(x[i]), Float64Array.of(y[i])).aepMwh : lone![t];
      ratedW += models[t].ratedPowerW;
    }
    return { grossMwh, ratedW };
  };
}

/** Yields of layout (x, y) whose turbines are of models `typeOf` (default: the case's). */
export function turbineYield(c: CasePhysics, x: Float64Array, y: Float64Array, typeOf?: Int32Array): TurbineYield {
  const types = typeOf ?? c.turbines?.typeOf;
  const r = caseEvaluator(c, c.model, types).aep(x, y);
  const lone = loneByModel(c);
  const n = x.length;
  const lossByTurbine = new Float64Array(n);
  let gross = 0,
    ratedW = 0;
  const models = c.turbines ? c.turbines.types : [c.turbine];
  const alone = c.model.site ? models.map((t) => createFarmEvaluator(t, c.wind, c.model)) : null;
  for (let i = 0; i < n; i++) {
    const t = types ? types[i] : 0;
    const own = alone ? alone[t].aep(Float64Array.of(x[i]), Float64Array.of(y[i])).aepMwh : lone[t];
    lossByTurbine[i] = own > 0 ? 1 - r.perTurbineMwh[i] / own : 0;
    gross += own;
    ratedW += (c.turbines ? c.turbines.types[t] : c.turbine).ratedPowerW;
  }
  return {
    aepMwh: r.aepMwh,
    grossAepMwh: gross,
    wakeLoss: gross > 0 ? 1 - r.aepMwh / gross : 0,
    capacityFactor: capacityFactorOf(r.aepMwh, 1, ratedW),
    netByTurbine: r.perTurbineMwh,
    lossByTurbine,
    perDirectionMwh: r.perDirectionMwh,
  };
}
