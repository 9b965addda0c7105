/**
 * The ground mirror from every input: `wflo aep --ground`, a case file's `ground`, a campaign
 * farm's `ground` (its spec hash, the queue payload, a real run whose rows the gate recomputes with
 * the mirror), and one-line refusals where it cannot be computed (blockage, the weighted sum, an
 * unknown name). The physics itself is checked against PyWake in test/physics/pywakeReference.test.ts.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { PYWAKE_REFERENCE, runWflo, tempDir } from '../helpers.js';
import { parseCampaign, loadCampaign } from '../../src/campaign/loadCampaign.js';
import { expandTasks } from '../../src/campaign/taskGrid.js';
import { caseForTask } from '../../src/campaign/caseForTask.js';
import { optimizerSettingsProblem } from '../../src/runner/taskFunction.js';
import { JobEncoder, decodeJob } from '../../src/runner/executors/bullmq/jobPayload.js';
import { createFarmEvaluator } from '../../src/physics/aep.js';
import { readLayoutsFile } from '../../src/io/hdf5/index.js';

const dir = tempDir('wflo-ground-');
after(() => fs.rmSync(dir, { recursive: true, force: true }));

const CAMPAIGN = `name: ground
output: out
farms:
  - id: 0
    boundary: {polygon: [[0, 0], [1400, 0], [1400, 1000], [0, 1000]]}
    wind: iea37-cs1
    wake_model: niayifar2016
    superposition: linear
    ground: mirror
farm_types:
  - {id: 0, turbine: v80, n_turbines: 6}
seeds: [1, 2]
optimizer: {method: gradient, max_iterations: 6}
`;

test('wflo aep: --ground mirror on a reference file without it reproduces the ground case; --ground none undoes it', () => {
  const ground = path.join(PYWAKE_REFERENCE, 'ground-niayifar2016-grid5x5.yaml');
  const plain = path.join(PYWAKE_REFERENCE, 'niayifar2016-grid5x5.yaml');
  const expected = JSON.parse(runWflo(['aep', ground, '--json']).stdout);
  assert.equal(expected.ground, 'mirror');
  assert.ok(Math.abs(expected.relative_difference) <= 1e-12);
  const added = runWflo(['aep', plain, '--ground', 'mirror', '--json']);
  assert.equal(added.status, 0, added.stderr);
  assert.equal(JSON.parse(added.stdout).aep_mwh, expected.aep_mwh);
  const removed = JSON.parse(runWflo(['aep', ground, '--ground', 'none', '--json']).stdout);
  assert.equal(removed.ground, undefined);
  assert.equal(removed.aep_mwh, JSON.parse(runWflo(['aep', plain, '--json']).stdout).aep_mwh);
  assert.ok(removed.aep_mwh > expected.aep_mwh, 'the image wakes cost energy');
});

test('one line, exit 2: an unknown ground, the mirror with blockage or the weighted sum (flag, case file, campaign)', () => {
  const bad = (args: string[], pattern: RegExp) => {
    const r = runWflo(args, { cwd: dir });
    assert.equal(r.status, 2, `${args.join(' ')}: ${r.stdout}${r.stderr}`);
    assert.match(r.stderr, pattern);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
  };
  bad(['aep', '--case', 'iea37-cs1-16', '--ground', 'wall'], /--ground: expected one of: none, mirror; got 'wall'/);
  bad(
    ['aep', '--case', 'iea37-cs1-16', '--ground', 'mirror', '--blockage', 'selfsimilarity2020'],
    /--ground: the ground mirror is not supported with blockage/,
  );
  fs.writeFileSync(path.join(dir, 'case.yaml'), 'base: iea37-cs1-16\nwake_model: bastankhah2014\nsuperposition: weighted\nground: mirror\n');
  bad(['aep', 'case.yaml'], /case\.yaml:4: ground: the ground mirror is not supported with the weighted sum/);
  fs.writeFileSync(path.join(dir, 'case2.yaml'), 'base: iea37-cs1-16\nground: ice\n');
  bad(['aep', 'case2.yaml'], /case2\.yaml:2: ground/);
  fs.writeFileSync(path.join(dir, 'bad.yaml'), CAMPAIGN.replace('    ground: mirror\n', '    ground: mirror\n    blockage: selfsimilarity2020\n'));
  bad(['run', 'bad.yaml', '--dry-run'], /bad\.yaml:9: farms\[0\]\.ground: the ground mirror is not supported with blockage/);
  assert.equal(fs.existsSync(path.join(dir, 'out')), false, 'nothing was written');
});

test("a case file's ground: the mirror's AEP, and no reference AEP of a base whose model it changed", () => {
  fs.writeFileSync(path.join(dir, 'mirror.yaml'), 'base: iea37-cs1-16\nground: mirror\n');
  const r = JSON.parse(runWflo(['aep', 'mirror.yaml', '--json'], { cwd: dir }).stdout);
  const base = JSON.parse(runWflo(['aep', '--case', 'iea37-cs1-16', '--json']).stdout);
  assert.equal(r.ground, 'mirror');
  assert.ok(r.aep_mwh < base.aep_mwh, `${r.aep_mwh} vs ${base.aep_mwh}`);
  assert.equal(r.reference_aep_mwh, undefined, 'the IEA37 reference is not for the mirrored model');
  assert.ok(Math.abs(base.relative_difference) <= 1e-9, 'the base case keeps its reference');
});

test("a campaign farm's ground: part of its spec hash and of the queue payload", () => {
  const file = path.join(dir, 'campaign.yaml');
  fs.writeFileSync(file, CAMPAIGN);
  const c = loadCampaign(file, { optimizerProblem: optimizerSettingsProblem });
  assert.equal(c.farms[0].model.ground, 'mirror');
  const without = parseCampaign(CAMPAIGN.replace('    ground: mirror\n', ''), file, { optimizerProblem: optimizerSettingsProblem });
  const none = parseCampaign(CAMPAIGN.replace('ground: mirror', 'ground: none'), file, { optimizerProblem: optimizerSettingsProblem });
  assert.notEqual(without.farms[0].hash, c.farms[0].hash);
  assert.equal(none.farms[0].hash, without.farms[0].hash, '`ground: none` is the default: the same farm');
  const enc = new JobEncoder({ farms: c.farms, farmTypes: c.farmTypes, optimizer: c.optimizer, timeoutS: c.timeoutS, campaignName: c.name, campaignHash: 'h' });
  for (const task of expandTasks(c)) {
    const decoded = decodeJob(JSON.parse(JSON.stringify(enc.encode({ task, attempt: 1 }))), task.taskId);
    assert.deepEqual(decoded.farm.model, c.farms[0].model);
    assert.equal(decoded.data.specHash, task.specHash);
  }
});

test("wflo run with the mirror: every row's AEP is the mirrored model's AEP of its layout", async () => {
  const file = path.join(dir, 'campaign.yaml');
  fs.writeFileSync(file, CAMPAIGN);
  const r = runWflo(['run', file, '--quiet'], { timeoutMs: 300_000 });
  assert.equal(r.status, 0, r.stdout + r.stderr);
  const c = loadCampaign(file, { optimizerProblem: optimizerSettingsProblem });
  const { records } = await readLayoutsFile(path.join(dir, 'out', 'layouts.h5'));
  assert.equal(records.length, 2);
  const cs = caseForTask(c.farms[0], c.farmTypes[0]);
  for (const rec of records) {
    const mirrored = createFarmEvaluator(cs.turbine, cs.wind, cs.model).aep(rec.x, rec.y).aepMwh;
    const plain = createFarmEvaluator(cs.turbine, cs.wind, { ...cs.model, ground: 'none' }).aep(rec.x, rec.y).aepMwh;
    assert.ok(Math.abs(mirrored - rec.aep) <= 1e-12 * mirrored, `${rec.taskId}: stored ${rec.aep}, mirrored ${mirrored}`);
    assert.ok(Math.abs(plain - rec.aep) > 1e-6 * plain, `${rec.taskId}: the stored AEP is not the mirror-free one`);
  }
});
