/**
 * Every field of a farm type that enters its spec hash travels in a queue job: the list is
 * campaign/specHash.ts FARM_TYPE_HASHED, and the payload (runner/executors/bullmq/jobPayload.ts)
 * carries each of its fields by a codec keyed on it. For each field, a farm type that differs from
 * a base one only there has another hash, and a job for it, through JSON, decodes on the worker
 * side to the same field and the same spec hash. A payload that loses a field (the farm type's
 * `objective` once did) is refused by the worker: its contents no longer give its spec hash.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import fs from 'node:fs';
import { tempDir } from '../helpers.js';
import { parseCampaign } from '../../src/campaign/loadCampaign.js';
import type { FarmTypeSpec } from '../../src/campaign/campaign.js';
import { FARM_TYPE_HASHED_FIELDS, farmTypeSpecHash, type FarmTypeHashedField } from '../../src/campaign/specHash.js';
import { JobEncoder, decodeJob, specHashOf, type JobData } from '../../src/runner/executors/bullmq/jobPayload.js';
import { optimizerSettingsProblem } from '../../src/runner/taskFunction.js';

const dir = tempDir('wflo-payload-fields-');
const CAMPAIGN = `name: fields
output: out
farms:
  - id: 0
    boundary: {polygon: [[0, 0], [1400, 0], [1400, 1000], [0, 1000]]}
    wind: iea37-cs1
    economics:
      energy_price_eur_per_mwh: 55
      project_years: 25
      distance_from_shore_km: 22
      water_depth_m: 30
      substations: [[700, 500]]
      cables: [{name: a, capacity: 5, cost_per_m: 300}]
      rated_rpm: {v80: 16.7, iea37-3.35mw: 12}
farm_types:
  - {id: 0, turbine: v80, n_turbines: 5}
  - {id: 1, turbines: [{turbine: iea37-3.35mw, n: 2}, {turbine: v80, n: 3}]}
seeds: [1]
optimizer: {method: gradient, max_iterations: 6}
`;

test('every hashed field of a farm type changes its hash and travels in a queue job, through JSON, to the worker', () => {
  const c = parseCampaign(CAMPAIGN, path.join(dir, 'campaign.yaml'), { optimizerProblem: optimizerSettingsProblem });
  const base = c.farmTypes[0];
  const mixed = c.farmTypes[1];
  // A value other than the base's for each field (typed by the list: a new field without one does not compile).
  const samples: { [K in FarmTypeHashedField]: (t: FarmTypeSpec) => FarmTypeSpec[K] } = {
    turbine: (t) => ({ ...t.turbine, hubHeight: t.turbine.hubHeight + 1 }),
    nTurbines: (t) => t.nTurbines + 1,
    minSpacingM: (t) => t.minSpacingM + 10,
    params: () => ({ iterations: 3, label: 'x' }),
    models: () => mixed.models,
    objective: () => 'lcoe',
  };
  assert.deepEqual(Object.keys(samples).sort(), [...FARM_TYPE_HASHED_FIELDS].sort(), 'one sample per hashed field');
  const farm = c.farms[0];
  for (const field of FARM_TYPE_HASHED_FIELDS) {
    const variant = { ...base, [field]: samples[field](base) } as FarmTypeSpec;
    if (field === 'models') Object.assign(variant, { nTurbines: mixed.nTurbines, turbine: mixed.turbine });
    const hash = farmTypeSpecHash(variant);
    assert.notEqual(hash, base.hash, `${field} enters the hash`);
    const typed = { ...variant, hash };
    const { specHash } = specHashOf(farm, typed, c.optimizer, 1);
    const encoder = new JobEncoder({ farms: c.farms, farmTypes: [typed], optimizer: c.optimizer, timeoutS: 60, campaignName: c.name, campaignHash: 'h' });
    const task = { taskId: 'farm_0_type_0_seed_1', farmId: 0, farmType: 0, seed: 1, farmIndex: 0, typeIndex: 0, specHash };
    const job = JSON.parse(JSON.stringify(encoder.encode({ task, attempt: 1 }))) as JobData;
    const decoded = decodeJob(job, field);
    assert.equal(decoded.type.hash, hash, field);
    assert.equal(decoded.data.specHash, specHash, field);
    assert.deepEqual(decoded.type[field], typed[field], `${field} decoded as encoded`);
    // The worker notices a payload that lost the field: its contents give another spec hash.
    const lost = { ...job, type: { ...job.type } } as JobData;
    delete (lost.type as unknown as Record<string, unknown>)[field];
    if (field === 'turbine' || field === 'nTurbines' || field === 'minSpacingM') {
      assert.throws(() => decodeJob(lost, field), /payload rejected: type\./, field);
    } else {
      assert.throws(() => decodeJob(lost, field), /spec hash [0-9a-f]+ does not match its contents/, field);
    }
  }
  fs.rmSync(dir, { recursive: true, force: true });
});
