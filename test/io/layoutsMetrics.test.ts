/**
 * layouts.h5 format 3: /aep_reported and /metrics/<name> (what a user's program or an adopted
 * file reported beside wflo's AEP), as h5py and xarray read them, and back through wflo's reader.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { LayoutsFileReader, writeLayoutsFile } from '../../src/io/hdf5/index.js';
import type { LayoutRecord } from '../../src/io/layoutRecord.js';
import { makeRecord } from '../shards/helpers/records.js';
import { PYTHON } from '../helpers.js';

const h5py = spawnSync(PYTHON, ['-c', 'import h5py, xarray, h5netcdf'], { encoding: 'utf8' }).status === 0;

test('aep_reported and metrics columns: written, read back bit for bit, seen by h5py and xarray', {
  skip: h5py ? false : 'needs python3-h5py, python3-xarray, python3-h5netcdf',
}, async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wflo-metrics-'));
  const records: LayoutRecord[] = [
    { ...makeRecord({ farmId: 0, farmType: 0, seed: 0, nTurbines: 3 }), aepReported: 12345.678, metrics: { lcoe: 41.5, cable_km: 12.25 } },
    { ...makeRecord({ farmId: 0, farmType: 0, seed: 1, nTurbines: 3 }), metrics: { lcoe: 40.1 } },
    makeRecord({ farmId: 0, farmType: 0, seed: 2, nTurbines: 3 }),
  ];
  const file = path.join(dir, 'layouts.h5');
  await writeLayoutsFile(file, [records], {
    campaignName: 'm',
    campaignHash: 'h',
    nExpected: 3,
    complete: true,
    maxTurbines: 3,
    nRows: 3,
    metricNames: ['lcoe', 'cable_km'],
  });
  const reader = await LayoutsFileReader.open(file);
  try {
    assert.equal(reader.info.formatVersion, 5);
    assert.deepEqual(reader.info.metricNames, ['cable_km', 'lcoe']);
    const back = reader.readRecords(0, 3);
    assert.equal(back[0].aepReported, 12345.678);
    assert.deepEqual(back[0].metrics, { cable_km: 12.25, lcoe: 41.5 });
    assert.deepEqual(back[1].metrics, { lcoe: 40.1 });
    assert.equal(back[1].aepReported, undefined);
    assert.equal(back[2].metrics, undefined);
  } finally {
    reader.close();
  }
  const script = `
import h5py, json, sys, math, xarray
with h5py.File(sys.argv[1], 'r') as f:
    out = {'aep_reported': [None if math.isnan(v) else v for v in f['aep_reported'][:].tolist()],
           'units': f['aep_reported'].attrs['units'].decode() if isinstance(f['aep_reported'].attrs['units'], bytes) else f['aep_reported'].attrs['units'],
           'lcoe': [None if math.isnan(v) else v for v in f['metrics/lcoe'][:].tolist()],
           'cable_km': [None if math.isnan(v) else v for v in f['metrics/cable_km'][:].tolist()]}
ds = xarray.open_dataset(sys.argv[1], engine='h5netcdf')
g = xarray.open_dataset(sys.argv[1], engine='h5netcdf', group='metrics')
out['dims'] = list(ds['aep_reported'].dims)
out['metric_dims'] = list(g['lcoe'].dims)
print(json.dumps(out))
`;
  const r = spawnSync(PYTHON, ['-c', script, file], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const seen = JSON.parse(r.stdout) as Record<string, unknown>;
  assert.deepEqual(seen.aep_reported, [12345.678, null, null]);
  assert.equal(seen.units, 'MWh');
  assert.deepEqual(seen.lcoe, [41.5, 40.1, null]);
  assert.deepEqual(seen.cable_km, [12.25, null, null]);
  assert.deepEqual(seen.dims, ['task']);
  assert.deepEqual((seen.metric_dims as string[]).length, 1);
});
