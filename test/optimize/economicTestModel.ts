/**
 * A TEST cost model (not the product's: cost/dtuOffshore.ts is the real one): small, explicit
 * formulas with hand-written partials, so the optimizer's chain rule (optimize/economicObjective.ts)
 * can be checked against central differences of the whole objective.
 *
 *   CAPEX = a·Σ P_i + Σ (b·d_i + e·d_i²) + C            (P_i MW, d_i depth m, C cable cost)
 *   LCOE  = (crf·CAPEX + o·Σ P_i) / Σ AEP_i
 *   NPV   = A · Σ_i price·(1 − loss_i)·AEP_i − A·o·Σ P_i − CAPEX,  A = (1 − (1+r)^−L)/r
 * loss_i (an export loss that differs by turbine) makes ∂NPV/∂AEP_i differ between turbines, so the
 * per-turbine weighted energy gradient is exercised; ∂LCOE/∂AEP_i is the same for every turbine.
 * The depth field: d(x, y) = 25 + 0.004·x − 0.003·y + 2e-6·x·y (a smooth slope, with gradient).
 */
import type { CaseEconomics, EconomicModel, EconomicResult, FarmDesign, WaterDepthField } from '../../src/cost/economicModel.js';

export const testDepth: WaterDepthField = {
  at(x, y, grad) {
    if (grad) { grad[0] = 0.004 + 2e-6 * y; grad[1] = -0.003 + 2e-6 * x; }
    return 25 + 0.004 * x - 0.003 * y + 2e-6 * x * y;
  },
};

export function testCostModel(p = { a: 1.2e6, b: 3e4, e: 400, crf: 0.08, o: 5e4, price: 60, r: 0.06, years: 25 }): EconomicModel {
  const A = (1 - (1 + p.r) ** -p.years) / p.r;
  const lossOf = (i: number) => 0.01 * (i % 3);
  return {
    name: 'test-model',
    evaluate(d: FarmDesign, withGradient: boolean): EconomicResult {
      const n = d.aepMWh.length;
      let sumP = 0, foundations = 0, aep = 0, revenue = 0;
      for (let i = 0; i < n; i++) {
        sumP += d.ratedPowerMW[i];
        foundations += p.b * d.waterDepth[i] + p.e * d.waterDepth[i] ** 2;
        aep += d.aepMWh[i];
        revenue += p.price * (1 - lossOf(i)) * d.aepMWh[i];
      }
      const turbines = p.a * sumP;
      const capex = turbines + foundations + d.cableCost;
      const opex = p.o * sumP;
      const lcoe = (p.crf * capex + opex) / aep;
      const npv = A * revenue - A * opex - capex;
      // IRR: the rate where A(rate)·(revenue − opex) = capex (bisection; NaN without a sign change).
      const f = (rate: number) => ((1 - (1 + rate) ** -p.years) / rate) * (revenue - opex) - capex;
      let irr = NaN;
      if (f(1e-9) > 0 && f(10) < 0) {
        let lo = 1e-9, hi = 10;
        for (let k = 0; k < 200; k++) { const mid = (lo + hi) / 2; if (f(mid) > 0) lo = mid; else hi = mid; }
        irr = (lo + hi) / 2;
      }
      const out: EconomicResult = { npv, irr, lcoe, breakdown: { turbines, foundations, cables: d.cableCost, opexPerYear: opex } };
      if (!withGradient) return out;
      out.dLcoe = {
        aepMWh: new Float64Array(n).fill(-lcoe / aep),
        waterDepth: Float64Array.from(d.waterDepth, (w) => (p.crf * (p.b + 2 * p.e * w)) / aep),
        cableCost: p.crf / aep,
      };
      out.dNpv = {
        aepMWh: Float64Array.from({ length: n }, (_, i) => A * p.price * (1 - lossOf(i))),
        waterDepth: Float64Array.from(d.waterDepth, (w) => -(p.b + 2 * p.e * w)),
        cableCost: -1,
      };
      return out;
    },
  };
}

/** A CaseEconomics of the test model: one substation, two cable types. */
export function testEconomics(ratedRpmByType: number[], substation: [number, number] = [0, 0]): CaseEconomics {
  return {
    model: testCostModel(),
    depth: testDepth,
    substations: [substation],
    cables: [{ name: 'small', capacity: 3, costPerMetre: 300 }, { name: 'large', capacity: 6, costPerMetre: 550 }],
    ratedRpmByType,
  };
}
