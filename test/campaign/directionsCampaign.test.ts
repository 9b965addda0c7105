/**
 * A campaign farm's `directions:` (issue 28): the default (bins, written or not) leaves every
 * existing task's spec hash as it was (a finished run stays done); a treatment makes exactly that
 * farm's tasks stale; its rows pass the verification gate (which recomputes the AEP on the same
 * treated wind: rows claimed on the treated wind and checked on the bins would all be rejected);
 * each row's AEP is `wflo aep` of its layout under `--directions`; the report view says which
 * measure each cell is on; the queue payload carries the treatment (hashed, bounded); a bad value
 * is one line naming the campaign file, line and field.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { runWflo, tempDir } from '../helpers.js';
import { readCampaignView } from '../../src/views/campaignData.js';
import { loadCampaign } from '../../src/campaign/loadCampaign.js';
import { expandTasks } from '../../src/campaign/taskGrid.js';
import { caseForTask } from '../../src/campaign/caseForTask.js';
import { optimizerSettingsProblem } from '../../src/runner/taskFunction.js';
import { JobEncoder, decodeJob } from '../../src/runner/executors/bullmq/jobPayload.js';

const dir = tempDir('wflo-directions-campaign-');
const file = path.join(dir, 'campaign.yaml');
const campaign = (farm0Extra: string): string => `name: dirs
output: ./out
farms:
  - id: 0
    case: iea37-cs1-16
${farm0Extra}  - id: 1
    case: iea37-cs1-36
farm_types:
  - id: 0
    turbine: iea37-3.35mw
    n_turbines: 9
seeds: {start: 0, count: 2}
optimizer:
  method: noop
`;

function dryRun(): { done: number; stale: number; missing: number; groups: { farmId: number; done: number; stale: number }[] } {
  const r = runWflo(['run', file, '--dry-run', '--json']);
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}

test('directions in a campaign: hashes, staleness, the gate, the stored AEP and the report', async () => {
  fs.writeFileSync(file, campaign(''));
  const first = runWflo(['run', file]);
  assert.equal(first.status, 0, first.stderr);
  assert.equal(dryRun().done, 4);
  // `directions: bins` is the default: no task becomes stale.
  fs.writeFileSync(file, campaign('    directions: bins\n'));
  assert.deepEqual([dryRun().done, dryRun().stale], [4, 0]);
  // A treatment: farm 0's tasks are stale, farm 1's stay done.
  fs.writeFileSync(file, campaign('    directions: {spread: 8}\n'));
  const d = dryRun();
  assert.deepEqual(
    d.groups.map((g) => [g.farmId, g.done, g.stale]),
    [
      [0, 0, 2],
      [1, 2, 0],
    ],
  );
  // Run again: the gate accepts the treated rows (none failed).
  const second = runWflo(['run', file]);
  assert.equal(second.status, 0, second.stderr);
  assert.match(second.stderr + second.stdout, /4\/4 done \(2 this run\), 0 failed/);
  // Another treatment is another spec.
  fs.writeFileSync(file, campaign('    directions: {spread: 9}\n'));
  assert.deepEqual(
    dryRun().groups.map((g) => [g.farmId, g.stale]),
    [
      [0, 2],
      [1, 0],
    ],
  );
  fs.writeFileSync(file, campaign('    directions: {spread: 8}\n'));
  assert.equal(dryRun().done, 4);

  // The stored AEP of a farm-0 row is `wflo aep` of its layout with --directions spread:8, not its bins' AEP.
  const layoutFile = path.join(dir, 'row.yaml');
  const exp = runWflo(['export', path.join(dir, 'out'), '--windio', '--task', 'farm_0_type_0_seed_1', '-o', layoutFile]);
  assert.equal(exp.status, 0, exp.stderr);
  const stored = runWflo(['aep', layoutFile, '--case', 'iea37-cs1-16', '--directions', 'spread:8', '--json']);
  assert.equal(stored.status, 0, stored.stderr);
  const view = await readCampaignView(path.join(dir, 'out'), {});
  const cell0 = view.cells.find((c) => c.farmId === 0)!,
    cell1 = view.cells.find((c) => c.farmId === 1)!;
  assert.equal(cell0.measure, 'spread:8');
  assert.equal(cell1.measure, 'bins');
  const aep = JSON.parse(stored.stdout);
  const seeds = [cell0.best!, cell0.worst!].filter((r) => r.taskId === 'farm_0_type_0_seed_1');
  assert.equal(seeds.length > 0, true);
  assert.ok(Math.abs(seeds[0].aep - aep.aep_mwh) <= 1e-9 * aep.aep_mwh, `stored ${seeds[0].aep} vs wflo aep --directions ${aep.aep_mwh}`);
  assert.ok(Math.abs(seeds[0].aep - aep.aep_bins_mwh) > 1e-6 * aep.aep_mwh, "not the bins' AEP");
});

test('a bad directions value in a campaign: one line with the file, line and field', () => {
  const bad = path.join(dir, 'bad.yaml');
  fs.writeFileSync(bad, campaign('    directions: {spread: 0}\n'));
  const r = runWflo(['run', bad, '--dry-run']);
  assert.equal(r.status, 2, r.stderr);
  assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
  assert.match(r.stderr, /bad\.yaml:6: farms\[0\]\.directions\.spread: expected a whole number of sub-directions per bin from 1 to 1000, got 0/);
  fs.writeFileSync(bad, campaign('    directions: {gausian: {sigma_deg: 3, points: 5}}\n'));
  const r2 = runWflo(['run', bad, '--dry-run']);
  assert.equal(r2.status, 2);
  assert.match(r2.stderr, /bad\.yaml:6: farms\[0\]\.directions\.gausian: unknown field 'gausian'; did you mean 'gaussian'\?/);
});

test('the queue payload carries the treatment: decoded, hashed, and a tampered one refused', () => {
  const f = path.join(dir, 'payload.yaml');
  fs.writeFileSync(f, campaign('    directions: {gaussian: {sigma_deg: 4, points: 7}}\n'));
  const c = loadCampaign(f, { optimizerProblem: optimizerSettingsProblem });
  assert.deepEqual(c.farms[0].directions, { kind: 'gaussian', sigmaDeg: 4, n: 7 });
  assert.equal(c.farms[1].directions, undefined);
  const enc = new JobEncoder({ farms: c.farms, farmTypes: c.farmTypes, optimizer: c.optimizer, timeoutS: c.timeoutS, campaignName: c.name, campaignHash: 'h' });
  const task = expandTasks(c).find((t) => t.farmIndex === 0)!;
  const job = JSON.parse(JSON.stringify(enc.encode({ task, attempt: 1 })));
  const decoded = decodeJob(job, task.taskId);
  assert.deepEqual(decoded.farm.directions, c.farms[0].directions);
  assert.equal(decoded.data.specHash, task.specHash);
  // The worker's case is on the treated wind (7 points per bin).
  assert.equal(caseForTask(decoded.farm, decoded.type).wind.directionsDeg.length, 16 * 7);
  // Another treatment in the payload no longer matches its spec hash; one out of bounds is refused by the schema.
  assert.throws(
    () => decodeJob({ ...job, farm: { ...job.farm, directions: { kind: 'gaussian', sigmaDeg: 5, n: 7 } } }, 'x'),
    /spec hash .* does not match its contents/,
  );
  assert.throws(() => decodeJob({ ...job, farm: { ...job.farm, directions: { kind: 'spread', n: 1e9 } } }, 'x'), /payload rejected: farm\.directions/);
});
