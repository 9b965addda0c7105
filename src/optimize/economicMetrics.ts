/**
 * A layout's economics as the gate stores them with a row: named scalar metrics (the ledger's and
 * layouts.h5's /metrics columns) — LCOE, NPV, IRR, the collection system's length and cost (routed
 * for the row's layout), and the cost model's breakdown items, each name carrying its unit — and
 * the routed network itself, per turbine (layouts.h5's /cable_to and /cable_type). The gate
 * computes them for every row of a farm with economics, whatever the row claims (a network the
 * row carries is only the router's start: checked, kept when valid and no dearer). Non-finite
 * figures (an IRR where the cash flows have none) are left out of the metrics.
 */
import type { Case } from '../case/case.js';
import { economicFigures } from './economicObjective.js';

export interface EconomicRow {
  metrics: Record<string, number>;
  /** Each turbine's next node toward its substation: a turbine index, or −1 − s for substation s. */
  cableTo: Int32Array;
  /** Each turbine's edge's cable type (index into the case's economics.cables). */
  cableType: Int32Array;
}

export function economicMetrics(c: Case, x: Float64Array, y: Float64Array, typeOf?: Int32Array, start?: ArrayLike<number>): EconomicRow {
  const f = economicFigures(c, x, y, typeOf, start);
  const out: Record<string, number> = {
    lcoe_per_mwh: f.lcoe,
    npv: f.npv,
    irr: f.irr,
    cable_length_m: f.cableLengthM,
    cable_cost: f.cableCost,
  };
  for (const [name, value] of Object.entries(f.breakdown)) out[`cost_${name}`.replace(/[^A-Za-z0-9_]/g, '_').slice(0, 64)] = value;
  for (const k of Object.keys(out)) if (!Number.isFinite(out[k])) delete out[k];
  return { metrics: out, cableTo: f.cableTo, cableType: f.cableType };
}
