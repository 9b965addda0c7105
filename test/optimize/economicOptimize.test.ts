/**
 * The optimizer under a cost objective (objective: lcoe | npv, optimize/economicObjective.ts) with
 * the explicit test cost model of economicTestModel.ts: the returned layout's objective (from a
 * fresh cable routing) is better than its start's, the reported figures are the model's on the
 * returned layout, the same seed gives bit-identical results, and `turbine_choice` compares the
 * objective (its report says why), which can choose other models than the AEP objective does.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { optimizeCase } from '../../src/optimize/optimizeCase.js';
import type { Case } from '../../src/case/case.js';
import { createEconomicObjective } from '../../src/optimize/economicObjective.js';
import { oneModelCase, mixedCase, TEST_MODEL } from './economicTestModel.js';
import { withDirections } from '../../src/optimize/caseDirections.js';

const settings = { method: 'gradient', wec: [2, 1], maxIterations: 30, outerIterations: 3 };

for (const objective of ['lcoe', 'npv'] as const) {
  test(`${objective}: the gradient method improves the objective, reports the model's figures, and is bit-identical per seed`, (t) => {
    const c = oneModelCase(objective);
    const a = optimizeCase(c, settings, 5);
    const b = optimizeCase(c, settings, 5);
    assert.ok(a.feasible);
    assert.ok(a.economics && a.objectiveInitial !== undefined);
    const better = objective === 'lcoe' ? a.economics.value < a.objectiveInitial : a.economics.value > a.objectiveInitial;
    t.diagnostic(
      `${objective}: start ${a.objectiveInitial.toPrecision(8)}, end ${a.economics.value.toPrecision(8)}; AEP ${a.aepInitial.toFixed(1)} → ${a.aep.toFixed(1)} MWh; cables ${a.economics.cableLengthM.toFixed(0)} m, ${a.economics.cableCost.toFixed(0)}; ${a.evaluations} evaluations`,
    );
    assert.ok(better, `${objective} did not improve: ${a.objectiveInitial} → ${a.economics.value}`);
    // The figures are the model's on the returned layout with a fresh route.
    const eo = createEconomicObjective(c);
    const ev = eo.evaluate(a.x, a.y, eo.route(a.x, a.y), false);
    assert.equal(a.economics.lcoe, ev.result.lcoe);
    assert.equal(a.economics.npv, ev.result.npv);
    assert.equal(a.economics.cableEdges.length, c.nTurbines);
    assert.ok(a.economics.cableEdges.every((e) => e.type === 'small' || e.type === 'large'));
    // Determinism: bit-identical.
    assert.deepEqual(Array.from(b.x), Array.from(a.x));
    assert.deepEqual(Array.from(b.y), Array.from(a.y));
    assert.deepEqual(b.economics, a.economics);
  });
}

test('objective lcoe with a method that does not optimize it yet: one input error naming the method', () => {
  assert.throws(
    () => optimizeCase(oneModelCase('lcoe'), { method: 'global' }, 1),
    /optimizer method: 'global' does not optimize objective 'lcoe' yet; use method gradient/,
  );
});

test('turbine_choice under LCOE compares LCOE: a different choice than under AEP on a farm where the bigger rotor costs more per MWh, with the reason', (t) => {
  const choose = (objective: 'aep' | 'lcoe'): Case => {
    // The test model with a rotor-size cost (q·D³, q = 2 per m³): the big rotor costs more per MWh.
    const m = mixedCase('lcoe', { ...TEST_MODEL, q: 2 });
    return { ...m, objective, turbines: { ...m.turbines!, choice: true } };
  };
  const quick = { method: 'gradient', wec: [1], maxIterations: 15, outerIterations: 2 };
  const byAep = optimizeCase(choose('aep'), quick, 2);
  const byLcoe = optimizeCase(choose('lcoe'), quick, 2);
  // Bit-identical per seed, models and reason included.
  const again = optimizeCase(choose('lcoe'), quick, 2);
  assert.deepEqual(
    [Array.from(again.x), Array.from(again.y), Array.from(again.typeOf!), again.economics, again.typeChoice],
    [Array.from(byLcoe.x), Array.from(byLcoe.y), Array.from(byLcoe.typeOf!), byLcoe.economics, byLcoe.typeChoice],
  );
  t.diagnostic(`AEP: ${byAep.typeChoice!.reason}`);
  t.diagnostic(`LCOE: ${byLcoe.typeChoice!.reason}`);
  assert.ok(byLcoe.typeChoice!.reason.startsWith('LCOE'));
  assert.equal(byLcoe.typeChoice!.perModel.length, 2);
  const count = (r: typeof byAep, k: number) => Array.from(r.typeOf!).filter((v) => v === k).length;
  assert.notDeepEqual([count(byAep, 0), count(byAep, 1)], [count(byLcoe, 0), count(byLcoe, 1)]);
  // The LCOE choice has a lower LCOE than the AEP choice's layout and models evaluated the same way.
  const lcoeOf = (r: typeof byAep) => {
    const eo = createEconomicObjective(choose('lcoe'), r.typeOf);
    return eo.evaluate(r.x, r.y, eo.route(r.x, r.y), false).result.lcoe;
  };
  assert.ok(lcoeOf(byLcoe) < lcoeOf(byAep), `LCOE ${lcoeOf(byLcoe)} vs AEP-chosen ${lcoeOf(byAep)}`);
});

test("lcoe on a finely treated rose (direction continuation): the start's objective is on the case's own measure, and the result is better", () => {
  const c = withDirections(oneModelCase('lcoe'), { kind: 'spread', n: 8 });
  const r = optimizeCase(c, { method: 'gradient', wec: [1], maxIterations: 10, outerIterations: 2 }, 4);
  const eo = createEconomicObjective(c);
  const atStart = eo.evaluate(r.xInitial, r.yInitial, eo.route(r.xInitial, r.yInitial), false).result.lcoe;
  assert.equal(r.objectiveInitial, atStart);
  assert.ok(r.economics!.value < atStart, `${r.economics!.value} vs start ${atStart}`);
});
