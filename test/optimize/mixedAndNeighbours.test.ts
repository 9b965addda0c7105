/**
 * The optimizer on real farms: fixed neighbours upstream change the best layout (issue 20's
 * acceptance), and with several turbine models every pair of the result keeps the larger of its two
 * turbines' spacings — fixed counts and `turbine_choice` alike, every method. Small roses and few
 * iterations keep this to seconds; the spacing is checked with raw distances, not with the
 * optimizer's own feasibility report.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { builtinCase, builtinTurbine } from '../../src/io/builtinCases.js';
import type { Case } from '../../src/case/case.js';
import { roseFromSectors } from '../../src/physics/windResource.js';
import { optimizeCase } from '../../src/optimize/optimizeCase.js';
import { caseEvaluator } from '../../src/optimize/caseEvaluator.js';
import { boundaryDistance } from '../../src/geometry/boundaryDistance.js';

// Wind mostly from the west (270°): a row of neighbours west of the site is upstream.
const westerly = roseFromSectors(
  [270, 240, 300, 90],
  [0.55, 0.2, 0.2, 0.05],
  [8, 11],
  [
    [0.5, 0.5],
    [0.5, 0.5],
    [0.5, 0.5],
    [0.5, 0.5],
  ],
);
const gradient = { method: 'gradient', wec: [2, 1], maxIterations: 40, outerIterations: 3 };

/** cs1-16's circle (radius 1300 m) and turbine, the westerly rose, optionally a row of 7 neighbours at x = −1700 m. */
function siteCase(withNeighbours: boolean): Case {
  const c: Case = { ...builtinCase('iea37-cs1-16'), wind: westerly, model: { wake: 'bastankhah2014', superposition: 'linear' } };
  if (!withNeighbours) return c;
  const ys = [-1200, -800, -400, 0, 400, 800, 1200];
  return {
    ...c,
    neighbours: { x: Float64Array.from(ys, () => -1700), y: Float64Array.from(ys), types: [builtinTurbine('iea37-3.35mw')], typeOf: new Int32Array(ys.length) },
  };
}

test('neighbours upstream: the optimized layout differs and makes more under them than the layout optimized without them', (t) => {
  const seed = 3;
  const alone = optimizeCase(siteCase(false), gradient, seed);
  const beside = optimizeCase(siteCase(true), gradient, seed);
  assert.ok(alone.feasible && beside.feasible);
  // Measurably different layouts: turbines moved by more than a rotor diameter on average.
  let moved = 0;
  for (let i = 0; i < alone.x.length; i++) moved += Math.hypot(alone.x[i] - beside.x[i], alone.y[i] - beside.y[i]);
  moved /= alone.x.length;
  assert.ok(moved > 130, `mean displacement between the two optima ${moved.toFixed(1)} m`);
  // Both layouts evaluated under the neighbours, with one evaluator.
  const underNeighbours = caseEvaluator(siteCase(true));
  const aepBeside = underNeighbours.aep(beside.x, beside.y).aepMwh;
  const aepAloneLayout = underNeighbours.aep(alone.x, alone.y).aepMwh;
  assert.ok(Math.abs(aepBeside - beside.aep) <= 1e-9 * aepBeside, `the optimizer's AEP ${beside.aep} is the own AEP under neighbours ${aepBeside}`);
  t.diagnostic(
    `seed ${seed}: mean displacement ${moved.toFixed(1)} m; own AEP under the neighbours: optimized with them ${aepBeside.toFixed(1)} MWh, ` +
      `optimized without them ${aepAloneLayout.toFixed(1)} MWh (+${((aepBeside / aepAloneLayout - 1) * 100).toFixed(2)} %); without neighbours ${alone.aep.toFixed(1)} MWh`,
  );
  assert.ok(
    aepBeside > aepAloneLayout * (1 + 1e-3),
    `own AEP under neighbours: layout optimized with them ${aepBeside.toFixed(1)} MWh vs without them ${aepAloneLayout.toFixed(1)} MWh`,
  );
  // The neighbours cost the farm energy (they wake it): the no-neighbour AEP of the no-neighbour layout is higher still.
  assert.ok(alone.aep > aepAloneLayout);
});

/** Every pair at least max(s_i, s_j) apart and every turbine inside the site, from raw distances. */
function assertPairSpacing(c: Case, x: Float64Array, y: Float64Array, typeOf: Int32Array, what: string): void {
  const s = c.turbines!.minSpacingByType;
  const dist = boundaryDistance(c.boundary!, x, y).value;
  for (let i = 0; i < x.length; i++) {
    assert.ok(dist[i] >= -1e-6, `${what}: turbine ${i} is ${-dist[i]} m outside`);
    for (let j = i + 1; j < x.length; j++) {
      const need = Math.max(s[typeOf[i]], s[typeOf[j]]);
      const d = Math.hypot(x[i] - x[j], y[i] - y[j]);
      assert.ok(d >= need - 1e-6, `${what}: turbines ${i} (model ${typeOf[i]}) and ${j} (model ${typeOf[j]}) ${d.toFixed(3)} m apart, need ${need} m`);
    }
  }
}

/**
 * 10 large (iea37-3.35mw, D 130 m) and 6 small (v80, D 80 m) turbines in cs1's circle (radius
 * 1300 m) with spacings 4D: 520 m and 320 m. (Starting layouts keep the largest spacing between
 * every pair, so the site must hold 16 turbines at 520 m.)
 */
function mixedCase(choice: boolean): Case {
  const base = builtinCase('iea37-cs1-16');
  const big = builtinTurbine('iea37-3.35mw'),
    small = builtinTurbine('v80');
  const typeOf = Int32Array.from({ length: 16 }, (_, i) => (i < 10 ? 0 : 1));
  return {
    ...base,
    name: 'mixed',
    wind: westerly,
    nTurbines: 16,
    minSpacing: 520,
    layout: null,
    model: { wake: 'bastankhah2014', superposition: 'linear' },
    turbine: big,
    turbines: { types: [big, small], minSpacingByType: Float64Array.from([520, 320]), typeOf, choice },
  };
}

for (const [method, settings] of Object.entries({
  gradient,
  random: { method: 'random', randomIterations: 300 },
  hybrid: { method: 'hybrid', wec: [1], maxIterations: 20, outerIterations: 2, randomIterations: 100 },
})) {
  test(`several models, fixed counts, ${method}: every pair keeps the larger of its two spacings`, () => {
    const c = mixedCase(false);
    for (const seed of [0, 1]) {
      const r = optimizeCase(c, settings, seed);
      assert.ok(r.feasible, `seed ${seed}: reported infeasible (${r.maxViolationM} m)`);
      assertPairSpacing(c, r.x, r.y, c.turbines!.typeOf, `${method} seed ${seed}`);
    }
  });
}

test('turbine_choice: the chosen models keep every pair spacing, and the search chooses', () => {
  const c = mixedCase(true);
  for (const seed of [0, 1]) {
    const r = optimizeCase(c, { ...gradient, maxIterations: 25 }, seed);
    assert.ok(r.typeOf && r.typeOf.length === 16, 'a model per turbine');
    assert.ok(r.typeOf.every((t) => t === 0 || t === 1));
    assert.ok(r.feasible, `seed ${seed}: reported infeasible (${r.maxViolationM} m)`);
    assertPairSpacing(c, r.x, r.y, r.typeOf, `turbine_choice seed ${seed}`);
    // The result's AEP is the AEP of its layout with its models.
    const again = caseEvaluator(c, c.model, r.typeOf).aep(r.x, r.y).aepMwh;
    assert.ok(Math.abs(again - r.aep) <= 1e-9 * again, `reported ${r.aep} vs ${again}`);
  }
});

test('several models from a given start: a large–small pair too close is pushed apart, a small pair at its own spacing may stay', () => {
  const c = mixedCase(false);
  // A ring of 16 on radius 1000 m (390 m apart), with turbines 10–15 (small) given consecutive slots:
  // small pairs 390 m apart are legal (320 m), every pair with a large turbine (520 m) is not.
  const angle = (i: number) => (2 * Math.PI * i) / 16;
  const layout = {
    x: Float64Array.from({ length: 16 }, (_, i) => 1000 * Math.sin(angle(i))),
    y: Float64Array.from({ length: 16 }, (_, i) => 1000 * Math.cos(angle(i))),
  };
  const r = optimizeCase({ ...c, layout }, { ...gradient, initial: 'given' }, 0);
  assert.ok(r.feasible, `reported infeasible (${r.maxViolationM} m)`);
  assertPairSpacing(c, r.x, r.y, c.turbines!.typeOf, 'given start');
  // The rule is per pair, not the largest spacing everywhere: some small pair stands closer than 520 m.
  let closestSmall = Infinity;
  for (let i = 10; i < 16; i++) for (let j = i + 1; j < 16; j++) closestSmall = Math.min(closestSmall, Math.hypot(r.x[i] - r.x[j], r.y[i] - r.y[j]));
  assert.ok(closestSmall < 520 - 1, `closest small pair ${closestSmall.toFixed(1)} m`);
});
