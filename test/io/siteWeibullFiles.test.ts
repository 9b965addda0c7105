/**
 * Per-point Weibull sites read from files written outside wflo: netCDF by xarray (Debian's
 * python3-xarray, both netCDF engines; PyWake's Weibull_A/Weibull_k/Sector_frequency) and WAsP
 * `.wrg` files written here by an independent Python writer in the fixed columns of DTU's windkit
 * (io/wrgFile.ts). Each carries a PyWake Weibull reference case's `site.weibull` block and must give
 * PyWake's AEP and every turbine's to 1e-9. Files and blocks that are not what they should be are
 * refused in one line naming the file (and line) and the field, exit 2.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runWflo } from '../helpers.js';
import { assertPyWakeAep, casesOnce, pythonCases, pythonHas as has, PY_CASE_TOOLS } from '../helpers/pythonCases.js';

const skipOf = (engine: 'netcdf4' | 'h5netcdf'): string | false =>
  has(`xarray, yaml, ${engine === 'netcdf4' ? 'netCDF4' : 'h5netcdf'}`)
    ? false
    : `needs python3-xarray, python3-yaml and ${engine === 'netcdf4' ? 'python3-netcdf4' : 'python3-h5netcdf'} (Debian)`;
const skipYaml = has('yaml, numpy') ? false : 'needs python3-yaml and python3-numpy (Debian)';

/** The reference's Weibull block (and speed-up) as a netCDF file written by xarray; `extra` is the engine, then a statement on `ds`. */
const NC_WRITER =
  PY_CASE_TOOLS +
  `
import numpy as np, xarray as xr
def write(ref, out, extra):
    engine, _, transform = extra.partition(';')
    doc = load(ref)
    site = doc['site']
    w = site['weibull']
    ds = xr.Dataset(coords={d: np.asarray(w[d], float) for d in ('x', 'y', 'wd')})
    for key, name in [('A', 'Weibull_A'), ('k', 'Weibull_k'), ('frequency', 'Sector_frequency')]:
        ds[name] = (('x', 'y', 'wd'), np.asarray(w[key], float))
    if 'speedup' in site:
        ds['Speedup'] = (('x', 'y'), np.asarray(site['speedup']['values'], float))
    ds['x'].attrs['units'] = 'm'; ds['y'].attrs['units'] = 'm'; ds['wd'].attrs['units'] = 'deg'
    edited('ds', ds, transform, np=np, xr=xr).to_netcdf(out + '/site.nc', engine=engine)
    save_case(doc, out, 'site.nc')
`;

/**
 * The reference's Weibull block as a WAsP .wrg file: header 'nx ny xmin ymin cell', then one line
 * per point in fixed columns (widths 10 10 10 8 5 5 6 15 3, then 4 4 5 per sector: frequency in per
 * mille, A in dm/s, k ×100), points in reverse order. `extra`: 'spaced-name' writes names with a
 * space (read by the fixed columns), or a Python statement on `lines` (a list of strings) to break it.
 */
const WRG_WRITER =
  PY_CASE_TOOLS +
  `
import numpy as np
def write(ref, out, extra):
    doc = load(ref)
    w = doc['site']['weibull']
    gx, gy, wd = np.asarray(w['x']), np.asarray(w['y']), np.asarray(w['wd'])
    A, K, F = np.asarray(w['A']), np.asarray(w['k']), np.asarray(w['frequency'])
    cell = gx[1] - gx[0]
    assert np.allclose(np.diff(gx), cell) and np.allclose(np.diff(gy), cell)
    n = len(wd)
    lines = [f' {len(gx):<13} {len(gy):<13} {gx[0]:>9.0f} {gy[0]:>13.0f} {cell:>8.0f}']
    pts = []
    for i, x in enumerate(gx):
        for j, y in enumerate(gy):
            name = ('Grid pt' if extra == 'spaced-name' else 'GridPoint')
            s = f'{name:<10} {x:>9.1f} {y:>9.1f} {0:>7.0f} {70.0:>4.1f} {8.0:>4.2f} {2.0:>5.3f} {300.0:>14.4f} {n:>2}'
            for q in range(n):
                s += f' {round(F[i, j, q] * 1000):>3d} {round(A[i, j, q] * 10):>3d} {round(K[i, j, q] * 100):>4d}'
            assert len(s) == 72 + 13 * n, len(s)
            pts.append(s)
    lines += pts[::-1]
    if extra and extra != 'spaced-name':
        lines = edited('lines', lines, extra)
    open(out + '/site.wrg', 'w', newline='\\r\\n').write('\\n'.join(lines) + '\\n')
    save_case(doc, out, 'site.wrg')
`;

/** The reference case with its inline weibull block (`w`) or document (`doc`) edited by the statement `extra`. */
const EDIT_WRITER =
  PY_CASE_TOOLS +
  `
def write(ref, out, extra):
    doc = load(ref)
    w = doc['site']['weibull']
    exec(extra, {'doc': doc, 'w': w})
    yaml.safe_dump(doc, open(out + '/case.yaml', 'w'), sort_keys=False, width=120, default_flow_style=None)
`;

function assertRefused(file: string, pattern: RegExp, what: string): void {
  const r = runWflo(['aep', file, '--json']);
  assert.equal(r.status, 2, `${what}: ${r.stderr}`);
  const lines = r.stderr.trim().split('\n');
  assert.equal(lines.length, 1, r.stderr);
  assert.match(lines[0], pattern, what);
}

const NC_REFERENCES = ['site-weibull-bastankhah2014.yaml', 'site-weibull-speedup-niayifar2016.yaml'];
const ENGINES = ['netcdf4', 'h5netcdf'] as const;
const WRG_REFERENCE = 'site-weibull-wrg-jensen1983.yaml';
const WRG_VARIANTS = ['', 'spaced-name'];
const BAD_WRG: [string, RegExp][] = [
  ["lines[0] = ' 7 7 -500 -500'", /site\.wrg:1: header: expected the header 'nx ny xmin ymin cell_size' \(5 decimal numbers\), got 4 fields/],
  ["lines[0] = lines[0].replace(' 500', ' -500', 2)[::1]; lines[0] = ' 7 7 -500 -500 -50'", /site\.wrg:1: header\.cell_size: -50 is not a positive cell size/],
  ['del lines[5]', /site\.wrg:\d+: points: 48 points for the header's 7 × 7 grid: none at/],
  ['lines[3] = lines[2]', /site\.wrg:4: x: the point \(.*\) is given again \(first on line 3\)/],
  ["lines[2] = lines[2][:10] + f'{123.0:>10.1f}' + lines[2][20:]", /site\.wrg:3: x: 123 is not a grid column xmin \+ i·cell/],
  ["lines[2] = lines[2][:69] + ' 11' + lines[2][72:85+13*10]", /site\.wrg:3: sectors: 11 sectors where line 2 has 12/],
  ["lines[2] = lines[2][:72] + '  99' + lines[2][76:]", /site\.wrg:3: sector 1 frequency: the sector frequencies of this point sum to 1\.0\d+, not 1/],
  ["lines[2] = lines[2][:76] + '   0' + lines[2][80:]", /site\.wrg:3: sector 1 A: 0 is not a Weibull scale A in m\/s, > 0/],
  ["lines[2] = lines[2][:38] + '80.0' + lines[2][42:]", /site\.wrg:3: height: 80 m where line 2 has 70 m: one height per file/],
];
const BAD_NC_REFERENCE = 'site-weibull-bastankhah2014.yaml';
const BAD_NC: [string, RegExp][] = [
  ["ds = ds.drop_vars('Weibull_k')", /site\.nc: Weibull_k: missing; a per-point Weibull needs Weibull_A, Weibull_k and Sector_frequency/],
  [
    "ds['Sector_frequency'] = ds['Sector_frequency'] * 100",
    /site\.nc: Sector_frequency: index \[0,0,0\] \(x, y, wd\): [\d.]+ is not a sector frequency as a fraction in \[0, 1\]; in percent or per mille\?/,
  ],
  [
    "ds['Sector_frequency'][0, 0, 0] = ds['Sector_frequency'][0, 0, 0] + 0.2",
    /site\.nc: Sector_frequency\[0\]\[0\]\[0\]: the sector frequencies of this point .* sum to 1\.(19|2)\d*, not 1/,
  ],
  ["ds['Weibull_A'] = ds['Weibull_A'].transpose('wd', 'x', 'y')", /site\.nc: Weibull_A: dimensions \(wd, x, y\) must be in the order x, y, wd/],
  ["ds['P'] = 1.0", /site\.nc: P: the file holds P beside Weibull_A: PyWake's XRSite takes P/],
  ["ds['wd'].attrs['units'] = 'rad'", /site\.nc: wd: units 'rad' where degrees \(deg\) are expected/],
];

// Every file of a writer is written by one Python process, on first use (xarray's import alone is
// about a second of CPU); each is still read by a `wflo aep` of its own.
const ncCase = casesOnce(
  NC_WRITER,
  [
    ...NC_REFERENCES.flatMap((reference) => ENGINES.filter((engine) => !skipOf(engine)).map((engine): [string, string] => [reference, engine])),
    ...(skipOf('h5netcdf') ? [] : BAD_NC.map(([transform]): [string, string] => [BAD_NC_REFERENCE, `h5netcdf;${transform}`])),
  ],
  'wflo-weibull-',
);
const wrgCase = casesOnce(
  WRG_WRITER,
  [...WRG_VARIANTS, ...BAD_WRG.map(([transform]) => transform)].map((extra): [string, string] => [WRG_REFERENCE, extra]),
  'wflo-weibull-',
);

for (const reference of NC_REFERENCES) {
  for (const engine of ENGINES) {
    test(`${reference} through a netCDF file written by xarray (${engine}): PyWake's AEP and per-turbine AEP to 1e-9`, { skip: skipOf(engine) }, () => {
      assertPyWakeAep(ncCase(reference, engine));
    });
  }
}

for (const variant of WRG_VARIANTS) {
  test(`site-weibull-wrg-jensen1983 through a WAsP .wrg file written by Python${variant ? ' (names with a space: the fixed columns)' : ''}: PyWake's AEP and per-turbine AEP to 1e-9`, {
    skip: skipYaml,
  }, () => {
    assertPyWakeAep(wrgCase(WRG_REFERENCE, variant));
  });
}

test('.wrg files that are not what they should be: file:line, the field, exit 2', { skip: skipYaml }, () => {
  for (const [transform, pattern] of BAD_WRG) assertRefused(wrgCase(WRG_REFERENCE, transform), pattern, transform);
});

test('netCDF Weibull files that are not what they should be: the file and the variable, exit 2', { skip: skipOf('h5netcdf') }, () => {
  for (const [transform, pattern] of BAD_NC) assertRefused(ncCase(BAD_NC_REFERENCE, `h5netcdf;${transform}`), pattern, transform);
});

test('inline weibull blocks that are not what they should be: file:line and the field, exit 2', { skip: skipYaml }, () => {
  const cases: [string, RegExp][] = [
    ["w['k'][1][2][3] = -2.0", /case\.yaml:\d+: site\.weibull\.k\[1\]\[2\]\[3\]: -2 is not a Weibull shape k, > 0 and ≤ 20/],
    [
      "w['frequency'][0][1][0] += 0.1",
      /case\.yaml:\d+: site\.weibull\.frequency\[0\]\[1\]\[0\]: the sector frequencies of this point \(12 sectors from this value on\) sum to 1\.(09|1)\d*, not 1/,
    ],
    ["w['A'][2] = w['A'][2][:-1]", /case\.yaml:\d+: site\.weibull\.A\[2\]: 5 entries, expected a list of 6/],
    ["w['freq'] = w.pop('frequency')", /case\.yaml:\d+: site\.weibull\.freq: unknown field 'freq' \(known: x, y, h, wd, A, k, frequency\)/],
    [
      "doc['wind'] = {'time_series': {'wind_direction': [270.0], 'wind_speed': [8.0]}}",
      /case\.yaml:\d+: site: a per-point Weibull site gives each turbine's probability .*not a time series/,
    ],
  ];
  const files = pythonCases(
    EDIT_WRITER,
    cases.map(([transform]): [string, string] => ['site-weibull-bastankhah2014.yaml', transform]),
    'wflo-weibull-',
  );
  cases.forEach(([transform, pattern], i) => assertRefused(files[i], pattern, transform));
});
