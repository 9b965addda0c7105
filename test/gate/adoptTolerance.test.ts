/**
 * `--tolerance-m` is an allowance of the gate for adopted records only: a layout with a turbine
 * 0.01 m outside the IEA37 cs1 circle (radius 1300 m, a published fact) is refused by default,
 * the reason saying how far off and which option accepts it; with the option it passes, stored
 * exactly as given (not projected), and says how far it strays. The same row from wflo's own
 * optimizer, a shard's ledger or a recovered file is refused whatever the option (wflo's rows are
 * never loosened), and its reason names no option.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { loadCampaign } from '../../src/campaign/loadCampaign.js';
import { expandTasks } from '../../src/campaign/taskGrid.js';
import { toleranceAccepting } from '../../src/campaign/verifyRecord.js';
import { RowGate, type RowOrigin } from '../../src/runner/gate/rowGate.js';
import type { ResultRow } from '../../src/runner/resultRow.js';
import { REPO } from '../helpers.js';

const campaign = loadCampaign(path.join(REPO, 'examples', 'rescue', 'campaign.yaml'));
const task = expandTasks(campaign).find((t) => t.taskId === 'farm_0_type_0_seed_0')!;

/** 8 turbines on a ring of radius 1000 m (785 m apart), turbine 0 moved to `radius` m from the centre. */
function candidate(radius: number): ResultRow {
  const x = new Float64Array(8),
    y = new Float64Array(8);
  for (let k = 0; k < 8; k++) {
    const r = k === 0 ? radius : 1000;
    x[k] = r * Math.cos((2 * Math.PI * k) / 8);
    y[k] = r * Math.sin((2 * Math.PI * k) / 8);
  }
  return {
    taskId: task.taskId,
    specHash: task.specHash,
    farmId: 0,
    farmType: 0,
    seed: 0,
    nTurbines: 8,
    aep: NaN,
    aepInitial: NaN,
    x,
    y,
    xInitial: new Float64Array(0),
    yInitial: new Float64Array(0),
    iterations: -1,
    evaluations: -1,
    wallS: NaN,
    attempts: -1,
  };
}

const adopted: RowOrigin = { kind: 'adopted', file: 'layouts.h5_temp/worker_7.h5' };

test('an adopted layout 0.01 m outside: refused by default, naming --tolerance-m; adopted with it, as written', () => {
  const strict = new RowGate(campaign, { adoptAep: 'recompute', threads: 0 });
  const refused = strict.checkNow(task, candidate(1300.01), adopted);
  assert.equal(refused.ok, false);
  if (refused.ok) return;
  assert.match(refused.reason, /^turbine 0 is 0\.01 m outside the boundary \(0\.01 m off, beyond the 1e-6 m tolerance: --tolerance-m 0\.01 accepts it\)$/);
  assert.ok(Math.abs(refused.offByM! - 0.01) < 1e-9, String(refused.offByM));

  const loose = new RowGate(campaign, { adoptAep: 'recompute', adoptToleranceM: 0.01, threads: 0 });
  const given = candidate(1300.01);
  const passed = loose.checkNow(task, given, adopted);
  assert.equal(passed.ok, true, passed.ok ? '' : passed.reason);
  if (!passed.ok) return;
  assert.deepEqual([Array.from(passed.row.x), Array.from(passed.row.y)], [Array.from(given.x), Array.from(given.y)], 'stored as written, not projected');
  assert.ok(Math.abs(passed.slackM! - 0.01) < 1e-9);
  assert.equal(passed.row.source, 'adopted:layouts.h5_temp/worker_7.h5');

  const tighter = new RowGate(campaign, { adoptAep: 'recompute', adoptToleranceM: 0.005, threads: 0 }).checkNow(task, candidate(1300.01), adopted);
  assert.ok(!tighter.ok && /beyond --tolerance-m 0\.005: --tolerance-m 0\.01 accepts it\)$/.test(tighter.reason), tighter.ok ? '' : tighter.reason);
  const far = strict.checkNow(task, candidate(1350), adopted);
  assert.ok(!far.ok && /^turbine 0 is 50\.0 m outside the boundary$/.test(far.reason), 'a 50 m violation is no slack: no option is named');
});

test('rows wflo computed, collected or recovered are never loosened by the adoption tolerance', () => {
  const loose = new RowGate(campaign, { adoptAep: 'recompute', adoptToleranceM: 1, threads: 0 });
  for (const origin of [{ kind: 'computed' }, { kind: 'shard', folder: 'shard-0' }, { kind: 'recovered', file: 'layouts.h5' }] as RowOrigin[]) {
    const v = loose.checkNow(task, candidate(1300.01), origin);
    assert.equal(v.ok, false, origin.kind);
    if (!v.ok) assert.match(v.reason, /^turbine 0 is 0\.01 m outside the boundary$/, origin.kind);
  }
});

test('the tolerance a refusal names accepts the violation it reports', () => {
  assert.equal(toleranceAccepting(0.0100000002), 0.01);
  assert.equal(toleranceAccepting(260 - 259.9995), 0.0005);
  assert.equal(toleranceAccepting(0.0121), 0.013);
  const loose = (m: number) => new RowGate(campaign, { adoptAep: 'recompute', adoptToleranceM: m, threads: 0 });
  for (const radius of [1300.0003, 1300.01, 1300.0121, 1300.37]) {
    const refused = loose(1e-6).checkNow(task, candidate(radius), adopted);
    assert.ok(!refused.ok);
    if (refused.ok) continue;
    const named = Number(/--tolerance-m (\S+) accepts it/.exec(refused.reason)![1]);
    assert.ok(loose(named).checkNow(task, candidate(radius), adopted).ok, `radius ${radius}: --tolerance-m ${named} accepts it`);
  }
});
