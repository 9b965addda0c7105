/**
 * Campaigns with a time-series farm (a CSV beside the campaign file), a blockage farm and a rose
 * with a turbulence intensity per bin: strict keys and one-line errors (also from inside the
 * CSV), a real run whose rows pass the gate (the AEP recomputed with the campaign's model) and
 * whose layouts.h5 stores the series (read back with h5py), the AEP of every row equal to the
 * farm model's AEP of its layout, and the queue payload carrying it all (spec hash intact).
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { PYTHON, hasH5py, runWflo, tempDir } from '../helpers.js';
import { parseCampaign, loadCampaign } from '../../src/campaign/loadCampaign.js';
import { expandTasks } from '../../src/campaign/taskGrid.js';
import { caseForTask } from '../../src/campaign/caseForTask.js';
import { optimizerSettingsProblem } from '../../src/runner/taskFunction.js';
import { JobEncoder, decodeJob } from '../../src/runner/executors/bullmq/jobPayload.js';
import { createFarmEvaluator } from '../../src/physics/aep.js';
import { InputError } from '../../src/util/errors.js';
import { createRng } from '../../src/util/rng.js';

const dir = tempDir('wflo-realfarms-');
after(() => fs.rmSync(dir, { recursive: true, force: true }));
const file = path.join(dir, 'campaign.yaml');

// 240 ten-minute samples from a seeded random walk, with a turbulence intensity each.
const rng = createRng(42);
const csv = ['time,wind_direction,wind_speed,turbulence_intensity'];
let direction = 250;
for (let t = 0; t < 240; t++) {
  direction = (direction + 30 * (rng.uniform(0, 1) - 0.5) + 360) % 360;
  csv.push(
    `${new Date(Date.UTC(2024, 0, 1) + t * 600_000).toISOString()},${direction.toFixed(1)},${(4 + 10 * rng.uniform(0, 1)).toFixed(2)},${(0.05 + 0.1 * rng.uniform(0, 1)).toFixed(3)}`,
  );
}
fs.writeFileSync(path.join(dir, 'met.csv'), `${csv.join('\n')}\n`);

const CAMPAIGN = `name: real-farms
output: out
farms:
  - id: 0
    label: met mast
    boundary: {polygon: [[0, 0], [1600, 0], [1600, 1200], [0, 1200]]}
    wind: met.csv
    wake_model: niayifar2016
    superposition: linear
  - id: 1
    label: blockage
    boundary: {polygon: [[0, 0], [1600, 0], [1600, 1200], [0, 1200]]}
    wind:
      wind_direction: [0, 90, 180, 270]
      wind_speed: [7, 11]
      probability: [[0.1, 0.1], [0.1, 0.2], [0.1, 0.1], [0.1, 0.2]]
      turbulence_intensity: [[0.1, 0.08], [0.12, 0.07], [0.1, 0.08], [0.09, 0.06]]
    wake_model: niayifar2016
    superposition: linear
    blockage: selfsimilarity2020
farm_types:
  - {id: 0, turbine: iea37-3.35mw, n_turbines: 4}
seeds: [1, 2]
optimizer: {method: gradient, max_iterations: 4}
workers: 2
`;

const errorOf = (text: string): string => {
  try {
    parseCampaign(text, file, { optimizerProblem: optimizerSettingsProblem });
  } catch (err) {
    assert.ok(err instanceof InputError, String(err));
    assert.equal(err.message.includes('\n'), false, err.message);
    return err.message;
  }
  throw new Error('expected an InputError');
};

test("campaign keys: blockage strict, the CSV's own errors name its line", () => {
  assert.match(
    errorOf(CAMPAIGN.replace('blockage: selfsimilarity2020', 'blockage: selfsimilarity2016')),
    /campaign\.yaml:20: farms\[1\]\.blockage: .*selfsimilarity2020/,
  );
  assert.match(
    errorOf(CAMPAIGN.replace('    blockage: selfsimilarity2020', '    blockag: selfsimilarity2020')),
    /campaign\.yaml:20: farms\[1\]\.blockag: unknown field 'blockag'; did you mean 'blockage'\?/,
  );
  assert.match(
    errorOf(CAMPAIGN.replace('[0.09, 0.06]]', '[0.09]]')),
    /campaign\.yaml:\d+: farms\[1\]\.wind\.turbulence_intensity\[3\]: 1 values for 2 wind speeds/,
  );
  fs.writeFileSync(path.join(dir, 'bad.csv'), 'wind_direction,wind_speed\n270,8\n90,-3\n');
  assert.match(errorOf(CAMPAIGN.replace('wind: met.csv', 'wind: bad.csv')), /bad\.csv:3: wind_speed: -3 must be >= 0/);
  const c = parseCampaign(CAMPAIGN, file, { optimizerProblem: optimizerSettingsProblem });
  assert.equal(c.farms[0].wind.series?.speeds.length, 240);
  assert.equal(c.farms[1].model.blockage, 'selfsimilarity2020');
  assert.equal(c.farms[1].wind.turbulenceIntensityByBin?.length, 8);
  const without = parseCampaign(CAMPAIGN.replace('    blockage: selfsimilarity2020\n', ''), file, { optimizerProblem: optimizerSettingsProblem });
  assert.notEqual(without.farms[1].hash, c.farms[1].hash);
  assert.equal(without.farms[0].hash, c.farms[0].hash);
});

test('a queue job carries the series, the turbulence table and the blockage model with its spec hash', () => {
  fs.writeFileSync(file, CAMPAIGN);
  const c = loadCampaign(file, { optimizerProblem: optimizerSettingsProblem });
  const setup = { farms: c.farms, farmTypes: c.farmTypes, optimizer: c.optimizer, timeoutS: c.timeoutS, campaignName: c.name, campaignHash: 'h' };
  const enc = new JobEncoder(setup);
  for (const task of expandTasks(c)) {
    const decoded = decodeJob(JSON.parse(JSON.stringify(enc.encode({ task, attempt: 1 }))), task.taskId);
    assert.equal(decoded.data.specHash, task.specHash);
    assert.deepEqual(decoded.farm.wind, c.farms[task.farmIndex].wind);
    assert.deepEqual(decoded.farm.model, c.farms[task.farmIndex].model);
  }
});

test("wflo run: every row passes the gate, its AEP is the farm model's, layouts.h5 holds the series", (t) => {
  fs.writeFileSync(file, CAMPAIGN);
  const r = runWflo(['run', file], { timeoutMs: 300_000 });
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.match(r.stdout + r.stderr, /4\/4 done/);
  const c = loadCampaign(file, { optimizerProblem: optimizerSettingsProblem });
  const status = runWflo(['status', path.join(dir, 'out'), '--json']);
  assert.equal(status.status, 0, status.stderr);
  if (!hasH5py()) {
    t.skip('python3-h5py is not installed (CI installs it)');
    return;
  }
  const py = spawnSync(
    PYTHON,
    [
      '-c',
      `
import h5py, json
f = h5py.File(${JSON.stringify(path.join(dir, 'out', 'layouts.h5'))}, 'r')
s = f['farms/0/wind/series']
print(json.dumps({'task_id': [t.decode() if isinstance(t, bytes) else t for t in f['task_id'][:]], 'aep': f['aep'][:].tolist(),
  'layout': f['layout'][:].tolist(), 'speeds': s['speeds'][:].tolist(), 'ti': s['turbulenceIntensity'][:].tolist(),
  'blockage': json.loads(f['farms/1'].attrs['json'])['model'].get('blockage')}))
`,
    ],
    { encoding: 'utf8' },
  );
  assert.equal(py.status, 0, py.stderr);
  const h5 = JSON.parse(py.stdout);
  assert.deepEqual(
    h5.speeds,
    csv.slice(1).map((l) => Number(l.split(',')[2])),
  );
  assert.deepEqual(
    h5.ti,
    csv.slice(1).map((l) => Number(l.split(',')[3])),
  );
  assert.equal(h5.blockage, 'selfsimilarity2020');
  const tasks = expandTasks(c);
  h5.task_id.forEach((id: string, row: number) => {
    const task = tasks.find((t) => t.taskId === id)!;
    const cs = caseForTask(c.farms[task.farmIndex], c.farmTypes[task.typeIndex]);
    const layout: number[][] = h5.layout[row];
    const x = Float64Array.from(layout.map((p) => p[0])),
      y = Float64Array.from(layout.map((p) => p[1]));
    const aep = createFarmEvaluator(cs.turbine, cs.wind, cs.model).aep(x, y).aepMwh;
    assert.ok(Math.abs(aep - h5.aep[row]) <= 1e-12 * aep, `${id}: stored ${h5.aep[row]}, recomputed ${aep}`);
  });
});
