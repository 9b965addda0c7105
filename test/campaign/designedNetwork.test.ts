/**
 * The collection network a cost run designs travels with its layout, and the gate checks it instead
 * of trusting it. On the docs' offshore example (examples/offshore-cs4: 81 × 10 MW, bathymetry,
 * one substation, three cable types) optimized for LCOE from random start seed 2 (docs/cost.md's
 * table; a start where the router alone finds a dearer network for the final layout, seeds 2-4):
 *  - the run's network is cheaper than the router's own network for the same layout (the cost stage
 *    moved the turbines with that network fixed: so it is the network the layout was designed for);
 *  - the gate (RecordVerifier, the function behind every door into the ledger), given the row with
 *    that network, computes its economics on exactly that network, and without it re-routes to the
 *    dearer one; a forged network (a cycle, a feeder over capacity, one edge too few) is ignored;
 *  - the plot of the stored row draws that network (views/economicsDrawing.ts).
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { REPO, tempDir } from '../helpers.js';
import { parseCampaign } from '../../src/campaign/loadCampaign.js';
import { expandTasks } from '../../src/campaign/taskGrid.js';
import { caseForTask } from '../../src/campaign/caseForTask.js';
import { RecordVerifier, type Verdict } from '../../src/campaign/verifyRecord.js';
import { optimizeCase } from '../../src/optimize/optimizeCase.js';
import { economicFigures, parentOfCableTo } from '../../src/optimize/economicObjective.js';
import { economicsDrawing } from '../../src/views/economicsDrawing.js';

const dir = tempDir('wflo-designed-');
const file = path.join(dir, 'campaign.yaml');
const TEXT = `name: designed-network
farms:
  - id: 0
    case: ${JSON.stringify(path.join(REPO, 'examples', 'offshore-cs4', 'cs4-offshore.yaml'))}
farm_types:
  - {id: 0, turbine: iea37-10mw, n_turbines: 81, objective: lcoe}
seeds: {start: 2, count: 1}
optimizer: {method: gradient}
`;
fs.writeFileSync(file, TEXT);

const ok = (v: Verdict) => {
  assert.equal(v.ok, true, (v as { reason?: string }).reason);
  return v as Extract<Verdict, { ok: true }>;
};

test('cs4 under LCOE: the row keeps the network the run designed, the gate checks it and prices it, a forged one is ignored', { timeout: 300_000 }, () => {
  const campaign = parseCampaign(TEXT, file);
  const [task] = expandTasks(campaign);
  const farm = campaign.farms[task.farmIndex],
    type = campaign.farmTypes[task.typeIndex];
  const c = caseForTask(farm, type);
  assert.equal(c.objective, 'lcoe');
  const r = optimizeCase(c, { method: 'gradient' }, task.seed);
  const designed = r.economics!;
  const routed = economicFigures(c, r.x, r.y);
  assert.ok(
    designed.cableCost < routed.cableCost,
    `designed ${designed.cableCost} vs routed ${routed.cableCost}: the router alone finds this layout's network cheaper`,
  );

  const verifier = new RecordVerifier(campaign);
  const withNetwork = ok(verifier.verify(task, { x: r.x, y: r.y, aep: r.aep, cableTo: designed.cableTo }));
  assert.deepEqual(Array.from(withNetwork.cables!.to), Array.from(designed.cableTo));
  assert.deepEqual(Array.from(withNetwork.cables!.type), Array.from(designed.cableType));
  assert.equal(withNetwork.economics!.cable_cost, designed.cableCost);
  assert.equal(withNetwork.economics!.lcoe_per_mwh, designed.lcoe);

  const without = ok(verifier.verify(task, { x: r.x, y: r.y, aep: r.aep }));
  assert.deepEqual(Array.from(without.cables!.to), Array.from(routed.cableTo));
  assert.ok(without.economics!.cable_cost > withNetwork.economics!.cable_cost);

  // The plot of a stored row draws the row's network (from its cable_to), not a fresh routing.
  assert.deepEqual(Array.from(economicsDrawing(c, r.x, r.y, designed.cableTo).collection!.network.parent), Array.from(parentOfCableTo(designed.cableTo)));
  assert.deepEqual(Array.from(economicsDrawing(c, r.x, r.y).collection!.network.parent), Array.from(parentOfCableTo(routed.cableTo)));

  const n = r.x.length;
  const cycle = designed.cableTo.slice();
  const a = cycle.findIndex((t) => t >= 0);
  cycle[cycle[a]] = a; // a turbine and its parent point at each other
  const star = new Int32Array(n).fill(0);
  star[0] = -1; // every turbine on turbine 0: far over any cable's capacity
  for (const forged of [cycle, star, designed.cableTo.subarray(1)]) {
    const v = ok(verifier.verify(task, { x: r.x, y: r.y, aep: r.aep, cableTo: forged }));
    assert.deepEqual(Array.from(v.cables!.to), Array.from(routed.cableTo), 'a forged network was taken');
  }
});
