/**
 * xarray opens `layouts.h5` as a netCDF-4 file (Debian's python3-xarray with python3-h5netcdf, an
 * independent reader): named dimensions task × turbine × coordinate from the file's HDF5 dimension
 * scales, the columns' units, values equal to what was written, selection by task id; an empty
 * file opens too; and the README's xarray snippet runs as printed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { PYTHON, REPO, tempDir } from '../helpers.js';
import { writeLayoutsFile } from '../../src/io/hdf5/layoutsWriter.js';
import type { LayoutRecord } from '../../src/io/layoutRecord.js';

const hasXarray = spawnSync(PYTHON, ['-c', 'import xarray, h5netcdf'], { encoding: 'utf8' }).status === 0;
const skip = hasXarray ? false : 'xarray or h5netcdf not importable (apt-get install python3-xarray python3-h5netcdf)';

function python(script: string, ...args: string[]): string {
  const r = spawnSync(PYTHON, ['-c', script, ...args], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
}

/** Records with 3 to 5 turbines (so rows are NaN-padded), sorted, coordinates that tell rows apart. */
function records(): LayoutRecord[] {
  const out: LayoutRecord[] = [];
  for (const farmId of [0, 1]) {
    for (const seed of [0, 1, 2]) {
      const n = 3 + seed;
      const x = Float64Array.from({ length: n }, (_, i) => 1000 * farmId + 100 * seed + i + 0.25);
      const y = Float64Array.from({ length: n }, (_, i) => -(1000 * farmId + 100 * seed + i) - 0.5);
      out.push({
        taskId: `farm_${farmId}_type_0_seed_${seed}`,
        farmId,
        farmType: 0,
        seed,
        nTurbines: n,
        aep: 1e5 + 10 * farmId + seed,
        aepInitial: NaN,
        x,
        y,
        xInitial: new Float64Array(0),
        yInitial: new Float64Array(0),
        iterations: 7,
        evaluations: 9,
        wallS: 0.5,
        attempts: 1,
      });
    }
  }
  return out;
}

const READ = String.raw`
import json, sys
import numpy as np
import xarray as xr
ds = xr.open_dataset(sys.argv[1], engine="h5netcdf")
out = {
  "dims": dict(ds.sizes),
  "layout_dims": list(ds.layout.dims),
  "aep_dims": list(ds.aep.dims),
  "units": {k: ds[k].attrs.get("units") for k in ["aep", "aep_initial", "layout", "initial_layout", "wall_s"]},
  "tasks": [str(t) for t in ds.task.values],
  "coordinates": [str(c) for c in ds.coordinate.values],
  "turbines": [int(t) for t in ds.turbine.values],
  "aep": [float(v) for v in ds.aep.values],
}
if ds.sizes["task"] > 0:
  row = ds.layout.sel(task="farm_1_type_0_seed_1")
  out["x_of_farm_1_seed_1"] = [None if np.isnan(v) else float(v) for v in row.sel(coordinate="x").values]
  out["y_of_farm_1_seed_1"] = [None if np.isnan(v) else float(v) for v in row.sel(coordinate="y").values]
print(json.dumps(out))
`;

test('xarray (h5netcdf) opens layouts.h5 with named dimensions, units and the written values', { skip }, async () => {
  const dir = tempDir('wflo-xarray-');
  const file = path.join(dir, 'layouts.h5');
  const recs = records();
  await writeLayoutsFile(
    file,
    [recs.slice(0, 4), recs.slice(4)],
    { campaignName: 'x', campaignHash: 'h', nExpected: 6, complete: true, maxTurbines: 5, nRows: 6 },
    { rowsPerSlice: 2 },
  );
  const got = JSON.parse(python(READ, file));
  assert.deepEqual(got.dims, { task: 6, turbine: 5, coordinate: 2 });
  assert.deepEqual(got.layout_dims, ['task', 'turbine', 'coordinate']);
  assert.deepEqual(got.aep_dims, ['task']);
  assert.deepEqual(got.units, { aep: 'MWh', aep_initial: 'MWh', layout: 'm', initial_layout: 'm', wall_s: 's' });
  assert.deepEqual(
    got.tasks,
    recs.map((r) => r.taskId),
  );
  assert.deepEqual(got.coordinates, ['x', 'y']);
  assert.deepEqual(got.turbines, [0, 1, 2, 3, 4]);
  assert.deepEqual(
    got.aep,
    recs.map((r) => r.aep),
  );
  const r = recs.find((q) => q.taskId === 'farm_1_type_0_seed_1')!;
  assert.deepEqual(got.x_of_farm_1_seed_1, [...Array.from(r.x), null]);
  assert.deepEqual(got.y_of_farm_1_seed_1, [...Array.from(r.y), null]);
  fs.rmSync(dir, { recursive: true, force: true });
});

test('an empty layouts.h5 (no rows yet) opens too', { skip }, async () => {
  const dir = tempDir('wflo-xarray-');
  const file = path.join(dir, 'layouts.h5');
  await writeLayoutsFile(file, [[]], { campaignName: 'x', campaignHash: 'h', nExpected: 6, complete: false, maxTurbines: 4, nRows: 0 });
  const got = JSON.parse(python(READ, file));
  assert.deepEqual(got.dims, { task: 0, turbine: 4, coordinate: 2 });
  fs.rmSync(dir, { recursive: true, force: true });
});

test("the README's xarray snippet runs as printed on a layouts.h5", { skip }, async () => {
  const readme = fs.readFileSync(path.join(REPO, 'README.md'), 'utf8');
  const snippet = [...readme.matchAll(/```python\n([\s\S]*?)```/g)].map((m) => m[1]).find((s) => s.includes('import xarray'));
  assert.ok(snippet, 'README.md has a python block with xarray');
  assert.ok(snippet!.trim().split('\n').length <= 5, 'five lines');
  const dir = tempDir('wflo-xarray-');
  fs.mkdirSync(path.join(dir, 'out', 'demo'), { recursive: true });
  const recs = records();
  await writeLayoutsFile(path.join(dir, 'out', 'demo', 'layouts.h5'), [recs], { campaignName: 'demo', campaignHash: 'h', nExpected: 6, complete: true });
  const r = spawnSync(PYTHON, ['-c', snippet!], { cwd: dir, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  // The best AEP is the last record's; its task id and AEP are printed.
  const best = recs.reduce((a, b) => (b.aep > a.aep ? b : a));
  assert.match(r.stdout, new RegExp(`${best.taskId} ${best.aep}`));
  fs.rmSync(dir, { recursive: true, force: true });
});
