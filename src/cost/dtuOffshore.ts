/**
 * The DTU offshore wind cost model (W. Skrzypinski, 2018, implementing S. Ø. Lind's DTU offshore
 * turbine cost model; cited by TOPFARM2 as Skrzypinski & Lind 2018), as TOPFARM2 implements it:
 * `topfarm/cost_models/economic_models/dtu_wind_cm_main.py`, class `economic_evaluation`, read at
 * TOPFARM2 commit 3677b22c8219ffd8e21666310f9cefb1b468e801 (the file's last version; TOPFARM has
 * since moved the model to DTU's `costmodels` package). Written here from the equations; no code
 * copied. Costs in 2017 euros, masses in kg. docs/cost.md lists every term.
 *
 * Per turbine i (rated power P MW, rotor diameter D m, hub height H m, rated speed n rpm, water
 * depth d m): the turbine's bill of materials (blades, hub, medium-speed drivetrain, nacelle,
 * tower — mass × cost per kg, torque τ = 1.1 P / (n π/30)) and a monopile foundation
 * 1.5 €/kg × (6.5e4 + 4.5e3 d + 40 d²) P. Farm: balance of plant (substation 6e6 + 1e4 (ΣP)^1.5,
 * array cables, export cables 1.4e6 €/km × distance, onshore electrical 5e4 ΣP + 50 (ΣP)²);
 * CAPEX = Σ turbine BOM + Σ foundation BOM + BOP (TOPFARM sums the bills of materials only: the
 * production, SG&A and project mark-ups it also computes do not enter CAPEX, and not here either);
 * DEVEX (surveys, met mast, development services), OPEX per year (O&M), ABEX = 3 % of CAPEX.
 * Cash flow: year 0 −(DEVEX + CAPEX); years 1 … N price × AEP − OPEX; year N also − ABEX.
 * NPV at the discount rate, IRR (numpy_financial's definition, discounting.ts), and
 * LCOE = PV(costs) / PV(energy) at the same rate (the standard definition; TOPFARM has none).
 *
 * Array cables: TOPFARM uses its `cabling_cost` argument for the "array_of_cables" item when one is
 * given (and 3.5e3 € per metre of rotor diameter, Σ 3500 D, otherwise). Here the design's
 * `cableCost` (the routed collection system, geometry/collection/) is ALWAYS that item, zero
 * included; `dtuDefaultArrayCableCost` gives TOPFARM's fallback for a design with no routing.
 *
 * Units at the seam: AEP in MWh per year and the energy price in € per MWh (TOPFARM: kWh and
 * € per kWh; the product is the same), LCOE in € per MWh, IRR a fraction (TOPFARM: percent).
 */
import type { DesignPartials, EconomicModel, EconomicResult, FarmDesign } from './economicModel.js';
import { annuityFactor, internalRateOfReturn, presentValue } from './discounting.js';

/** TOPFARM's default discount rate for the DTU model. */
export const DTU_DEFAULT_DISCOUNT_RATE = 0.0909870634;

export interface DtuOffshoreParams {
  /** Distance from the farm to shore, km (export cables, surveys, O&M vessels, foundation installation). */
  distanceFromShoreKm: number;
  /** Price paid for energy, € per MWh. */
  energyPriceEurPerMWh: number;
  /** Project lifetime in whole years (≥ 1): the years energy is sold. */
  projectYears: number;
  /** Discount rate per year, fraction (default TOPFARM's 0.0909870634). */
  discountRate?: number;
}

/** Capital cost of the turbine's bill of materials, € (TOPFARM's turbine "bill_of_material"). */
export function dtuTurbineCost(P: number, D: number, H: number, rpm: number): number {
  const torque = (P / ((rpm * Math.PI) / 30)) * 1.1;
  const d25 = Math.pow(D, 2.5);
  const area = Math.PI * (D / 2) ** 2;
  const blades = 12 * (0.3 * d25);
  const hub = 2.5 * (6e3 + 0.1 * d25) + 8 * (5e2 + 0.07 * d25) + 8 * (5e2 + 0.03 * d25) + 8 * (7e2 + 15 * D);
  const tr = (torque * rpm) / 0.4;
  const drivetrain =
    2.5 * (1.2 * D * D) + 5 * (0.02 * Math.pow(D, 2.8)) + 15 * (0.02 * d25) + 2.5 * (0.03 * d25) + 8 * (1e4 * torque) + 8 * (30 * tr) + 8 * (6e3 + 100 * tr);
  const nacelle = 8 * (500 * P) + 30 * (1e3 * P) + 50 * (200 + 100 * P) + 6 * (0.1 * d25) + 10 * (1e3 + 1.5e3 * P) + 10 * (1e3 + 1e3 * P);
  const tower = 1.5 * (0.25 * area * H) + 8 * (1e3 + 100 * H) + 8 * (25 * P * H) + 10 * (1e3 + 500 * P) + 8 * (2.5e3 * P);
  return blades + hub + drivetrain + nacelle + tower;
}

/** Monopile (with transition piece) cost, €, and its derivative with respect to the depth d. */
export function dtuFoundationCost(P: number, depth: number): { cost: number; dDepth: number } {
  return {
    cost: 1.5 * (6.5e4 + 4.5e3 * depth + 40 * depth * depth) * P,
    dDepth: 1.5 * (4.5e3 + 80 * depth) * P,
  };
}

/** TOPFARM's array-cable cost when no routing is given: 3500 € per metre of rotor diameter, summed. */
export function dtuDefaultArrayCableCost(rotorDiameter: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < rotorDiameter.length; i++) s += rotorDiameter[i];
  return 3.5e3 * s;
}

export class DtuOffshoreModel implements EconomicModel {
  readonly name = 'dtu_offshore';
  /** The model's unit: 2017 euros (docs/cost.md); every price, cost, NPV and LCOE here is in EUR. */
  readonly currency = 'EUR';
  readonly distanceFromShoreKm: number;
  readonly energyPriceEurPerMWh: number;
  readonly projectYears: number;
  readonly discountRate: number;

  constructor(p: DtuOffshoreParams) {
    const rate = p.discountRate ?? DTU_DEFAULT_DISCOUNT_RATE;
    if (!Number.isInteger(p.projectYears) || p.projectYears < 1) throw new Error(`projectYears must be a whole number ≥ 1, got ${p.projectYears}`);
    if (!(rate > -1) || !Number.isFinite(rate)) throw new Error(`discountRate must be finite and > -1, got ${rate}`);
    if (!Number.isFinite(p.distanceFromShoreKm) || p.distanceFromShoreKm < 0) throw new Error(`distanceFromShoreKm must be ≥ 0, got ${p.distanceFromShoreKm}`);
    if (!Number.isFinite(p.energyPriceEurPerMWh)) throw new Error(`energyPriceEurPerMWh must be finite, got ${p.energyPriceEurPerMWh}`);
    this.distanceFromShoreKm = p.distanceFromShoreKm;
    this.energyPriceEurPerMWh = p.energyPriceEurPerMWh;
    this.projectYears = p.projectYears;
    this.discountRate = rate;
  }

  evaluate(design: FarmDesign, withGradient: boolean): EconomicResult {
    const n = design.ratedPowerMW.length;
    for (const k of ['rotorDiameter', 'hubHeight', 'ratedRpm', 'waterDepth', 'aepMWh'] as const) {
      if (design[k].length !== n) throw new Error(`FarmDesign.${k} has ${design[k].length} entries for ${n} turbines`);
    }
    const dist = this.distanceFromShoreKm;
    const N = this.projectYears;
    const r = this.discountRate;
    let sumP = 0;
    let aep = 0;
    let turbines = 0;
    let foundations = 0;
    const dFound = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const P = design.ratedPowerMW[i];
      sumP += P;
      aep += design.aepMWh[i];
      turbines += dtuTurbineCost(P, design.rotorDiameter[i], design.hubHeight[i], design.ratedRpm[i]);
      const f = dtuFoundationCost(P, design.waterDepth[i]);
      foundations += f.cost;
      dFound[i] = f.dDepth;
    }
    const substation = 6.0e6 + 1.0e4 * Math.pow(sumP, 1.5);
    const arrayCables = design.cableCost;
    const exportCables = 1.4e6 * dist;
    const onshore = 5.0e4 * sumP + 50.0 * sumP * sumP;
    const capex = turbines + foundations + substation + arrayCables + exportCables + onshore;
    const magic = ((2.0e3 / 39) * 0.3) / 80;
    const devex = 2 * magic * 1e6 * dist + 1.5e5 * n + 0.7e5 * sumP;
    const opex = 5.5e3 * sumP + 3.0e6 + 9.6e4 * n + 8.5e3 * n + 1.2e4 * sumP + 2.1e3 * sumP + 4.6e3 * n * dist;
    const abex = 0.03 * capex;
    const revenue = this.energyPriceEurPerMWh * aep;

    const flows = new Float64Array(N + 1);
    flows[0] = -(devex + capex);
    for (let t = 1; t <= N; t++) flows[t] = revenue - opex;
    flows[N] -= abex;
    const npv = presentValue(r, flows);
    const irr = internalRateOfReturn(flows);
    const A = annuityFactor(r, N);
    const vN = Math.pow(1 + r, -N);
    const pvCost = devex + capex + opex * A + abex * vN;
    const pvEnergy = aep * A;
    const lcoe = pvCost / pvEnergy;

    const result: EconomicResult = {
      npv,
      irr,
      lcoe,
      breakdown: {
        turbines_eur: turbines,
        foundations_eur: foundations,
        substation_eur: substation,
        array_cables_eur: arrayCables,
        export_cables_eur: exportCables,
        onshore_electrical_eur: onshore,
        capex_eur: capex,
        devex_eur: devex,
        opex_eur_per_year: opex,
        abex_eur: abex,
        revenue_eur_per_year: revenue,
        aep_mwh_per_year: aep,
      },
    };
    if (withGradient) {
      // ∂CAPEX/∂cableCost = 1, ∂CAPEX/∂d_i = foundation slope; CAPEX enters at year 0 and, as ABEX
      // (3 %), at year N.
      const capexWeight = 1 + 0.03 * vN;
      const dNpv: DesignPartials = { aepMWh: new Float64Array(n), waterDepth: new Float64Array(n), cableCost: -capexWeight };
      const dLcoe: DesignPartials = { aepMWh: new Float64Array(n), waterDepth: new Float64Array(n), cableCost: capexWeight / pvEnergy };
      const dNpvdAep = this.energyPriceEurPerMWh * A;
      const dLcoedAep = -lcoe / aep;
      for (let i = 0; i < n; i++) {
        dNpv.aepMWh[i] = dNpvdAep;
        dNpv.waterDepth[i] = -capexWeight * dFound[i];
        dLcoe.aepMWh[i] = dLcoedAep;
        dLcoe.waterDepth[i] = (capexWeight * dFound[i]) / pvEnergy;
      }
      result.dNpv = dNpv;
      result.dLcoe = dLcoe;
    }
    return result;
  }
}
