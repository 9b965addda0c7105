/**
 * Site fields from netCDF-4 files written by xarray (Debian's python3-xarray, both of its netCDF
 * engines: netCDF4 and h5netcdf), as PyWake's XRSite.save writes them (io/siteFile.ts): the PyWake
 * site reference cases evaluated with `site: {file: …}` instead of the inline block match PyWake's
 * AEP and every turbine's to 1e-9; files that are not what they should be are refused in one line.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { PYTHON, PYWAKE_REFERENCE as REFERENCE, runWflo, tempDir } from '../helpers.js';

const has = (modules: string): boolean => spawnSync(PYTHON, ['-c', `import ${modules}`], { encoding: 'utf8' }).status === 0;
// CI installs python3-xarray, python3-h5netcdf and python3-netcdf4 (.ci/run): both of xarray's netCDF writers.
const skipOf = (engine: 'netcdf4' | 'h5netcdf'): string | false => has(`xarray, yaml, ${engine === 'netcdf4' ? 'netCDF4' : 'h5netcdf'}`)
  ? false : `needs python3-xarray, python3-yaml and ${engine === 'netcdf4' ? 'python3-netcdf4' : 'python3-h5netcdf'} (Debian)`;
const skip = skipOf('h5netcdf');

/**
 * Writes, with xarray, the netCDF file of a reference case's inline `site:` block (Speedup and TI
 * over its x, y[, wd]; the wind's TI as a scalar where the block has none) and a copy of the case
 * naming that file. `transform` edits the dataset in Python (a statement on `ds`).
 */
function ncCase(reference: string, engine: 'netcdf4' | 'h5netcdf', transform = ''): string {
  const dir = tempDir('wflo-sitenc-');
  const script = `
import sys, yaml, numpy as np, xarray as xr
ref, out, engine = sys.argv[1], sys.argv[2], sys.argv[3]
doc = yaml.safe_load(open(ref))
site = doc['site']
ds = xr.Dataset()
for key, name in [('speedup', 'Speedup'), ('ti', 'TI')]:
    if key in site:
        f = site[key]
        dims = [d for d in ('x', 'y', 'h', 'wd') if d in f]
        ds = ds.assign_coords({d: np.asarray(f[d], float) for d in dims})
        ds[name] = (dims, np.asarray(f['values'], float))
if 'TI' not in ds:
    ds['TI'] = float(doc['wind']['turbulence_intensity'])
ds['x'].attrs['units'] = 'm'; ds['y'].attrs['units'] = 'm'
${transform}
ds.to_netcdf(out + '/site.nc', engine=engine)
doc['site'] = {'file': 'site.nc'}
yaml.safe_dump(doc, open(out + '/case.yaml', 'w'), sort_keys=False, width=120, default_flow_style=None)
`;
  const r = spawnSync(PYTHON, ['-c', script, path.join(REFERENCE, reference), dir, engine], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return path.join(dir, 'case.yaml');
}

function rel(a: number, b: number): number {
  return Math.abs(a - b) / Math.abs(b);
}

for (const reference of ['site-speedup-bastankhah2014.yaml', 'site-ti-niayifar2016.yaml', 'site-wd-niayifar2016.yaml']) {
  for (const engine of ['netcdf4', 'h5netcdf'] as const) {
    test(`${reference} through a netCDF file written by xarray (${engine}): PyWake's AEP and per-turbine AEP to 1e-9`, { skip: skipOf(engine) }, () => {
      const file = ncCase(reference, engine);
      const r = runWflo(['aep', file, '--json']);
      assert.equal(r.status, 0, r.stderr);
      const out = JSON.parse(r.stdout);
      const expected = (JSON.parse(spawnSync(PYTHON, ['-c', 'import sys, yaml, json; print(json.dumps(yaml.safe_load(open(sys.argv[1]))["expected"]))', file], { encoding: 'utf8' }).stdout));
      assert.ok(rel(out.aep_mwh, expected.aep_mwh) <= 1e-9, `${out.aep_mwh} vs PyWake ${expected.aep_mwh}`);
      assert.equal(out.per_turbine_mwh.length, expected.aep_per_turbine_mwh.length);
      expected.aep_per_turbine_mwh.forEach((v: number, i: number) => assert.ok(rel(out.per_turbine_mwh[i], v) <= 1e-9, `turbine ${i}: ${out.per_turbine_mwh[i]} vs ${v}`));
    });
  }
}

test('netCDF site files that are not what they should be: one line naming the file and the variable, exit 2', { skip }, () => {
  const cases: [string, RegExp][] = [
    ["ds = ds.transpose('y', 'x')", /site\.nc: Speedup: dimensions \(y, x\) must be in the order x, y/],
    ["ds['x'].attrs['units'] = 'km'", /site\.nc: x: units 'km' where metres \(m\) are expected/],
    ["ds = ds.isel(y=slice(None, None, -1))", /site\.nc: y\[1\]: .* does not follow .*: a grid must be strictly ascending/],
    ["ds['Speedup'] = ds['Speedup'].expand_dims(ws=[8.0]).transpose('x', 'y', 'ws')", /site\.nc: Speedup: dimension 2 \(ws\) is not one of x, y, h, wd/],
    ["ds['TI'] = ds['TI'] * 100", /site\.nc: TI: 10 is not a turbulence intensity as a fraction .*write 0\.1/],
    ["ds = ds.drop_vars(['Speedup', 'TI'])", /site\.nc: holds neither Speedup, TI nor Weibull_A\/Weibull_k\/Sector_frequency/],
  ];
  for (const [transform, pattern] of cases) {
    const file = ncCase('site-speedup-bastankhah2014.yaml', 'h5netcdf', transform);
    const r = runWflo(['aep', file, '--json']);
    assert.equal(r.status, 2, `${transform}: ${r.stderr}`);
    const lines = r.stderr.trim().split('\n');
    assert.equal(lines.length, 1, r.stderr);
    assert.match(lines[0], pattern, transform);
  }
  // A damaged file (its second half zeroed): refused in one line, read in a child process.
  const file = ncCase('site-speedup-bastankhah2014.yaml', 'h5netcdf');
  const nc = path.join(path.dirname(file), 'site.nc');
  const bytes = fs.readFileSync(nc);
  bytes.fill(0, 0, Math.floor(bytes.length / 2));
  fs.writeFileSync(nc, bytes);
  const r = runWflo(['aep', file, '--json']);
  assert.equal(r.status, 2, r.stderr);
  assert.match(r.stderr.trim(), /site\.nc: not a readable netCDF-4\/HDF5 site file/);
  assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
});
