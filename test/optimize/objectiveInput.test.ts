/**
 * `objective: aep | lcoe | npv` as input (io/objectiveField.ts): in a case file, a campaign farm
 * type and `wflo optimize --objective`; a cost objective without the economics is one line naming
 * the file, line and field (exit 2 from the CLI); an unknown name suggests the nearest. And the
 * record `wflo optimize --json` prints carries the economics under a cost objective (with the
 * explicit test cost model of economicTestModel.ts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { runWflo, tempDir } from '../helpers.js';
import { loadCase } from '../../src/io/caseFile.js';
import { parseCampaign } from '../../src/campaign/loadCampaign.js';
import { expandTasks } from '../../src/campaign/taskGrid.js';
import { InputError } from '../../src/util/errors.js';
import { runOptimization } from '../../src/optimize/runOptimization.js';
import { oneModelCase } from './economicTestModel.js';

const dir = tempDir('wflo-objective-');

function messageOf(f: () => unknown): string {
  try {
    f();
  } catch (err) {
    assert.ok(err instanceof InputError, String(err));
    assert.equal(err.message.includes('\n'), false);
    return err.message;
  }
  assert.fail('accepted');
}

test('case file: objective aep is read; lcoe without economics and an unknown name are one line naming file:line and field', () => {
  const file = path.join(dir, 'case.yaml');
  fs.writeFileSync(file, 'base: iea37-cs1-16\nobjective: aep\n');
  assert.equal(loadCase(file).objective, 'aep');
  fs.writeFileSync(file, 'base: iea37-cs1-16\nobjective: lcoe\n');
  assert.match(
    messageOf(() => loadCase(file)),
    /case\.yaml:2: objective: 'lcoe' needs the farm's economics \(an `economics:` block/,
  );
  fs.writeFileSync(file, 'base: iea37-cs1-16\nobjective: lcoee\n');
  assert.match(
    messageOf(() => loadCase(file)),
    /case\.yaml:2: objective: expected one of: aep, lcoe, npv; got 'lcoee'/,
  );
});

const CAMPAIGN = `name: c
farms:
  - {id: 0, case: iea37-cs1-16}
farm_types:
  - {id: 0, turbine: iea37-3.35mw, n_turbines: 16}
seeds: [0]
optimizer: {method: gradient}
`;

test("campaign farm type: objective aep hashes as before; npv without the farm's economics names farm_types[i].objective", () => {
  const file = path.join(dir, 'campaign.yaml');
  const plain = parseCampaign(CAMPAIGN, file);
  const aep = parseCampaign(CAMPAIGN.replace('n_turbines: 16}', 'n_turbines: 16, objective: aep}'), file);
  assert.equal(aep.farmTypes[0].objective, 'aep');
  assert.deepEqual(
    expandTasks(aep).map((t) => t.specHash),
    expandTasks(plain).map((t) => t.specHash),
  );
  assert.match(
    messageOf(() => parseCampaign(CAMPAIGN.replace('n_turbines: 16}', 'n_turbines: 16, objective: npv}'), file)),
    /campaign\.yaml:5: farm_types\[0\]\.objective: farm 0 .* × farm type 0 .*: 'npv' needs the farm's economics/,
  );
});

test('wflo optimize --objective: lcoe without economics and an unknown name are one line, exit 2', () => {
  for (const [value, pattern] of [
    ['lcoe', /iea37-cs1-16: --objective: 'lcoe' needs the farm's economics/],
    ['npvv', /--objective: unknown objective 'npvv'; did you mean 'npv'\?/],
  ] as const) {
    const r = runWflo(['optimize', 'iea37-cs1-16', '--method', 'none', '--objective', value]);
    assert.equal(r.status, 2, r.stderr);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.match(r.stderr, pattern);
  }
});

test('the optimization record under lcoe carries objective, LCOE, NPV, IRR, AEP, cables (edges with types) and the cost breakdown', () => {
  const c = oneModelCase('lcoe');
  const r = runOptimization(c, { method: 'gradient', wec: [1], maxIterations: 10, outerIterations: 2 }, 1);
  const e = JSON.parse(JSON.stringify(r)).economics;
  assert.equal(e.objective, 'lcoe');
  assert.equal(e.value, e.lcoe);
  assert.ok(e.value <= e.value_initial);
  assert.equal(e.aep_mwh, r.aep_mwh);
  assert.equal(e.cable_edges.length, 9);
  const lengthOfEdges = e.cable_edges.reduce((s: number, edge: { from: number; to: number }) => {
    const to = edge.to < 9 ? [r.x[edge.to], r.y[edge.to]] : c.economics!.substations[edge.to - 9];
    return s + Math.hypot(r.x[edge.from] - to[0], r.y[edge.from] - to[1]);
  }, 0);
  assert.ok(Math.abs(lengthOfEdges - e.cable_length_m) <= 1e-9 * e.cable_length_m);
  assert.deepEqual(Object.keys(e.cost_breakdown), ['turbines', 'foundations', 'cables', 'opexPerYear']);
  assert.equal(e.cost_breakdown.cables, e.cable_cost);
  assert.equal(e.cost_model, 'test-model');
  assert.ok(e.irr === null || (e.irr > 0 && e.irr < 1));
});
