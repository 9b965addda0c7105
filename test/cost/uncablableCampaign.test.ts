/**
 * In a campaign an uncablable start is a permanent failure: not retried, recorded with its reason
 * (the turbines, 0-based, and the zone) in the ledger, shown by `wflo status` and `wflo missing`.
 * A real campaign of two tasks on the lane farm of uncablableStart.test.ts (IEA37 cs1-16 cut by a
 * shipping lane wider than the site, the substation south of it; objective lcoe, gradient, random
 * starts from seeds 1 and 2): before, each task ran its energy stages three times (the default
 * attempts) and failed with "some turbines cannot reach a substation".
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { runWflo, tempDir } from '../helpers.js';
import { LANE_CASE } from './laneCase.js';

test('an uncablable LCOE task fails after one attempt, and status and missing say which turbines and why', { timeout: 120_000 }, () => {
  const dir = tempDir('wflo-lane-campaign-');
  fs.writeFileSync(path.join(dir, 'lane.yaml'), LANE_CASE);
  fs.writeFileSync(
    path.join(dir, 'campaign.yaml'),
    [
      'name: lanecamp',
      'output: out',
      'farms:',
      '  - {id: 0, case: lane.yaml}',
      'farm_types:',
      '  - {id: 0, turbine: iea37-3.35mw, n_turbines: 16, objective: lcoe}',
      'seeds: {start: 1, count: 2}',
      'optimizer: {method: gradient}',
      '',
    ].join('\n'),
  );
  const out = path.join(dir, 'out');
  const run = runWflo(['run', path.join(dir, 'campaign.yaml'), '--workers', '1']);
  assert.equal(run.status, 1, run.stderr);
  const why = (seed: number) =>
    new RegExp(
      `farm_0_type_0_seed_${seed} failed after 1 attempt \\(not retried: it would fail again\\): farm_0_type_0: the start layout \\(initial random, seed ${seed}\\) cannot be cabled, so nothing was optimized: economics: found no valid network: turbines [0-9, ]+ \\(0-based\\) cannot reach a substation: .*"shipping lane"`,
    );
  assert.match(run.stderr, why(1));
  assert.match(run.stderr, why(2));
  assert.doesNotMatch(run.stderr, /after [23] attempts/);

  const status = runWflo(['status', out]);
  assert.match(status.stdout, /0\/2 done, 2 failed/);
  for (const seed of [1, 2])
    assert.match(
      status.stdout,
      new RegExp(
        `farm_0_type_0_seed_${seed} after 1 attempt: farm_0_type_0: the start layout \\(initial random, seed ${seed}\\) cannot be cabled.*turbines [0-9, ]+ \\(0-based\\) cannot reach a substation`,
      ),
    );

  const missing = runWflo(['missing', out, '--json']);
  assert.equal(missing.status, 3, missing.stderr);
  const list = JSON.parse(missing.stdout) as { taskId: string; state: string; attempts?: number; error?: string }[];
  assert.deepEqual(
    list.map((m) => [m.taskId, m.state, m.attempts]),
    [
      ['farm_0_type_0_seed_1', 'failed', 1],
      ['farm_0_type_0_seed_2', 'failed', 1],
    ],
  );
  for (const m of list) assert.match(m.error!, /cannot be cabled, so nothing was optimized: .*turbines [0-9, ]+ \(0-based\) cannot reach a substation/);
  const text = runWflo(['missing', out]);
  assert.match(text.stdout, /^farm_0_type_0_seed_1\tfailed\tafter 1 attempt: farm_0_type_0: the start layout/m);
  fs.rmSync(dir, { recursive: true, force: true });
});
