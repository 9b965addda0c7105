/**
 * A campaign farm's `economics:` (io/costFields.ts via campaign/loadCampaign.ts): every task's case
 * gets the CaseEconomics for its farm type's models; the block is part of the farm's spec hash
 * (an absent block leaves the hash as it was, the bathymetry file's path is not in it); it
 * travels in the queue payload; a farm type without a rated rpm is refused at load, one line.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { tempDir } from '../helpers.js';
import { parseCampaign } from '../../src/campaign/loadCampaign.js';
import { expandTasks } from '../../src/campaign/taskGrid.js';
import { caseForTask } from '../../src/campaign/caseForTask.js';
import { optimizerSettingsProblem } from '../../src/runner/taskFunction.js';
import { JobEncoder, decodeJob } from '../../src/runner/executors/bullmq/jobPayload.js';
import { InputError } from '../../src/util/errors.js';

const dir = tempDir('wflo-econ-campaign-');
after(() => fs.rmSync(dir, { recursive: true, force: true }));
fs.writeFileSync(path.join(dir, 'depth.csv'), 'x,y,depth\n0,0,20\n1500,0,30\n0,1000,24\n1500,1000,40\n');

const CAMPAIGN = `name: econ
output: out
farms:
  - id: 0
    boundary: {polygon: [[0, 0], [1400, 0], [1400, 1000], [0, 1000]]}
    wind: iea37-cs1
    economics:
      energy_price_eur_per_mwh: 55
      discount_rate: 0.07
      project_years: 25
      distance_from_shore_km: 22
      bathymetry: depth.csv
      substations: [[700, 500]]
      cables: [{name: a, capacity: 5, cost_per_m: 300}]
      rated_rpm: {v80: 16.7, iea37-3.35mw: 12}
farm_types:
  - {id: 0, turbine: v80, n_turbines: 6}
  - {id: 1, turbines: [{turbine: iea37-3.35mw, n: 2}, {turbine: v80, n: 3}]}
seeds: [1]
optimizer: {method: gradient, max_iterations: 6}
`;
const file = path.join(dir, 'campaign.yaml');
const parse = (text: string) => parseCampaign(text, file, { optimizerProblem: optimizerSettingsProblem });

test("each task's case has the farm's economics for its models; hash and payload carry them", () => {
  const c = parse(CAMPAIGN);
  const farm = c.farms[0];
  assert.ok(farm.economics);
  const byType = c.farmTypes.map((t) => caseForTask(farm, t).economics!);
  assert.deepEqual(byType[0].ratedRpmByType, [16.7]);
  assert.deepEqual(byType[1].ratedRpmByType, [12, 16.7]);
  // Bilinear on the one cell: the centre is the mean of the corners.
  assert.ok(Math.abs(byType[0].depth.at(750, 500, null) - (20 + 30 + 24 + 40) / 4) < 1e-12);
  assert.deepEqual(byType[1].substations, [[700, 500]]);

  const without = parse(CAMPAIGN.replace(/    economics:\n(      .*\n)+/, ''));
  assert.equal(without.farms[0].economics, undefined);
  assert.notEqual(without.farms[0].hash, farm.hash, 'economics are part of the farm');
  assert.notEqual(parse(CAMPAIGN.replace('energy_price_eur_per_mwh: 55', 'energy_price_eur_per_mwh: 56')).farms[0].hash, farm.hash);
  // The same grid under another file name is the same farm.
  fs.copyFileSync(path.join(dir, 'depth.csv'), path.join(dir, 'depth2.csv'));
  assert.equal(parse(CAMPAIGN.replace('depth.csv', 'depth2.csv')).farms[0].hash, farm.hash);

  const enc = new JobEncoder({ farms: c.farms, farmTypes: c.farmTypes, optimizer: c.optimizer, timeoutS: c.timeoutS, campaignName: c.name, campaignHash: 'h' });
  for (const task of expandTasks(c)) {
    const decoded = decodeJob(JSON.parse(JSON.stringify(enc.encode({ task, attempt: 1 }))), task.taskId);
    assert.equal(decoded.data.specHash, task.specHash);
    assert.deepEqual(decoded.farm.economics, farm.economics);
    const e = caseForTask(decoded.farm, decoded.type).economics!;
    assert.equal(e.depth.at(300, 200, null), byType[0].depth.at(300, 200, null));
  }
});

test('a farm type whose model has no rated rpm, and a grid short of the site: refused at load, one line', () => {
  const bad = (text: string, re: RegExp): void => {
    assert.throws(
      () => parse(text),
      (err: unknown) => {
        assert.ok(err instanceof InputError, String(err));
        assert.ok(!(err as Error).message.includes('\n'));
        assert.match((err as Error).message, re);
        return true;
      },
    );
  };
  bad(
    CAMPAIGN.replace('rated_rpm: {v80: 16.7, iea37-3.35mw: 12}', 'rated_rpm: {v80: 16.7}'),
    /campaign\.yaml:15: farms\[0\]\.economics\.rated_rpm: farm type 1 \(.*\): no rated rotor speed for turbine model 'iea37-3\.35mw'/,
  );
  bad(
    CAMPAIGN.replace('rated_rpm: {v80: 16.7, iea37-3.35mw: 12}', 'rated_rpm: {v80: 16.7, iea37-3.35mw: 12, v90: 14}'),
    /campaign\.yaml:15: farms\[0\]\.economics\.rated_rpm\.v90: farm type 0 \(v80 x6\): no turbine model 'v90' in this farm; did you mean 'v80'\? \(its models: v80, iea37-3\.35mw\)/,
  );
  bad(
    CAMPAIGN.replace('[1400, 0], [1400, 1000]', '[1600, 0], [1600, 1000]'),
    /campaign\.yaml:12: farms\[0\]\.economics\.bathymetry: .*depth\.csv: the grid \(x 0 … 1500, y 0 … 1000 m\) does not cover the site: its boundary's corner \(1600, 0\)/,
  );
});
