/**
 * Site fields from netCDF-4 files written by xarray (Debian's python3-xarray, both of its netCDF
 * engines: netCDF4 and h5netcdf), as PyWake's XRSite.save writes them (io/siteFile.ts): the PyWake
 * site reference cases evaluated with `site: {file: …}` instead of the inline block match PyWake's
 * AEP and every turbine's to 1e-9; files that are not what they should be are refused in one line.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { runWflo } from '../helpers.js';
import { assertPyWakeAep, casesOnce, pythonHas as has, PY_CASE_TOOLS } from '../helpers/pythonCases.js';

// CI installs python3-xarray, python3-h5netcdf and python3-netcdf4 (.ci/run): both of xarray's netCDF writers.
const skipOf = (engine: 'netcdf4' | 'h5netcdf'): string | false =>
  has(`xarray, yaml, ${engine === 'netcdf4' ? 'netCDF4' : 'h5netcdf'}`)
    ? false
    : `needs python3-xarray, python3-yaml and ${engine === 'netcdf4' ? 'python3-netcdf4' : 'python3-h5netcdf'} (Debian)`;
const skip = skipOf('h5netcdf');

/**
 * Writes, with xarray, the netCDF file of a reference case's inline `site:` block (Speedup and TI
 * over its x, y[, wd]; the wind's TI as a scalar where the block has none) and a copy of the case
 * naming that file. `extra` is the engine, then `;` and a statement editing the dataset `ds`.
 */
const NC_WRITER =
  PY_CASE_TOOLS +
  `
import numpy as np, xarray as xr
def write(ref, out, extra):
    engine, _, transform = extra.partition(';')
    doc = load(ref)
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
    edited('ds', ds, transform, np=np, xr=xr).to_netcdf(out + '/site.nc', engine=engine)
    save_case(doc, out, 'site.nc')
`;

const REFERENCES = ['site-speedup-bastankhah2014.yaml', 'site-ti-niayifar2016.yaml', 'site-wd-niayifar2016.yaml'];
const ENGINES = ['netcdf4', 'h5netcdf'] as const;
const BAD_REFERENCE = 'site-speedup-bastankhah2014.yaml';
const BAD: [string, RegExp][] = [
  ["ds = ds.transpose('y', 'x')", /site\.nc: Speedup: dimensions \(y, x\) must be in the order x, y/],
  ["ds['x'].attrs['units'] = 'km'", /site\.nc: x: units 'km' where metres \(m\) are expected/],
  ['ds = ds.isel(y=slice(None, None, -1))', /site\.nc: y\[1\]: .* does not follow .*: a grid must be strictly ascending/],
  ["ds['Speedup'] = ds['Speedup'].expand_dims(ws=[8.0]).transpose('x', 'y', 'ws')", /site\.nc: Speedup: dimension 2 \(ws\) is not one of x, y, h, wd/],
  ["ds['TI'] = ds['TI'] * 100", /site\.nc: TI: 10 is not a turbulence intensity as a fraction .*write 0\.1/],
  ["ds = ds.drop_vars(['Speedup', 'TI'])", /site\.nc: holds neither Speedup, TI nor Weibull_A\/Weibull_k\/Sector_frequency/],
];

// Every file is written by one Python process, on first use (xarray's import alone is about a
// second of CPU); each is still read by a `wflo aep` of its own. The damaged file starts as an
// unedited h5netcdf copy of the bad-case reference.
const ncCase = casesOnce(
  NC_WRITER,
  [
    ...REFERENCES.flatMap((reference) => ENGINES.filter((engine) => !skipOf(engine)).map((engine): [string, string] => [reference, engine])),
    ...(skip ? [] : [...BAD.map(([transform]) => `h5netcdf;${transform}`), 'h5netcdf;'].map((extra): [string, string] => [BAD_REFERENCE, extra])),
  ],
  'wflo-sitenc-',
);

for (const reference of REFERENCES) {
  for (const engine of ENGINES) {
    test(`${reference} through a netCDF file written by xarray (${engine}): PyWake's AEP and per-turbine AEP to 1e-9`, { skip: skipOf(engine) }, () => {
      assertPyWakeAep(ncCase(reference, engine));
    });
  }
}

test('netCDF site files that are not what they should be: one line naming the file and the variable, exit 2', { skip }, () => {
  for (const [transform, pattern] of BAD) {
    const file = ncCase(BAD_REFERENCE, `h5netcdf;${transform}`);
    const r = runWflo(['aep', file, '--json']);
    assert.equal(r.status, 2, `${transform}: ${r.stderr}`);
    const lines = r.stderr.trim().split('\n');
    assert.equal(lines.length, 1, r.stderr);
    assert.match(lines[0], pattern, transform);
  }
  // A damaged file (its first half zeroed: the signature and superblock gone): refused in one line, read in a child process.
  const file = ncCase(BAD_REFERENCE, 'h5netcdf;');
  const nc = path.join(path.dirname(file), 'site.nc');
  const bytes = fs.readFileSync(nc);
  bytes.fill(0, 0, Math.floor(bytes.length / 2));
  fs.writeFileSync(nc, bytes);
  const r = runWflo(['aep', file, '--json']);
  assert.equal(r.status, 2, r.stderr);
  assert.match(r.stderr.trim(), /site\.nc: not a readable netCDF-4\/HDF5 site file/);
  assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
});
