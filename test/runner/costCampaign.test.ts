/**
 * A campaign with cost objectives (objective lcoe and npv, a farm with economics: a bathymetry
 * grid, a substation, two cable types; a farm type choosing its turbine models under LCOE) through
 * every executor: a local run, a BullMQ coordinator with a queue worker on a real redis-server, and
 * a SLURM job array collected into one folder (real slurm-wlm, test/helpers/slurmCluster.ts). All
 * three give the same rows to the bit (layouts, models, AEP) and the same economics, which the gate
 * computes itself from each layout (LCOE, NPV, cable length and cost, cost items) and layouts.h5
 * carries as /metrics columns, read here by h5py.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import Database from 'better-sqlite3';
import { stringify } from 'yaml';
import { hasRedisServer, RedisServer } from '../helpers/redisServer.js';
import { startSlurmCluster, type SlurmCluster } from '../helpers/slurmCluster.js';
import { killAllWorkers, startWorker, waitUntil, type WorkerHandle } from './bullmqKit.js';
import { tempDir, wflo } from '../slurm/slurmKit.js';
import { PYTHON, runWflo } from '../helpers.js';

let work: string;
let campaignFile: string;
let redis: RedisServer | null = null;
let cluster: SlurmCluster | null = null;
const workers: WorkerHandle[] = [];

before(() => {
  work = tempDir('cost-campaign');
  fs.writeFileSync(path.join(work, 'depth.csv'), 'x,y,depth\n-100,-100,18\n1600,-100,30\n-100,1100,26\n1600,1100,44\n');
  campaignFile = path.join(work, 'campaign.yaml');
  fs.writeFileSync(
    campaignFile,
    stringify({
      name: 'cost-executors',
      output: 'out',
      workers: 2,
      attempts: 2,
      farms: [
        {
          id: 0,
          boundary: {
            polygon: [
              [0, 0],
              [1500, 0],
              [1500, 1000],
              [0, 1000],
            ],
          },
          wind: 'iea37-cs1',
          wake_model: 'bastankhah2014',
          economics: {
            energy_price_eur_per_mwh: 55,
            discount_rate: 0.07,
            project_years: 25,
            distance_from_shore_km: 20,
            bathymetry: 'depth.csv',
            substations: [[750, 500]],
            cables: [
              { name: 'small', capacity: 3, cost_per_m: 300 },
              { name: 'large', capacity: 6, cost_per_m: 480 },
            ],
            rated_rpm: { v80: 16.7, 'iea37-3.35mw': 12 },
          },
        },
      ],
      farm_types: [
        { id: 0, turbine: 'v80', n_turbines: 6, objective: 'lcoe' },
        { id: 1, turbine: 'v80', n_turbines: 6, objective: 'npv' },
        { id: 2, n_turbines: 5, turbine_choice: ['iea37-3.35mw', 'v80'], objective: 'lcoe' },
      ],
      seeds: { start: 0, count: 2 },
      optimizer: { method: 'gradient', max_iterations: 25 },
    }),
  );
});

after(async () => {
  killAllWorkers();
  await redis?.stop();
  await cluster?.stop();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

/** What each done task computed, bit for bit (hex of the coordinate blobs), and its metrics. */
function rows(dir: string): Map<string, Record<string, unknown>> {
  const db = new Database(path.join(dir, 'ledger.sqlite'), { readonly: true, fileMustExist: true });
  try {
    const all = db
      .prepare(`SELECT task_id, spec_hash, n_turbines, aep, aep_initial, hex(x) AS x, hex(y) AS y, turbine_types, metrics,
      iterations, evaluations FROM results ORDER BY task_id`)
      .all() as Record<string, unknown>[];
    return new Map(all.map((r) => [r.task_id as string, r]));
  } finally {
    db.close();
  }
}

function assertSameRows(dir: string, reference: Map<string, Record<string, unknown>>, what: string): void {
  const actual = rows(dir);
  assert.deepEqual([...actual.keys()], [...reference.keys()], what);
  for (const [id, row] of reference) assert.deepEqual(actual.get(id), row, `${what}: ${id}`);
}

let local: Map<string, Record<string, unknown>>;

test('local run: every row carries the economics the gate computed; layouts.h5 has them as /metrics (h5py)', { timeout: 300_000 }, () => {
  const out = path.join(work, 'local');
  const r = wflo(['run', campaignFile, '--out', out, '--quiet'], process.env, 280_000);
  assert.equal(r.status, 0, r.stderr);
  local = rows(out);
  assert.equal(local.size, 6);
  for (const [id, row] of local) {
    const m = JSON.parse(row.metrics as string) as Record<string, number>;
    for (const name of ['lcoe_per_mwh', 'npv', 'cable_length_m', 'cable_cost', 'cost_capex_eur'])
      assert.ok(Number.isFinite(m[name]), `${id}: ${name} = ${m[name]}`);
    // Six (or five) turbines and a substation inside a 1.5 × 1 km site: some hundreds of metres to a few km of cable.
    assert.ok(m.cable_length_m > 300 && m.cable_length_m < 6000, `${id}: ${m.cable_length_m} m of cable`);
    assert.ok(m.lcoe_per_mwh > 10 && m.lcoe_per_mwh < 500, `${id}: LCOE ${m.lcoe_per_mwh}`);
  }
  const py = spawnSync(
    PYTHON,
    [
      '-c',
      `
import h5py, json, sys, numpy as np
with h5py.File(sys.argv[1], 'r') as f:
    ids = [t for t in f['task_id'].asstr()[:]]
    out = {name: dict(zip(ids, f['metrics'][name][:].tolist())) for name in ['lcoe_per_mwh', 'npv', 'cable_length_m']}
print(json.dumps(out))
`,
      path.join(out, 'layouts.h5'),
    ],
    { encoding: 'utf8' },
  );
  assert.equal(py.status, 0, py.stderr);
  const h5 = JSON.parse(py.stdout) as Record<string, Record<string, number>>;
  for (const [id, row] of local) {
    const m = JSON.parse(row.metrics as string) as Record<string, number>;
    for (const name of ['lcoe_per_mwh', 'npv', 'cable_length_m']) assert.equal(h5[name][id], m[name], `${id} ${name}: layouts.h5 vs ledger`);
  }
});

test('the report gains the cost of energy per cell: the mean and lowest LCOE, mean NPV and cable length of the ledger rows', { timeout: 120_000 }, () => {
  assert.ok(local, 'the local run ran first');
  const html = path.join(work, 'report.html');
  const r = runWflo(['report', path.join(work, 'local'), '-o', html]);
  assert.equal(r.status, 0, r.stderr);
  const text = fs.readFileSync(html, 'utf8');
  const json = /<script type="application\/json" id="wflo-data">([\s\S]*?)<\/script>/.exec(text)![1];
  const data = JSON.parse(json) as {
    view: { cells: { farmType: number; economics: { lcoeMean: number; lcoeBest: number; npvMean: number; cableMeanM: number } | null }[] };
  };
  assert.equal(data.view.cells.length, 3);
  for (const cell of data.view.cells) {
    const mine = [...local.values()]
      .filter((row) => row.task_id !== undefined && String(row.task_id).includes(`_type_${cell.farmType}_`))
      .map((row) => JSON.parse(row.metrics as string) as Record<string, number>);
    assert.equal(mine.length, 2);
    const mean = (k: string) => (mine[0][k] + mine[1][k]) / 2;
    assert.ok(cell.economics, `type ${cell.farmType}`);
    assert.ok(Math.abs(cell.economics!.lcoeMean - mean('lcoe_per_mwh')) <= 1e-9 * mean('lcoe_per_mwh'));
    assert.equal(cell.economics!.lcoeBest, Math.min(mine[0].lcoe_per_mwh, mine[1].lcoe_per_mwh));
    assert.ok(Math.abs(cell.economics!.cableMeanM - mean('cable_length_m')) <= 1e-9 * mean('cable_length_m'));
  }
  assert.match(text, /Cost of energy/);
  // A stored row plots with its cables: the farm's economics travel in the stored definitions
  // (ledger and layouts.h5 alike) and the row's layout is routed again.
  for (const source of [path.join(work, 'local'), path.join(work, 'local', 'layouts.h5')]) {
    const svg = path.join(work, `row-${path.basename(source)}.svg`);
    const p = runWflo(['plot', source, '--task', 'farm_0_type_2_seed_1', '-o', svg]);
    assert.equal(p.status, 0, p.stderr);
    const drawn = fs.readFileSync(svg, 'utf8');
    assert.equal([...drawn.matchAll(/<line class="cable"/g)].length, 5, source);
    assert.match(drawn, /<rect class="substation" data-substation="0" data-x="750" data-y="500"/);
    assert.match(drawn, /class="depth"/);
  }
});

test('a BullMQ coordinator and a queue worker give the local rows to the bit', {
  skip: hasRedisServer() ? false : 'redis-server is not installed',
  timeout: 300_000,
}, async () => {
  assert.ok(local, 'the local run ran first');
  redis = await RedisServer.start();
  workers.push(startWorker(['--queue', redis.url, '--concurrency', '2']));
  assert.ok(await waitUntil(() => /job processes, queue/.test(workers[0].log()), 20_000), workers[0].log());
  const out = path.join(work, 'queue');
  const r = wflo(['run', campaignFile, '--out', out, '--quiet'], { ...process.env, WFLO_QUEUE: redis.url }, 280_000);
  assert.equal(r.status, 0, r.stderr);
  assertSameRows(out, local, 'queue');
});

test('a SLURM job array, collected, gives the local rows to the bit', { timeout: 400_000 }, async () => {
  assert.ok(local, 'the local run ran first');
  cluster = await startSlurmCluster();
  const shards = path.join(work, 'shards');
  const s = wflo(['slurm', campaignFile, '--array', '2', '--cpus-per-task', '1', '--time', '00:10:00', '--out', shards], cluster.env);
  assert.equal(s.status, 0, s.stderr);
  const jobId = s.stdout.trim();
  const done = await waitUntil(
    () => {
      const q = cluster!.run('squeue', ['-h', '-j', jobId, '-o', '%i %T']);
      return q.status === 0 && q.stdout.trim() === '';
    },
    300_000,
    500,
  );
  assert.ok(done, `job ${jobId} still queued`);
  const out = path.join(work, 'collected');
  const c = wflo(['collect', campaignFile, '--from', path.join(shards, 'shard-*'), '--out', out], process.env, 200_000);
  assert.equal(c.status, 0, c.stderr + c.stdout);
  assertSameRows(out, local, 'slurm');
});
