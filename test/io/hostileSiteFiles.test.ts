/**
 * Hostile site and data files through the CLI (issue 40, issue 39 item 3): every door a case
 * names a data file through — netCDF/HDF5 and `.wrg` site files, bathymetry and wind CSVs — meets a
 * corpus generated here in a temporary folder (never committed): NaN and ±inf cells in TI,
 * Speedup, Sector_frequency and a coordinate; HDF5 external raw storage and an external link; a
 * FIFO; a symbolic link to /dev/zero; a sparse file over the size cap; a `.wrg` header of
 * 30000 × 30000; a hexadecimal `.wrg` number; paths and symbolic links leaving the case's folder
 * to a file that looks like /etc/passwd; a netCDF with 40 unused variables of 10⁷ values and one
 * whose Speedup declares 2.5·10⁷. Each `wflo aep` must end by itself (killed after KILL_AFTER_MS:
 * a hang fails, never hangs the run) with exit 2 and one line naming the file and the field, no
 * byte of the foreign file printed, and a peak resident memory (GNU time's maximum over the
 * process tree, the netCDF child included) within MEMORY_BOUND_MB. The files are written by
 * Debian's /usr/bin/python3 with h5py and xarray.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { CLI, PYTHON, tempDir } from '../helpers.js';
import { MAX_INPUT_BYTES } from '../../src/io/boundedRead.js';

const MEMORY_BOUND_MB = 400;
const KILL_AFTER_MS = 60_000;
const TIME = '/usr/bin/time';
/** The bytes of the stand-in for /etc/passwd: none of them may appear in any output. */
const SECRET = 'root:x:0:0:root:/root:/bin/bash 1 2 3 4\ndaemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\n';
const FOREIGN = /root:x|daemon|nologin/;

const hasPython = spawnSync(PYTHON, ['-c', 'import h5py, xarray, numpy'], { encoding: 'utf8' }).status === 0;
const skip = hasPython ? false : 'needs /usr/bin/python3 with h5py, xarray, numpy (Debian)';

let root = '';
let dir = '';
let outside = '';

/** Writes the netCDF corpus into `dir` (the case folder) and the files it points to into `outside`. */
const GENERATOR = String.raw`
import sys, numpy as np, xarray as xr, h5py
d, out = sys.argv[1], sys.argv[2]
x = np.linspace(-3000.0, 3000.0, 6); y = np.linspace(-3000.0, 3000.0, 7)
def site(edit=None, weibull=False):
    ds = xr.Dataset(coords={'x': x.copy(), 'y': y.copy()})
    ds['Speedup'] = (('x', 'y'), np.ones((6, 7)))
    ds['TI'] = (('x', 'y'), np.full((6, 7), 0.08))
    if weibull:
        ds = ds.drop_vars(['Speedup', 'TI']).assign_coords(wd=np.arange(0.0, 360.0, 90.0))
        ds['Weibull_A'] = (('x', 'y', 'wd'), np.full((6, 7, 4), 9.0))
        ds['Weibull_k'] = (('x', 'y', 'wd'), np.full((6, 7, 4), 2.0))
        ds['Sector_frequency'] = (('x', 'y', 'wd'), np.full((6, 7, 4), 0.25))
    ds['x'].attrs['units'] = 'm'; ds['y'].attrs['units'] = 'm'
    if edit: edit(ds)
    return ds
def at(name, idx, v):
    def edit(ds):
        a = ds[name].values.copy(); a[idx] = v; ds[name] = (ds[name].dims, a)
        if name in ('x', 'y'): ds[name].attrs['units'] = 'm'
    return edit
site().to_netcdf(d + '/good.nc')
site(at('TI', (3, 5), np.nan)).to_netcdf(d + '/nan-ti.nc')
site(at('Speedup', (1, 2), np.inf)).to_netcdf(d + '/inf-speedup.nc')
site(at('Sector_frequency', (2, 4, 1), np.nan), weibull=True).to_netcdf(d + '/nan-frequency.nc')
site(at('x', 2, np.nan)).to_netcdf(d + '/nan-x.nc')
# External raw storage: Speedup's bytes live in a file outside the case folder.
site().to_netcdf(d + '/external-storage.nc')
with h5py.File(d + '/external-storage.nc', 'a') as f:
    del f['Speedup']
    f.create_dataset('Speedup', shape=(6, 7), dtype='<f8', external=[(out + '/secret', 0, 6 * 7 * 8)])
    f['Speedup'].dims[0].attach_scale(f['x']); f['Speedup'].dims[1].attach_scale(f['y'])
# An external link: Speedup is another file's dataset (a good one, so following it would succeed).
site().to_netcdf(out + '/linked.nc')
site().to_netcdf(d + '/external-link.nc')
with h5py.File(d + '/external-link.nc', 'a') as f:
    del f['Speedup']
    f['Speedup'] = h5py.ExternalLink(out + '/linked.nc', '/Speedup')
# 40 unused variables of 10^7 values each (never written: fill values, a small file).
site().to_netcdf(d + '/unused.nc')
with h5py.File(d + '/unused.nc', 'a') as f:
    for i in range(40):
        f.create_dataset('unused%d' % i, shape=(10**7,), dtype='<f8', chunks=(10**6,), fillvalue=0.5)
# A used variable declaring 5000 x 5000 values.
with h5py.File(d + '/huge-speedup.nc', 'w') as f:
    for n in ('x', 'y'):
        f.create_dataset(n, data=np.arange(5000.0) * 10); f[n].make_scale(n); f[n].attrs['units'] = 'm'
    f.create_dataset('Speedup', shape=(5000, 5000), dtype='<f8', chunks=(500, 500), fillvalue=1.0)
    f['Speedup'].dims[0].attach_scale(f['x']); f['Speedup'].dims[1].attach_scale(f['y'])
`;

/** A small valid `.wrg`: 2 × 2 points, 4 sectors, by tokens. `token` replaces point 1's A of sector 1. */
function wrg(token = '90'): string {
  const lines = ['2 2 -3000 -3000 6000'];
  for (const [px, py] of [
    [-3000, -3000],
    [3000, -3000],
    [-3000, 3000],
    [3000, 3000],
  ]) {
    const sectors = [0, 1, 2, 3].map((s) => `250 ${px === -3000 && py === -3000 && s === 0 ? token : '90'} 200`).join(' ');
    lines.push(`p ${px} ${py} 0 100 9.0 2.0 500 4 ${sectors}`);
  }
  return lines.join('\n') + '\n';
}

before(() => {
  if (skip) return;
  root = tempDir('wflo-hostile-');
  dir = path.join(root, 'case');
  outside = path.join(root, 'outside');
  fs.mkdirSync(dir);
  fs.mkdirSync(outside);
  fs.writeFileSync(path.join(outside, 'secret'), SECRET);
  fs.writeFileSync(path.join(outside, 'secret.csv'), SECRET);
  const g = spawnSync(PYTHON, ['-c', GENERATOR, dir, outside], { encoding: 'utf8' });
  assert.equal(g.status, 0, `corpus generator: ${g.stderr}`);
  fs.writeFileSync(path.join(dir, 'good.wrg'), wrg());
  fs.writeFileSync(path.join(dir, 'hex.wrg'), wrg('0x5a'));
  fs.writeFileSync(path.join(dir, 'huge-header.wrg'), `30000 30000 0 0 100\n${wrg().split('\n')[1]}\n`);
  for (const big of ['big.wrg', 'big.nc']) {
    fs.writeFileSync(path.join(dir, big), '');
    fs.truncateSync(path.join(dir, big), MAX_INPUT_BYTES + 1);
  } // sparse
  fs.symlinkSync('/dev/zero', path.join(dir, 'zero.wrg'));
  fs.symlinkSync('/dev/zero', path.join(dir, 'zero.nc'));
  fs.symlinkSync('/dev/zero', path.join(dir, 'zero.csv'));
  fs.symlinkSync(path.join(outside, 'secret'), path.join(dir, 'passwd.wrg'));
  for (const fifo of ['fifo.wrg', 'fifo.nc', 'fifo.csv']) assert.equal(spawnSync('mkfifo', [path.join(dir, fifo)]).status, 0);
});
after(() => {
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

interface Outcome {
  status: number | null;
  stdout: string;
  stderr: string;
  peakMb: number;
}

/** `wflo aep` of a case naming `site`/`economics`/`wind` as given (YAML flow text), run under GNU time. */
function aepOf(caseName: string, body: string, flags: string[] = []): Outcome {
  const file = path.join(dir, `${caseName}.yaml`);
  fs.writeFileSync(file, `base: iea37-cs1-16\n${body}\n`);
  const args = [CLI, 'aep', file, ...flags];
  const timed = fs.existsSync(TIME);
  const r = spawnSync(timed ? TIME : process.execPath, timed ? ['-f', 'peak-rss-kb=%M', process.execPath, ...args] : args, {
    cwd: dir,
    encoding: 'utf8',
    timeout: KILL_AFTER_MS,
    killSignal: 'SIGKILL',
    maxBuffer: 64 << 20,
  });
  assert.equal(r.signal, null, `wflo aep ${caseName} did not end by itself (killed after ${KILL_AFTER_MS / 1000} s)`);
  let stderr = r.stderr;
  let peakMb = NaN;
  const m = /peak-rss-kb=(\d+)\n?$/.exec(stderr);
  if (m) {
    peakMb = Number(m[1]) / 1024;
    stderr = stderr.slice(0, m.index);
  }
  // GNU time adds "Command exited with non-zero status N" before its format.
  stderr = stderr.replace(/Command exited with non-zero status \d+\n$/, '');
  return { status: r.status, stdout: r.stdout, stderr, peakMb };
}

/** Exit 2, one line on stderr matching `re`, nothing of the foreign file anywhere, memory within the bound. */
function refused(o: Outcome, re: RegExp): void {
  assert.equal(o.status, 2, `exit ${o.status}, expected 2: ${o.stderr}${o.stdout}`);
  const lines = o.stderr.split('\n').filter((l) => l !== '');
  assert.equal(lines.length, 1, `expected one line, got:\n${o.stderr.slice(0, 2000)}`);
  assert.match(lines[0], re);
  assert.doesNotMatch(o.stderr + o.stdout, FOREIGN, 'a byte of the foreign file was printed');
  if (!Number.isNaN(o.peakMb)) assert.ok(o.peakMb <= MEMORY_BOUND_MB, `peak RSS ${o.peakMb.toFixed(0)} MB, bound ${MEMORY_BOUND_MB} MB`);
}

const esc = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

test('netCDF: NaN and ±inf are refused with the variable, its index and what the value should be (not read as 0)', { skip }, () => {
  const good = aepOf('good-nc', 'site: {file: good.nc}');
  assert.equal(good.status, 0, good.stderr);
  refused(aepOf('nan-ti', 'site: {file: nan-ti.nc}'), /nan-ti\.nc: TI: index \[3,5\] \(x, y\): NaN is not a turbulence intensity/);
  refused(aepOf('inf-speedup', 'site: {file: inf-speedup.nc}'), /inf-speedup\.nc: Speedup: index \[1,2\] \(x, y\): Infinity is not a speed-up factor/);
  refused(
    aepOf('nan-frequency', 'site: {file: nan-frequency.nc}'),
    /nan-frequency\.nc: Sector_frequency: index \[2,4,1\] \(x, y, wd\): NaN is not a sector frequency/,
  );
  refused(aepOf('nan-x', 'site: {file: nan-x.nc}'), /nan-x\.nc: x\[2\]: NaN is not a finite number/);
});

test('netCDF: external raw storage and an external link are refused unread', { skip }, () => {
  refused(
    aepOf('external-storage', 'site: {file: external-storage.nc}'),
    new RegExp(`external-storage\\.nc: Speedup: its data are in another file \\(${esc(outside)}/secret: external storage or a link\\): refused unread`),
  );
  refused(
    aepOf('external-link', 'site: {file: external-link.nc}'),
    new RegExp(`external-link\\.nc: Speedup: an external link to ${esc(outside)}/linked\\.nc:/Speedup: refused unread`),
  );
});

test('netCDF: unused variables are not read; the values read are capped in total before reading', { skip }, () => {
  const unused = aepOf('unused', 'site: {file: unused.nc}');
  assert.equal(unused.status, 0, unused.stderr);
  const aep = (o: Outcome): string | undefined => /^AEP .*$/m.exec(o.stdout)?.[0];
  assert.equal(aep(unused), aep(aepOf('good-nc', 'site: {file: good.nc}')), 'the unused variables change nothing');
  assert.match(aep(unused) ?? '', /^AEP\s+\d+\.\d+ MWh$/);
  if (!Number.isNaN(unused.peakMb)) assert.ok(unused.peakMb <= MEMORY_BOUND_MB, `peak RSS ${unused.peakMb.toFixed(0)} MB with 40 unused 10⁷-value variables`);
  refused(
    aepOf('huge-speedup', 'site: {file: huge-speedup.nc}'),
    /huge-speedup\.nc: Speedup: the variables read hold 25010000 values \(Speedup: 5000 × 5000\), over the limit of 10000000/,
  );
});

test('site files: a FIFO, /dev/zero, a file over 64 MiB are refused before reading, for netCDF and .wrg', { skip }, () => {
  refused(aepOf('fifo-nc', 'site: {file: fifo.nc}'), /fifo\.nc: is a FIFO \(named pipe\), not a regular file; expected a netCDF-4\/HDF5 site file$/);
  refused(aepOf('fifo-wrg', 'site: {file: fifo.wrg}'), /fifo\.wrg: is a FIFO \(named pipe\), not a regular file; expected a WAsP resource grid \(\.wrg\)$/);
  // /dev/zero is outside the case folder: refused as such, and by its type when the operator allows outside files.
  refused(
    aepOf('zero-wrg', 'site: {file: zero.wrg}'),
    /zero-wrg\.yaml:\d+: site\.file: .*zero\.wrg \(\/dev\/zero\) is outside the folder .* refused unread \(--allow-include-outside allows it\)$/,
  );
  refused(aepOf('zero-wrg', 'site: {file: zero.wrg}', ['--allow-include-outside']), /zero\.wrg: is a character device, not a regular file/);
  refused(aepOf('zero-nc', 'site: {file: zero.nc}', ['--allow-include-outside']), /zero\.nc: is a character device, not a regular file/);
  refused(aepOf('big-wrg', 'site: {file: big.wrg}'), /big\.wrg:1: \(top level\): file is 64\.0 MiB, over the 64\.0 MiB limit/);
  refused(aepOf('big-nc', 'site: {file: big.nc}'), /big\.nc: file is 64\.0 MiB, over the 64\.0 MiB limit for site files$/);
});

test('.wrg: a header beyond the file is refused before allocating; hexadecimal is refused; a foreign file is not quoted', { skip }, () => {
  const good = aepOf('good-wrg', 'site: {file: good.wrg}');
  assert.equal(good.status, 0, good.stderr);
  refused(
    aepOf('huge-header', 'site: {file: huge-header.wrg}'),
    /huge-header\.wrg:1: header: a grid of 30000 × 30000 = 900000000 points, but the file has 2 lines below the header/,
  );
  refused(aepOf('hex', 'site: {file: hex.wrg}'), /hex\.wrg:2: sector 1 A: '0x5a' is not a decimal number/);
  refused(aepOf('passwd-wrg', 'site: {file: passwd.wrg}'), /passwd-wrg\.yaml:\d+: site\.file: .*passwd\.wrg \(.*outside\/secret\) is outside the folder/);
  refused(
    aepOf('passwd-wrg', 'site: {file: passwd.wrg}', ['--allow-include-outside']),
    /passwd\.wrg:1: header\.nx: expected the header 'nx ny xmin ymin cell_size' \(5 decimal numbers\); field 1 is not a decimal number: not a WAsP resource grid$/,
  );
});

test('bathymetry and wind CSVs: confined to the case folder; a CSV that is not of its format is not quoted (also a turbine curve)', { skip }, () => {
  const econ = (bathymetry: string): string =>
    `economics: {energy_price_eur_per_mwh: 60, project_years: 25, distance_from_shore_km: 20, bathymetry: '${bathymetry}', substations: [[0, 0]], cables: [{name: c, capacity: 4, cost_per_m: 300}], rated_rpm: 10}`;
  refused(
    aepOf('bathy-escape', econ('../../../../../../../..' + outside + '/secret.csv')),
    /bathy-escape\.yaml:\d+: economics\.bathymetry: .*secret\.csv is outside the folder .* refused unread/,
  );
  refused(
    aepOf('bathy-escape', econ('../outside/secret.csv'), ['--allow-include-outside']),
    /secret\.csv:1: \(header\): expected a header row x,y,depth; the first line names none of these columns .*not a bathymetry CSV$/,
  );
  refused(aepOf('bathy-zero', econ('zero.csv')), /economics\.bathymetry: .*zero\.csv \(\/dev\/zero\) is outside the folder/);
  refused(aepOf('bathy-fifo', econ('fifo.csv')), /fifo\.csv: is a FIFO \(named pipe\), not a regular file/);
  refused(aepOf('wind-escape', 'wind: ../outside/secret.csv'), /wind-escape\.yaml:\d+: wind: .*secret\.csv is outside the folder .* refused unread/);
  refused(
    aepOf('wind-escape', 'wind: ../outside/secret.csv', ['--allow-include-outside']),
    /secret\.csv:1: \(header\): expected a header row \(wind_direction,wind_speed,\.\.\.\); the first line names none of the columns .*not a time-series CSV$/,
  );
  refused(aepOf('series-escape', 'wind: {time_series: ../outside/secret.csv}'), /time_series: .*secret\.csv is outside the folder .* refused unread/);
  // A turbine's curve CSV that is not one: refused without a byte of it.
  fs.writeFileSync(
    path.join(dir, 'turbine.yaml'),
    'name: T\nrotor_diameter: 130\nhub_height: 110\nperformance:\n  power_curve: ../outside/secret.csv\n  Ct_curve: ../outside/secret.csv\n',
  );
  refused(
    aepOf('curve-foreign', 'turbine: turbine.yaml'),
    /turbine\.yaml:\d+: performance\.power_curve: .*secret\.csv is outside the folder .* refused unread/,
  );
  refused(
    aepOf('curve-foreign', 'turbine: turbine.yaml', ['--allow-include-outside']),
    /secret\.csv:1: \(header\): expected a header row \(wind_speed,power\); the first line names none of the columns .*not a curve CSV$/,
  );
});
