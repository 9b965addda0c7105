/**
 * The acceptance campaign: 10 farms × 5 farm types × 60 seeds = 3000 tasks with the real
 * (gradient) optimizer on cheap settings. layouts.h5 must have exactly 3000 rows and be read by
 * independent HDF5 readers, h5py and h5dump (Debian's python3-h5py and hdf5-tools), with the
 * documented columns.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import { readLayoutsFile } from '../../src/io/hdf5/index.js';
import { LAYOUT_COLUMNS } from '../../src/io/hdf5/index.js';
import { ledgerSnapshot, runWflo, tempDir, writeCampaign } from './runnerTestKit.js';

const PYTHON = process.env.WFLO_PYTHON ?? '/usr/bin/python3';
const N_FARMS = 10,
  N_TYPES = 5,
  N_SEEDS = 60,
  N = N_FARMS * N_TYPES * N_SEEDS;
const TURBINES_BY_TYPE = [3, 4, 5, 6, 8];

function campaign3000(out: string): Record<string, unknown> {
  const farms: Record<string, unknown>[] = [];
  for (let f = 0; f < N_FARMS; f++) {
    // Circles and rectangles of different sizes, the IEA37 case-study 1 wind rose.
    const boundary =
      f % 2 === 0
        ? { circle: { center: [0, 0], radius: 700 + 100 * f } }
        : {
            polygon: [
              [0, 0],
              [1200 + 150 * f, 0],
              [1200 + 150 * f, 900 + 50 * f],
              [0, 900 + 50 * f],
            ],
          };
    farms.push({ id: f, boundary, wind: 'iea37-cs1' });
  }
  return {
    name: 'acceptance-3000',
    output: out,
    farms,
    farm_types: TURBINES_BY_TYPE.map((n, t) => ({ id: t, turbine: 'iea37-3.35mw', n_turbines: n })),
    seeds: { start: 0, count: N_SEEDS },
    optimizer: { method: 'gradient', maxIterations: 5, outerIterations: 1, wec: [1] },
    workers: 2,
    timeout_s: 120,
    attempts: 2,
    export: { every_results: 1000, every_s: 30 },
  };
}

const H5PY_SCRIPT = `
import json, sys
import h5py, numpy as np
with h5py.File(sys.argv[1], 'r') as f:
    out = {
        'attrs': {k: (v.decode() if isinstance(v, bytes) else (v.item() if hasattr(v, 'item') else v)) for k, v in f.attrs.items()},
        'shapes': {k: list(f[k].shape) for k in f.keys() if isinstance(f[k], h5py.Dataset)},
        'dtypes': {k: str(f[k].dtype) for k in f.keys() if isinstance(f[k], h5py.Dataset)},
        'groups': sorted(k for k in f.keys() if isinstance(f[k], h5py.Group)),
        'n_farm_groups': len(f['farms']), 'n_type_groups': len(f['types']),
    }
    farm = f['farm_id'][:]; ftype = f['farm_type'][:]; seed = f['seed'][:]
    order = np.lexsort((seed, ftype, farm))
    out['sorted'] = bool((order == np.arange(len(order))).all())
    ids = f['task_id'].asstr()[:] if hasattr(f['task_id'], 'asstr') else [s.decode() for s in f['task_id'][:]]
    out['ids_match'] = all(i == 'farm_%d_type_%d_seed_%d' % (a, b, c) for i, a, b, c in zip(ids, farm, ftype, seed))
    layout = f['layout'][:]
    n = f['n_turbines'][:]
    out['nan_padding_ok'] = bool(all(np.isnan(layout[r, n[r]:, :]).all() and np.isfinite(layout[r, :n[r], :]).all() for r in range(len(n))))
    out['aep_units'] = f['aep'].attrs['units'].decode() if isinstance(f['aep'].attrs['units'], bytes) else str(f['aep'].attrs['units'])
    out['aep_positive'] = int((f['aep'][:] > 0).sum())
    worse = np.nonzero(f['aep'][:] < f['aep_initial'][:] - 1e-6)[0]
    out['aep_worse_than_start'] = [ids[i] for i in worse]
    out['row42'] = {'task_id': ids[42], 'aep': float(f['aep'][42]), 'x0': float(layout[42, 0, 0])}
print(json.dumps(out))
`;

test('3000-task campaign with the real optimizer; layouts.h5 read by h5py and h5dump', { timeout: 600_000 }, async (t) => {
  const dir = tempDir('c3000');
  const out = path.join(dir, 'out');
  const file = writeCampaign(path.join(dir, 'campaign3000.yaml'), campaign3000(out));
  const r = await runWflo(['run', file, '--quiet']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /3000\/3000 done \(3000 this run\), 0 failed/);
  assert.equal(ledgerSnapshot(out).done.length, N);

  const h5 = path.join(out, 'layouts.h5');
  const ours = await readLayoutsFile(h5);
  assert.equal(ours.records.length, N);
  assert.equal(ours.info.complete, true);
  assert.equal(ours.info.nExpected, N);
  assert.equal(ours.info.maxTurbines, Math.max(...TURBINES_BY_TYPE));
  for (const rec of ours.records) {
    assert.equal(rec.nTurbines, TURBINES_BY_TYPE[rec.farmType]);
    assert.ok(rec.aep > 0 && rec.aepInitial > 0 && rec.iterations > 0, rec.taskId);
  }

  const hasH5py = spawnSync(PYTHON, ['-c', 'import h5py'], { stdio: 'ignore' }).status === 0;
  if (!hasH5py) {
    t.diagnostic(`h5py check SKIPPED: ${PYTHON} cannot import h5py (apt-get install -y python3-h5py)`);
  } else {
    const j = JSON.parse(execFileSync(PYTHON, ['-c', H5PY_SCRIPT, h5], { encoding: 'utf8', maxBuffer: 64 << 20 }));
    for (const col of LAYOUT_COLUMNS) {
      const shape = j.shapes[col.name];
      assert.ok(shape, `h5py sees /${col.name}`);
      assert.equal(shape[0], N, `/${col.name} has ${N} rows`);
      if (col.kind === 'xy') assert.deepEqual(shape, [N, 8, 2]);
    }
    assert.equal(j.dtypes.aep, 'float64');
    assert.equal(j.dtypes.farm_id, 'int32');
    assert.equal(j.dtypes.seed, 'int64');
    assert.equal(j.attrs.format, 'wflo-layouts');
    assert.equal(j.attrs.n_done, N);
    assert.equal(j.attrs.n_expected, N);
    assert.equal(j.attrs.complete, 1);
    assert.equal(j.attrs.campaign_name, 'acceptance-3000');
    assert.equal(j.attrs.campaign_hash, ours.info.campaignHash);
    assert.deepEqual(j.groups, ['farms', 'types']);
    assert.equal(j.n_farm_groups, N_FARMS);
    assert.equal(j.n_type_groups, N_TYPES);
    assert.equal(j.sorted, true);
    assert.equal(j.ids_match, true);
    assert.equal(j.nan_padding_ok, true);
    assert.equal(j.aep_units, 'MWh');
    assert.equal(j.aep_positive, N);
    if (j.aep_worse_than_start.length > 0) t.diagnostic(`optimizer ended below its start AEP on: ${j.aep_worse_than_start.join(', ')}`);
    assert.equal(j.row42.task_id, ours.records[42].taskId);
    assert.equal(j.row42.aep, ours.records[42].aep);
    assert.equal(j.row42.x0, ours.records[42].x[0]);
  }

  const hasH5dump = spawnSync('h5dump', ['--version'], { stdio: 'ignore' }).status === 0;
  if (!hasH5dump) {
    t.diagnostic('h5dump check SKIPPED: h5dump not found (apt-get install -y hdf5-tools)');
  } else {
    const header = execFileSync('h5dump', ['-H', h5], { encoding: 'utf8', maxBuffer: 64 << 20 });
    for (const col of LAYOUT_COLUMNS) assert.match(header, new RegExp(`DATASET "${col.name}"`));
    assert.match(header, /DATASET "aep" \{\s*DATATYPE\s+H5T_IEEE_F64LE\s*DATASPACE\s+SIMPLE \{ \( 3000 \) \/ \( H5S_UNLIMITED \) \}/);
    assert.match(header, /DATASET "layout" \{\s*DATATYPE\s+H5T_IEEE_F64LE\s*DATASPACE\s+SIMPLE \{ \( 3000, 8, 2 \)/);
    const seeds = execFileSync('h5dump', ['-d', '/seed', '-s', '0', '-c', '3', h5], { encoding: 'utf8' });
    assert.match(seeds, /\(0\): 0, 1, 2/);
  }
  fs.rmSync(dir, { recursive: true, force: true });
});
