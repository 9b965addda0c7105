/**
 * A TEST cost model (not the product's: cost/dtuOffshore.ts is the real one): small, explicit
 * formulas with hand-written partials, so the optimizer's chain rule (optimize/economicObjective.ts)
 * can be checked against central differences of the whole objective.
 *
 *   CAPEX = a·Σ P_i + q·Σ D_i³ + Σ (b·d_i + e·d_i²) + C  (P_i MW, D_i rotor m, d_i depth m, C cable cost)
 *   LCOE  = (crf·CAPEX + o·Σ P_i) / Σ AEP_i
 *   NPV   = A · Σ_i price·(1 − loss_i)·AEP_i − A·o·Σ P_i − CAPEX,  A = (1 − (1+r)^−L)/r
 * loss_i (an export loss that differs by turbine) makes ∂NPV/∂AEP_i differ between turbines, so the
 * per-turbine weighted energy gradient is exercised; ∂LCOE/∂AEP_i is the same for every turbine.
 * The depth field: d(x, y) = 25 + 0.004·x − 0.003·y + 2e-6·x·y (a smooth slope, with gradient).
 */
import { builtinCase, builtinTurbine } from '../../src/io/builtinCases.js';
import type { Case } from '../../src/case/case.js';
import { roseFromSectors } from '../../src/physics/windResource.js';
import type { CaseEconomics, EconomicModel, EconomicResult, FarmDesign, WaterDepthField } from '../../src/cost/economicModel.js';

export const testDepth: WaterDepthField = {
  at(x, y, grad) {
    if (grad) {
      grad[0] = 0.004 + 2e-6 * y;
      grad[1] = -0.003 + 2e-6 * x;
    }
    return 25 + 0.004 * x - 0.003 * y + 2e-6 * x * y;
  },
};

export const TEST_MODEL = { a: 1.2e6, q: 0, b: 3e4, e: 400, crf: 0.08, o: 5e4, price: 60, r: 0.06, years: 25 };

export function testCostModel(p = TEST_MODEL): EconomicModel {
  const A = (1 - (1 + p.r) ** -p.years) / p.r;
  const lossOf = (i: number) => 0.01 * (i % 3);
  return {
    name: 'test-model',
    currency: 'EUR',
    evaluate(d: FarmDesign, withGradient: boolean): EconomicResult {
      const n = d.aepMWh.length;
      let sumP = 0,
        rotors = 0,
        foundations = 0,
        aep = 0,
        revenue = 0;
      for (let i = 0; i < n; i++) {
        sumP += d.ratedPowerMW[i];
        rotors += p.q * d.rotorDiameter[i] ** 3;
        foundations += p.b * d.waterDepth[i] + p.e * d.waterDepth[i] ** 2;
        aep += d.aepMWh[i];
        revenue += p.price * (1 - lossOf(i)) * d.aepMWh[i];
      }
      const turbines = p.a * sumP + rotors;
      const capex = turbines + foundations + d.cableCost;
      const opex = p.o * sumP;
      const lcoe = (p.crf * capex + opex) / aep;
      const npv = A * revenue - A * opex - capex;
      // IRR: the rate where A(rate)·(revenue − opex) = capex (bisection; NaN without a sign change).
      const f = (rate: number) => ((1 - (1 + rate) ** -p.years) / rate) * (revenue - opex) - capex;
      let irr = NaN;
      if (f(1e-9) > 0 && f(10) < 0) {
        let lo = 1e-9,
          hi = 10;
        for (let k = 0; k < 200; k++) {
          const mid = (lo + hi) / 2;
          if (f(mid) > 0) lo = mid;
          else hi = mid;
        }
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
export function testEconomics(ratedRpmByType: number[], substation: [number, number] = [0, 0], params = TEST_MODEL): CaseEconomics {
  return {
    model: testCostModel(params),
    depth: testDepth,
    substations: [substation],
    cables: [
      { name: 'small', capacity: 3, costPerMetre: 300 },
      { name: 'large', capacity: 6, costPerMetre: 550 },
    ],
    ratedRpmByType,
  };
}

/** Small cases for the tests: 9 turbines on a jittered grid, a westerly rose. */
const rose = roseFromSectors(
  [270, 240, 300, 90, 180],
  [0.45, 0.2, 0.2, 0.1, 0.05],
  [7, 9, 11],
  [
    [0.3, 0.4, 0.3],
    [0.3, 0.4, 0.3],
    [0.3, 0.4, 0.3],
    [0.3, 0.4, 0.3],
    [0.3, 0.4, 0.3],
  ],
);
// A loose 3 × 3 grid, jittered so no two turbines are exactly aligned with a wind direction.
export const x0 = Float64Array.from([-700, 10, 690, -650, 40, 720, -680, -20, 700]);
export const y0 = Float64Array.from([-690, -720, -650, 30, -10, 60, 700, 650, 710]);

export function oneModelCase(objective: 'lcoe' | 'npv'): Case {
  return {
    ...builtinCase('iea37-cs1-16'),
    name: 'econ-one',
    wind: rose,
    nTurbines: 9,
    minSpacing: 260,
    layout: null,
    model: { wake: 'bastankhah2014', superposition: 'linear' },
    objective,
    economics: testEconomics([11.8], [-1000, 200]),
  };
}

export function mixedCase(objective: 'lcoe' | 'npv', params = TEST_MODEL): Case {
  const big = builtinTurbine('iea37-3.35mw'),
    small = builtinTurbine('v80');
  return {
    ...oneModelCase(objective),
    name: 'econ-mixed',
    turbine: big,
    turbines: { types: [big, small], minSpacingByType: Float64Array.from([520, 320]), typeOf: Int32Array.from([0, 1, 0, 1, 0, 1, 0, 0, 1]), choice: false },
    neighbours: { x: Float64Array.from([-1800, -1800]), y: Float64Array.from([-300, 400]), types: [big], typeOf: new Int32Array(2) },
    economics: testEconomics([11.8, 16.7], [-1000, 200], params),
  };
}
