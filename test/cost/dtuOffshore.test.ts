/**
 * The DTU offshore cost model (src/cost/dtuOffshore.ts) against TOPFARM2's own implementation:
 * test/data/cost/dtu_offshore_reference.json holds NPV, IRR, CAPEX, DEVEX, OPEX, ABEX computed by
 * TOPFARM's `economic_evaluation` (and an LCOE from its cost streams) on TOPFARM's test inputs and
 * varied farms (SOURCE.md there). Every figure within 1e-9 relative; the partials against central
 * differences.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { REPO } from '../helpers.js';
import { DtuOffshoreModel, dtuDefaultArrayCableCost } from '../../src/cost/dtuOffshore.js';
import type { FarmDesign } from '../../src/cost/economicModel.js';
import { internalRateOfReturn, presentValue } from '../../src/cost/discounting.js';

interface RefCase {
  name: string;
  inputs: {
    distance_from_shore_km: number;
    energy_price_eur_per_kwh: number;
    project_duration_years: number;
    discount_rate: number;
    rated_rpm: number[];
    rotor_diameter_m: number[];
    rated_power_mw: number[];
    hub_height_m: number[];
    water_depth_m: number[];
    aep_kwh: number[];
    cabling_cost_eur: number | null;
  };
  outputs: {
    npv_eur: number;
    irr_percent: number;
    lcoe_eur_per_kwh: number;
    devex_eur: number;
    capex_eur: number;
    opex_eur_per_year: number;
    abex_eur: number;
  };
}

const REF: { cases: RefCase[] } = JSON.parse(fs.readFileSync(path.join(REPO, 'test', 'data', 'cost', 'dtu_offshore_reference.json'), 'utf8'));

function setup(c: RefCase): { model: DtuOffshoreModel; design: FarmDesign } {
  const i = c.inputs;
  const model = new DtuOffshoreModel({
    distanceFromShoreKm: i.distance_from_shore_km,
    energyPriceEurPerMWh: i.energy_price_eur_per_kwh * 1000,
    projectYears: i.project_duration_years,
    discountRate: i.discount_rate,
  });
  const design: FarmDesign = {
    ratedPowerMW: Float64Array.from(i.rated_power_mw),
    rotorDiameter: Float64Array.from(i.rotor_diameter_m),
    hubHeight: Float64Array.from(i.hub_height_m),
    ratedRpm: Float64Array.from(i.rated_rpm),
    waterDepth: Float64Array.from(i.water_depth_m),
    aepMWh: Float64Array.from(i.aep_kwh, (e) => e / 1000),
    // TOPFARM without a cabling cost uses its own array-cable term; the same number here.
    cableCost: i.cabling_cost_eur ?? dtuDefaultArrayCableCost(i.rotor_diameter_m),
  };
  return { model, design };
}

const rel = (a: number, b: number): number => Math.abs(a - b) / Math.abs(b);

test('reference data: TOPFARM test inputs, the example-5 farm and varied farms (1-74 turbines, mixed types, with and without a cable cost)', () => {
  assert.ok(REF.cases.length >= 8, `${REF.cases.length} cases`);
  assert.ok(REF.cases.some((c) => c.inputs.cabling_cost_eur !== null) && REF.cases.some((c) => c.inputs.cabling_cost_eur === null));
  const counts = new Set(REF.cases.map((c) => c.inputs.rated_power_mw.length));
  assert.ok(counts.size >= 5, `turbine counts ${[...counts]}`);
  // The published (rounded) figures of TOPFARM's own tests, as a check on the reference file itself.
  const t = REF.cases.find((c) => c.name === 'topfarm-test-irr')!;
  assert.ok(Math.abs(t.outputs.capex_eur * 1e-6 - 93.6938301) < 1e-7);
  assert.ok(Math.abs(t.outputs.devex_eur * 1e-6 - 12.3461538) < 1e-7);
  assert.ok(Math.abs(t.outputs.opex_eur_per_year * 1e-6 - 6.465) < 1e-7);
  assert.ok(Math.abs(t.outputs.irr_percent - 6.2860816) < 1e-7);
  const n = REF.cases.find((c) => c.name === 'topfarm-test-npv')!;
  assert.ok(Math.abs(n.outputs.npv_eur - 0.0724087) < 1e-7);
});

test("NPV, IRR, LCOE, CAPEX, DEVEX, OPEX, ABEX equal TOPFARM's values to 1e-9 relative", () => {
  let worst = 0;
  for (const c of REF.cases) {
    const { model, design } = setup(c);
    const r = model.evaluate(design, false);
    const o = c.outputs;
    const checks: [string, number, number][] = [
      ['irr %', r.irr * 100, o.irr_percent],
      ['lcoe €/kWh', r.lcoe / 1000, o.lcoe_eur_per_kwh],
      ['capex', r.breakdown.capex_eur, o.capex_eur],
      ['devex', r.breakdown.devex_eur, o.devex_eur],
      ['opex', r.breakdown.opex_eur_per_year, o.opex_eur_per_year],
      ['abex', r.breakdown.abex_eur, o.abex_eur],
    ];
    if (c.name === 'topfarm-test-npv') {
      // Discounted at its own IRR the NPV is 0.07 € out of 1e8 € flows: only an absolute
      // comparison on the scale of the flows means anything (1e-9 of the year-0 outlay).
      const scale = o.capex_eur + o.devex_eur;
      assert.ok(Math.abs(r.npv - o.npv_eur) <= 1e-9 * scale, `${c.name} npv ${r.npv} vs ${o.npv_eur}`);
    } else checks.push(['npv', r.npv, o.npv_eur]);
    for (const [what, got, want] of checks) {
      const d = rel(got, want);
      worst = Math.max(worst, d);
      assert.ok(d <= 1e-9, `${c.name} ${what}: ${got} vs TOPFARM ${want} (relative ${d.toExponential(2)})`);
    }
  }
  console.log(`worst relative difference from TOPFARM: ${worst.toExponential(2)}`);
});

test('consistency: NPV is zero at price = LCOE and at rate = IRR', () => {
  for (const c of REF.cases) {
    const { model, design } = setup(c);
    const r = model.evaluate(design, false);
    const atLcoe = new DtuOffshoreModel({
      distanceFromShoreKm: model.distanceFromShoreKm,
      energyPriceEurPerMWh: r.lcoe,
      projectYears: model.projectYears,
      discountRate: model.discountRate,
    }).evaluate(design, false);
    const scale = r.breakdown.capex_eur + r.breakdown.devex_eur;
    assert.ok(Math.abs(atLcoe.npv) < 1e-9 * scale, `${c.name}: NPV at the LCOE price ${atLcoe.npv}`);
    const atIrr = new DtuOffshoreModel({
      distanceFromShoreKm: model.distanceFromShoreKm,
      energyPriceEurPerMWh: model.energyPriceEurPerMWh,
      projectYears: model.projectYears,
      discountRate: r.irr,
    }).evaluate(design, false);
    assert.ok(Math.abs(atIrr.npv) < 1e-9 * scale, `${c.name}: NPV at the IRR ${atIrr.npv}`);
  }
});

test("IRR: numpy_financial's textbook example and the no-root cases", () => {
  // numpy_financial.irr docstring: irr([-100, 39, 59, 55, 20]) = 0.28095 (rounded as published).
  assert.ok(Math.abs(internalRateOfReturn([-100, 39, 59, 55, 20]) - 0.28095) < 5e-6);
  assert.ok(Math.abs(internalRateOfReturn([-100, 0, 0, 74]) - -0.0955) < 5e-5);
  assert.ok(Math.abs(internalRateOfReturn([-100, 100, 0, -7]) - -0.0833) < 5e-5);
  assert.ok(Math.abs(internalRateOfReturn([-100, 100, 0, 7]) - 0.06206) < 5e-6);
  assert.ok(Math.abs(internalRateOfReturn([-5, 10.5, 1, -8, 1]) - 0.0886) < 5e-5);
  assert.ok(Number.isNaN(internalRateOfReturn([-1, -2, -3])));
  assert.ok(Number.isNaN(internalRateOfReturn([1, 2, 3])));
  // Two roots (rates 0.1 and 0.2): the one closest to zero.
  const f = [-1, 2.3, -1.32];
  assert.ok(Math.abs(presentValue(0.1, f)) < 1e-12 && Math.abs(presentValue(0.2, f)) < 1e-12);
  assert.ok(Math.abs(internalRateOfReturn(f) - 0.1) < 1e-12);
});

test("partials of LCOE and NPV w.r.t. each turbine's AEP and depth and the cable cost, against central differences", () => {
  let worst = 0;
  for (const name of ['varied-7wt', 'varied-25wt', 'topfarm-example5-iea37-16']) {
    const c = REF.cases.find((k) => k.name === name)!;
    const { model, design } = setup(c);
    // Depths differ per turbine in the varied cases; make them differ in the uniform one too.
    design.waterDepth = Float64Array.from(design.waterDepth, (d, i) => d + 0.7 * i);
    const g = model.evaluate(design, true);
    const fd = (mutate: (d: FarmDesign, h: number) => void, h: number): { lcoe: number; npv: number } => {
      const plus = { ...design, aepMWh: design.aepMWh.slice(), waterDepth: design.waterDepth.slice() };
      const minus = { ...design, aepMWh: design.aepMWh.slice(), waterDepth: design.waterDepth.slice() };
      mutate(plus, h);
      mutate(minus, -h);
      const a = model.evaluate(plus, false);
      const b = model.evaluate(minus, false);
      return { lcoe: (a.lcoe - b.lcoe) / (2 * h), npv: (a.npv - b.npv) / (2 * h) };
    };
    const cmp = (what: string, exact: number, approx: number, scale: number): void => {
      const d = Math.abs(exact - approx) / Math.max(Math.abs(exact), scale);
      worst = Math.max(worst, d);
      assert.ok(d < 1e-6, `${name} ${what}: exact ${exact} vs central difference ${approx} (${d.toExponential(2)})`);
    };
    const n = design.aepMWh.length;
    for (let i = 0; i < n; i++) {
      const a = fd((d, h) => {
        d.aepMWh[i] += h;
      }, 1e-3 * design.aepMWh[i]);
      cmp(`dLcoe/dAep[${i}]`, g.dLcoe!.aepMWh[i], a.lcoe, 0);
      cmp(`dNpv/dAep[${i}]`, g.dNpv!.aepMWh[i], a.npv, 0);
      const w = fd((d, h) => {
        d.waterDepth[i] += h;
      }, 1e-2);
      cmp(`dLcoe/dDepth[${i}]`, g.dLcoe!.waterDepth[i], w.lcoe, 0);
      cmp(`dNpv/dDepth[${i}]`, g.dNpv!.waterDepth[i], w.npv, 0);
    }
    const k = fd((d, h) => {
      d.cableCost += h;
    }, 1e3);
    cmp('dLcoe/dCable', g.dLcoe!.cableCost, k.lcoe, 0);
    cmp('dNpv/dCable', g.dNpv!.cableCost, k.npv, 0);
  }
  console.log(`worst relative gradient difference: ${worst.toExponential(2)}`);
});

test('the model refuses a design whose arrays disagree, and a project of no years', () => {
  const { model, design } = setup(REF.cases[0]);
  assert.throws(() => model.evaluate({ ...design, waterDepth: new Float64Array(3) }, false), /waterDepth has 3 entries for 10 turbines/);
  assert.throws(() => new DtuOffshoreModel({ distanceFromShoreKm: 10, energyPriceEurPerMWh: 50, projectYears: 0 }), /projectYears/);
});
