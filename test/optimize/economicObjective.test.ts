/**
 * The economic objective's exact gradient (optimize/economicObjective.ts): ∂J/∂(x, y) of J = LCOE
 * and J = −NPV through the wake engine's per-turbine AEP, the water depth and the fixed-topology
 * cable cost, against central differences of J itself, on a one-model farm and on a mixed farm with
 * neighbours. The cost model is the explicit test model of economicTestModel.ts (its ∂NPV/∂AEP_i
 * differ by turbine, so the per-turbine weighted energy solve is exercised too).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Case } from '../../src/case/case.js';
import { createEconomicObjective } from '../../src/optimize/economicObjective.js';
import { mixedCase, oneModelCase, x0, y0 } from './economicTestModel.js';
import { createWeightedAepEvaluator } from '../../src/physics/weightedAep.js';
import { caseEvaluator, caseTypes } from '../../src/optimize/caseEvaluator.js';

function checkGradient(c: Case, label: string, t: { diagnostic(s: string): void }): void {
  const eo = createEconomicObjective(c);
  const network = eo.route(x0, y0);
  const at = eo.evaluate(x0, y0, network, true);
  const n = x0.length;
  const h = 1e-3;
  let worst = 0,
    norm = 0;
  for (let i = 0; i < 2 * n; i++) norm = Math.max(norm, Math.abs(i < n ? at.gradX![i] : at.gradY![i - n]));
  for (let i = 0; i < 2 * n; i++) {
    const x = Float64Array.from(x0),
      y = Float64Array.from(y0);
    const v = i < n ? x : y,
      k = i % n;
    v[k] += h;
    const plus = eo.evaluate(x, y, network, false).value;
    v[k] -= 2 * h;
    const minus = eo.evaluate(x, y, network, false).value;
    const fd = (plus - minus) / (2 * h);
    const exact = i < n ? at.gradX![k] : at.gradY![k];
    worst = Math.max(worst, Math.abs(fd - exact) / norm);
  }
  t.diagnostic(
    `${label}: J ${at.value.toPrecision(10)}, max |∂J| ${norm.toExponential(3)} per m, worst |exact − central difference| / max |∂J| = ${worst.toExponential(2)} (h = ${h} m); cable ${network.totalLength.toFixed(1)} m, cost ${network.totalCost.toFixed(0)}`,
  );
  assert.ok(norm > 0 && Number.isFinite(norm));
  assert.ok(worst < 1e-5, `${label}: worst relative gradient error ${worst}`);
}

for (const objective of ['lcoe', 'npv'] as const) {
  test(`${objective}: exact gradient against central differences, one-model farm`, (t) => checkGradient(oneModelCase(objective), `${objective} one model`, t));
  test(`${objective}: exact gradient against central differences, mixed farm with neighbours`, (t) =>
    checkGradient(mixedCase(objective), `${objective} mixed`, t));
}

test("the objective is the model's LCOE / −NPV of the engine's AEP, the depth at each turbine and the network's cable cost", () => {
  const c = oneModelCase('npv');
  const eo = createEconomicObjective(c);
  const network = eo.route(x0, y0);
  const ev = eo.evaluate(x0, y0, network, false);
  assert.equal(ev.value, -ev.result.npv);
  assert.ok(Math.abs(ev.cableCost - network.totalCost) <= 1e-9 * network.totalCost);
  assert.equal(ev.depth[4], 25 + 0.004 * 40 - 0.003 * -10 + 2e-6 * 40 * -10);
  let sum = 0;
  for (const v of ev.perTurbineMwh) sum += v;
  assert.ok(Math.abs(sum - ev.aepMwh) <= 1e-9 * ev.aepMwh);
});

test("the weighted energy solve with every weight 1 is the engine's AEP and AEP gradient (one-model farm: another engine computes it)", () => {
  const c = oneModelCase('lcoe');
  const w = createWeightedAepEvaluator(caseTypes(c).types, c.wind, c.model)(x0, y0, new Int32Array(9), new Float64Array(9).fill(1));
  const r = caseEvaluator(c).aepWithGradient(x0, y0);
  assert.ok(Math.abs(w.weightedMwh - r.aepMwh) <= 1e-10 * r.aepMwh, `${w.weightedMwh} vs ${r.aepMwh}`);
  let scale = 0;
  for (let i = 0; i < 9; i++) scale = Math.max(scale, Math.abs(r.gradX[i]), Math.abs(r.gradY[i]));
  for (let i = 0; i < 9; i++) {
    assert.ok(Math.abs(w.perTurbineMwh[i] - r.perTurbineMwh[i]) <= 1e-10 * r.perTurbineMwh[i]);
    assert.ok(Math.abs(w.gradX[i] - r.gradX[i]) <= 1e-9 * scale && Math.abs(w.gradY[i] - r.gradY[i]) <= 1e-9 * scale, `turbine ${i}`);
  }
});
