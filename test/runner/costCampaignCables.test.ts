/**
 * The collection network of every row of a campaign with economics, stored by the gate with the
 * row (ledger columns cable_to, cable_type; layouts.h5 /cable_to, /cable_type), read back by
 * Debian's h5py and xarray: each row's network is a tree hanging from a substation, every edge
 * within its cable type's capacity, and its length recomputed in Python from the coordinates
 * equals the /metrics/cable_length_m the gate stored (1e-9 relative). Rows of a farm without
 * economics have no network (cable_type −1, cable_to −2147483648). A network edited in a shard
 * ledger (collect), in layouts.h5 or in audit.jsonl (recovery after a lost ledger) is refused,
 * one line each, and its task computed.
 */
import { before, after, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import Database from 'better-sqlite3';
import { hasH5py, PYTHON } from '../helpers.js';
import { tempDir, writeCampaign } from './runnerTestKit.js';
import { python, wflo } from '../gate/gateKit.js';

const noH5py = hasH5py() ? false : 'python3-h5py is not installed';
const hasXarray = spawnSync(PYTHON, ['-c', 'import xarray, h5netcdf'], { encoding: 'utf8' }).status === 0;

let work: string;
let campaignFile: string;
let honest: string;

function campaign(out: string): Record<string, unknown> {
  const boundary = {
    polygon: [
      [0, 0],
      [1500, 0],
      [1500, 1000],
      [0, 1000],
    ],
  };
  return {
    name: 'cost-cables',
    output: out,
    workers: 2,
    attempts: 2,
    timeout_s: 120,
    farms: [
      {
        id: 0,
        boundary,
        wind: 'iea37-cs1',
        wake_model: 'bastankhah2014',
        economics: {
          energy_price_eur_per_mwh: 55,
          discount_rate: 0.07,
          project_years: 25,
          distance_from_shore_km: 20,
          bathymetry: 'depth.csv',
          substations: [
            [750, 500],
            [100, 900],
          ],
          cables: [
            { name: 'small', capacity: 2, cost_per_m: 300 },
            { name: 'large', capacity: 4, cost_per_m: 480 },
          ],
          rated_rpm: { v80: 16.7, 'iea37-3.35mw': 12 },
        },
      },
      { id: 1, boundary, wind: 'iea37-cs1', wake_model: 'bastankhah2014' },
    ],
    farm_types: [
      { id: 0, turbine: 'v80', n_turbines: 7 },
      { id: 1, n_turbines: 6, turbine_choice: ['iea37-3.35mw', 'v80'] },
    ],
    seeds: { start: 0, count: 2 },
    optimizer: { method: 'gradient', max_iterations: 15 },
  };
}

before(async () => {
  work = tempDir('cost-cables');
  fs.writeFileSync(path.join(work, 'depth.csv'), 'x,y,depth\n-100,-100,18\n1600,-100,30\n-100,1100,26\n1600,1100,44\n');
  honest = path.join(work, 'honest');
  campaignFile = writeCampaign(path.join(work, 'campaign.yaml'), campaign(honest));
  const r = await wflo(['run', campaignFile, '--quiet']);
  assert.equal(r.code, 0, r.stderr);
});

after(() => {
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

/** Every row's stored network, as the ledger holds it. */
function ledgerCables(dir: string): Map<string, { to: string | null; type: string | null; metrics: string | null }> {
  const db = new Database(path.join(dir, 'ledger.sqlite'), { readonly: true, fileMustExist: true });
  try {
    const rows = db.prepare('SELECT task_id, cable_to AS "to", cable_type AS type, metrics FROM results ORDER BY task_id').all() as {
      task_id: string;
      to: string | null;
      type: string | null;
      metrics: string | null;
    }[];
    return new Map(rows.map((r) => [r.task_id, r]));
  } finally {
    db.close();
  }
}

const CHECK_NETWORKS = `
import h5py, json, sys, math
import numpy as np
out = {}
with h5py.File(sys.argv[1], 'r') as f:
    assert f.attrs['format_version'] == 5, f.attrs['format_version']
    ids = f['task_id'].asstr()[:]
    n_t = f['n_turbines'][:]
    fid = f['farm_id'][:]
    lay = f['layout'][:]
    to_all = f['cable_to'][:]
    type_all = f['cable_type'][:]
    tmax = lay.shape[1]
    assert to_all.shape == (len(ids), tmax) and type_all.shape == (len(ids), tmax)
    length_metric = f['metrics']['cable_length_m'][:]
    for r, task in enumerate(ids):
        n = int(n_t[r])
        farm = json.loads(f['farms'][str(fid[r])].attrs['json'])
        econ = farm.get('economics')
        to, types = to_all[r], type_all[r]
        assert (types[n:] == -1).all() and (to[n:] == -2147483648).all(), task
        if econ is None:
            assert (types == -1).all() and (to == -2147483648).all(), task
            assert math.isnan(length_metric[r]), task
            out[task] = None
            continue
        subs = econ['substations']
        caps = [c['capacity'] for c in econ['cables']]
        xy = lay[r, :n, :]
        # A tree hanging from the substations: every turbine's path ends at a substation within n steps.
        load = [1] * n
        feeder = [None] * n
        for i in range(n):
            j, steps = int(to[i]), 0
            while j >= 0:
                assert j < n and j != i, (task, i, j)
                load[j] += 1
                j = int(to[j]); steps += 1
                assert steps <= n, (task, 'cycle at', i)
            assert -1 - j < len(subs), (task, i, j)
        for i in range(n):
            assert 0 <= types[i] < len(caps), (task, i, types[i])
            assert load[i] <= caps[types[i]], (task, i, load[i], caps[types[i]])
        total = 0.0
        for i in range(n):
            j = int(to[i])
            p = xy[j] if j >= 0 else subs[-1 - j]
            total += math.hypot(xy[i][0] - p[0], xy[i][1] - p[1])
        rel = abs(total - length_metric[r]) / length_metric[r]
        assert rel <= 1e-9, (task, total, length_metric[r], rel)
        out[task] = {'to': to[:n].tolist(), 'type': types[:n].tolist(), 'length': total, 'feeders': int(sum(1 for i in range(n) if to[i] < 0)), 'max_load': max(load)}
print(json.dumps(out))
`;

test('every row of a farm with economics stores its network; h5py finds each a tree from a substation, within capacity, as long as cable_length_m', {
  skip: noH5py,
  timeout: 120_000,
}, () => {
  const stored = ledgerCables(honest);
  assert.equal(stored.size, 8);
  const checked = JSON.parse(python(CHECK_NETWORKS, [path.join(honest, 'layouts.h5')])) as Record<
    string,
    { to: number[]; type: number[]; length: number; feeders: number; max_load: number } | null
  >;
  assert.equal(Object.keys(checked).length, 8);
  let withNetwork = 0;
  for (const [id, row] of stored) {
    const h5 = checked[id];
    if (id.startsWith('farm_1_')) {
      assert.equal(h5, null, id);
      assert.equal(row.to, null, `${id}: a row without economics has no network in the ledger`);
      assert.equal(row.type, null, id);
      continue;
    }
    withNetwork++;
    assert.ok(h5, id);
    assert.deepEqual(JSON.parse(row.to!), h5.to, `${id}: ledger vs layouts.h5`);
    assert.deepEqual(JSON.parse(row.type!), h5.type, id);
    // Capacity 4 at most on a feeder: 7 (or 6) turbines need at least 2 feeders; some edge carries more than one turbine.
    assert.ok(h5.feeders >= 2 && h5.max_load > 1, `${id}: ${JSON.stringify(h5)}`);
  }
  assert.equal(withNetwork, 4);
});

test('xarray (h5netcdf) sees /cable_to and /cable_type on the task and turbine dimensions', {
  skip: hasXarray ? false : 'xarray or h5netcdf not importable',
  timeout: 60_000,
}, () => {
  const out = python(
    `
import xarray as xr, sys, json
ds = xr.open_dataset(sys.argv[1], engine="h5netcdf")
t = ds.cable_to.sel(task="farm_0_type_0_seed_0").values[:7].tolist()
print(json.dumps({"dims": list(ds.cable_to.dims), "type_dims": list(ds.cable_type.dims), "to": t, "none": ds.cable_type.sel(task="farm_1_type_0_seed_0").values.tolist()}))
`,
    [path.join(honest, 'layouts.h5')],
  );
  const r = JSON.parse(out) as { dims: string[]; type_dims: string[]; to: number[]; none: number[] };
  assert.deepEqual(r.dims, ['task', 'turbine']);
  assert.deepEqual(r.type_dims, ['task', 'turbine']);
  const ledger = ledgerCables(honest).get('farm_0_type_0_seed_0')!;
  assert.deepEqual(r.to, JSON.parse(ledger.to!));
  assert.ok(r.none.every((t) => t === -1));
});

/** The row's stored network with turbine `i`'s edge moved to another node (still a list of the right length). */
function rewired(to: number[], i: number): number[] {
  const out = to.slice();
  out[i] = out[i] === -1 ? -2 : -1;
  return out;
}

test('collect door: a cable network edited in a shard ledger (an edge moved, a cable type changed) is refused, one line each; an honest shard row passes', {
  timeout: 240_000,
}, async () => {
  const file = writeCampaign(path.join(work, 'sharded.yaml'), campaign(path.join(work, 'final')));
  const run = await wflo(['run', file, '--shard', '0/1', '--quiet']);
  assert.equal(run.code, 0, run.stderr);
  const shard = path.join(work, 'final', 'shard-0');
  const db = new Database(path.join(shard, 'ledger.sqlite'));
  try {
    const one = db.prepare("SELECT cable_to FROM results WHERE task_id = 'farm_0_type_0_seed_0'").pluck().get() as string;
    assert.equal(
      db.prepare("UPDATE results SET cable_to = ? WHERE task_id = 'farm_0_type_0_seed_0'").run(JSON.stringify(rewired(JSON.parse(one) as number[], 0))).changes,
      1,
    );
    const types = JSON.parse(db.prepare("SELECT cable_type FROM results WHERE task_id = 'farm_0_type_1_seed_1'").pluck().get() as string) as number[];
    types[0] = 1 - types[0];
    assert.equal(db.prepare("UPDATE results SET cable_type = ? WHERE task_id = 'farm_0_type_1_seed_1'").run(JSON.stringify(types)).changes, 1);
    // A farm without economics given a network: it keeps none.
    assert.equal(
      db.prepare("UPDATE results SET cable_to = '[-1,-1,-1,-1,-1,-1,-1]', cable_type = '[0,0,0,0,0,0,0]' WHERE task_id = 'farm_1_type_0_seed_0'").run().changes,
      1,
    );
  } finally {
    db.close();
  }
  const r = await wflo(['collect', file, '--from', shard]);
  assert.equal(r.code, 3, `${r.stdout}\n${r.stderr}`);
  const lines = r.stderr.split('\n').filter((l) => /^wflo: collect: rejected /.test(l));
  assert.equal(lines.length, 2, r.stderr);
  assert.match(
    lines.find((l) => l.includes('farm_0_type_0_seed_0 '))!,
    /cable network differs from the one routed for its layout: turbine 0 stored to substation \d with cable type \d, routed to/,
  );
  assert.match(
    lines.find((l) => l.includes('farm_0_type_1_seed_1 '))!,
    /cable network differs .*: turbine 0 stored to .* with cable type \d, routed to .* with cable type \d/,
  );
  const collected = ledgerCables(path.join(work, 'final'));
  assert.deepEqual(
    [...collected.keys()].sort(),
    [...ledgerCables(honest).keys()].filter((id) => id !== 'farm_0_type_0_seed_0' && id !== 'farm_0_type_1_seed_1').sort(),
  );
  for (const [id, row] of collected) assert.deepEqual(row, ledgerCables(honest).get(id), id);
});

test('recovery door: a network edited in layouts.h5 and one edited in audit.jsonl are refused and computed; honest rows come back with their networks', {
  skip: noH5py,
  timeout: 240_000,
}, async () => {
  const edited = path.join(work, 'edited-h5');
  fs.cpSync(honest, edited, { recursive: true });
  for (const f of ['ledger.sqlite', 'ledger.sqlite-wal', 'ledger.sqlite-shm', 'audit.jsonl']) fs.rmSync(path.join(edited, f), { force: true });
  python(
    `
import h5py, sys
with h5py.File(sys.argv[1], 'r+') as f:
    ids = list(f['task_id'].asstr()[:])
    r = ids.index('farm_0_type_0_seed_1')
    t = f['cable_to'][:]; t[r, 0] = -1 if t[r, 0] != -1 else -2; f['cable_to'][:] = t
`,
    [path.join(edited, 'layouts.h5')],
  );
  const file = writeCampaign(path.join(work, 'recover.yaml'), { ...campaign(edited) });
  const r1 = await wflo(['run', file, '--log-every', '1000']);
  assert.equal(r1.code, 0, r1.stderr);
  const lines1 = r1.stderr.split('\n').filter((l) => /^wflo: not recovered: /.test(l));
  assert.equal(lines1.length, 1, r1.stderr);
  assert.match(lines1[0], /farm_0_type_0_seed_1 .*from recovered:layouts\.h5: cable network differs from the one routed for its layout: turbine 0/);
  assert.match(r1.stdout, /\(1 this run\)/);
  assert.deepEqual(ledgerCables(edited), ledgerCables(honest));

  const auditEdit = path.join(work, 'edited-audit');
  fs.cpSync(honest, auditEdit, { recursive: true });
  for (const f of ['ledger.sqlite', 'ledger.sqlite-wal', 'ledger.sqlite-shm', 'layouts.h5']) fs.rmSync(path.join(auditEdit, f), { force: true });
  const auditFile = path.join(auditEdit, 'audit.jsonl');
  let editedLines = 0;
  fs.writeFileSync(
    auditFile,
    fs
      .readFileSync(auditFile, 'utf8')
      .split('\n')
      .map((line) => {
        if (!line.includes('"outcome":"done"')) return line;
        const e = JSON.parse(line) as { task: string; result: { cable_type?: number[] } };
        if (e.task !== 'farm_0_type_1_seed_0') return line;
        editedLines++;
        e.result.cable_type![0] = 1 - e.result.cable_type![0];
        return JSON.stringify(e);
      })
      .join('\n'),
  );
  assert.equal(editedLines, 1);
  const r2 = await wflo(['run', writeCampaign(path.join(work, 'recover2.yaml'), campaign(auditEdit)), '--log-every', '1000']);
  assert.equal(r2.code, 0, r2.stderr);
  const lines2 = r2.stderr.split('\n').filter((l) => /^wflo: not recovered: /.test(l));
  assert.equal(lines2.length, 1, r2.stderr);
  assert.match(lines2[0], /farm_0_type_1_seed_0 .*from recovered:audit\.jsonl: cable network differs/);
  assert.match(r2.stdout, /\(1 this run\)/);
  assert.deepEqual(ledgerCables(auditEdit), ledgerCables(honest));
});

test('a version-4 layouts.h5 (no /cable_to, /cable_type) still reads: its rows have no network, their metrics stay', {
  skip: noH5py,
  timeout: 60_000,
}, async () => {
  const old = path.join(work, 'v4.h5');
  fs.copyFileSync(path.join(honest, 'layouts.h5'), old);
  python(
    `
import h5py, sys
with h5py.File(sys.argv[1], 'r+') as f:
    del f['cable_to']; del f['cable_type']
    f.attrs.modify('format_version', 4)
`,
    [old],
  );
  const { readLayoutsFile } = await import('../../src/io/hdf5/layoutsReader.js');
  const { info, records } = await readLayoutsFile(old);
  assert.equal(info.formatVersion, 4);
  assert.equal(records.length, 8);
  for (const r of records) {
    assert.equal(r.cableTo, undefined, r.taskId);
    assert.equal(r.cableType, undefined, r.taskId);
  }
  assert.ok(records.filter((r) => r.farmId === 0).every((r) => Number.isFinite(r.metrics?.cable_length_m)));
  const current = await readLayoutsFile(path.join(honest, 'layouts.h5'));
  assert.ok(current.records.filter((r) => r.farmId === 0).every((r) => r.cableTo instanceof Int32Array && r.cableTo.length === r.nTurbines));
});
