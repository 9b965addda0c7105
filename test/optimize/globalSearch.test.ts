/**
 * The global method: deterministic per seed, feasible, and on IEA37 cs1-16 it passes the best
 * result of the 2019 IEA37 paper (418 924.41 MWh, Baker et al., AIAA 2019-0540) with a small hop
 * budget. Settings: the new keys validate, and giving `hops` lifts the work budget.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { builtinCase } from '../../src/io/builtinCases.js';
import { optimizeLayout } from '../../src/optimize/optimizeLayout.js';
import { resolveSettings } from '../../src/optimize/settings.js';
import { checkFeasibility } from '../../src/geometry/feasibility.js';
import type { SearchProgress } from '../../src/optimize/globalSearch.js';

const PAPER_BEST_CS1_16 = 418924.41;

test('global: same seed, bit-identical layout; progress events end at the returned AEP', () => {
  const c = builtinCase('iea37-cs1-16');
  const settings = { method: 'global', hops: 6, seedLayouts: 2 };
  const events: SearchProgress[] = [];
  const a = optimizeLayout(c, settings, 4, { onProgress: (e) => events.push(e) });
  const b = optimizeLayout(c, settings, 4);
  assert.deepEqual(Array.from(a.x), Array.from(b.x));
  assert.deepEqual(Array.from(a.y), Array.from(b.y));
  assert.equal(a.aep, b.aep);
  assert.equal(events.filter((e) => e.move === 'seed').length, 2);
  assert.equal(events.filter((e) => e.move !== 'seed').length, 6);
  assert.equal(events[events.length - 1]!.bestAep, a.aep);
  assert.ok(checkFeasibility(c.boundary, a.x, a.y, c.minSpacing, 1e-6).feasible);
});

test("global on cs1-16 beats the 2019 paper's best with 150 hops (seed 13)", () => {
  const c = builtinCase('iea37-cs1-16');
  const r = optimizeLayout(c, { method: 'global', initial: 'structured', hops: 150 }, 13);
  assert.ok(r.feasible);
  assert.ok(r.aep > PAPER_BEST_CS1_16, `${r.aep}`);
});

test('settings: new keys, defaults and validation', () => {
  const d = resolveSettings({ method: 'global' });
  assert.equal(d.initial, 'structured');
  assert.equal(d.restarts, 3);
  assert.equal(d.workBudget, 7.5e8);
  const h = resolveSettings({ method: 'global', hops: 40 });
  assert.equal(h.workBudget, Infinity);
  assert.equal(h.restarts, 1);
  assert.equal(resolveSettings({ method: 'gradient' }).hops, 0);
  assert.equal(resolveSettings({ method: 'gradient' }).initial, 'random');
  for (const initial of ['rings', 'hex', 'rows', 'greedy', 'structured'] as const)
    assert.equal(resolveSettings({ method: 'gradient', initial }).initial, initial);
  assert.throws(() => resolveSettings({ method: 'global', shakeStep: -1 }), /shakeStep: expected a number > 0/);
  assert.throws(() => resolveSettings({ method: 'global', restarts: 1.5 }), /restarts: expected a whole number/);
});

for (const initial of ['rings', 'hex', 'rows', 'greedy'] as const) {
  test(`initial ${initial}: feasible start on cs1-36 and cs3`, () => {
    for (const name of ['iea37-cs1-36', 'iea37-cs3']) {
      const c = builtinCase(name);
      const r = optimizeLayout(c, { method: 'none', initial }, 2);
      assert.ok(checkFeasibility(c.boundary, r.x, r.y, c.minSpacing, 1e-6).feasible, `${name} ${initial}`);
      assert.equal(r.x.length, c.nTurbines);
    }
  });
}
