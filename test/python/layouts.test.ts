/**
 * `wflo.read_layouts` (python/wflo/layouts.py over the serve requests of
 * src/serve/layoutsRequests.ts) run by Debian's python3 with h5py and xarray made
 * unimportable (NumPy only), against h5py reading the same file in another process: every
 * dataset's dtype, shape and bytes, the text columns, the root attributes and the /farms, /types
 * definitions are h5py's. The file is a 2 × 2 × 700-seed campaign (two turbine counts: NaN and −1
 * padding; 2800 rows: several responses) plus metrics columns written by a command program. With
 * xarray the Dataset carries the same values on the dimensions h5netcdf names. A file that is not
 * a wflo layouts file raises WfloError with the line `wflo plot FILE` prints. On the wire: requests
 * sent in one write behind a layouts_open (which answers later) are answered in order, also when
 * stdin closes before the open is answered; bad handles, rows past the end and a missing file are
 * error responses; every header matches schemas/serve.v1.json (Python's jsonschema).
 */
import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { stringify } from 'yaml';
import { CLI, hasH5py, PYTHON, REPO, runWflo, tempDir } from '../helpers.js';
import { noopCampaign } from '../runner/runnerTestKit.js';
import { PYTHON_PACKAGE, pythonMissing, runPython } from './pythonKit.js';

const missing = pythonMissing() || (hasH5py() ? false : `${PYTHON} without h5py (apt-get install python3-h5py)`);

/** Read with wflo, NumPy only (h5py and xarray refused at import), into an .npz + JSON. */
const READ_NUMPY_ONLY = `
import json, sys
sys.modules["h5py"] = None
sys.modules["xarray"] = None
import numpy as np
import wflo
path, npz, meta = sys.argv[1:4]
a = wflo.read_layouts(path)
assert type(a).__name__ == "LayoutsArrays", type(a)
assert "h5py" not in sys.modules or sys.modules["h5py"] is None
np.savez(npz, **{k.replace("/", "__"): v for k, v in a.items()})
json.dump({"attrs": a.attrs, "farms": a.farms, "types": a.types, "units": a.units}, open(meta, "w"))
`;

/** h5py reads the file and compares with what wflo read; prints one JSON report. */
const COMPARE_WITH_H5PY = `
import json, sys
import numpy as np, h5py
path, npz, meta = sys.argv[1:4]
w = {k.replace("__", "/"): v for k, v in np.load(npz).items()}
m = json.load(open(meta))
report = {"checked": [], "problems": []}
with h5py.File(path, "r") as f:
    names = [n for n in f if isinstance(f[n], h5py.Dataset) and n not in ("task", "turbine", "coordinate")]
    names += ["metrics/" + n for n in f.get("metrics", {})]
    if sorted(names) != sorted(w):
        report["problems"].append(f"columns: h5py {sorted(names)}, wflo {sorted(w)}")
    for n in names:
        d = f[n]
        if d.dtype.kind == "S":
            h = d.asstr()[:].tolist()
            if h != w[n].tolist():
                report["problems"].append(f"{n}: text differs")
        else:
            h = d[:]
            if h.dtype != w[n].dtype or h.shape != w[n].shape or h.tobytes() != w[n].tobytes():
                report["problems"].append(f"{n}: h5py {h.dtype}{h.shape}, wflo {w[n].dtype}{w[n].shape}, bytes equal {h.tobytes() == w[n].tobytes()}")
            if "units" in d.attrs and m["units"].get(n) != d.attrs["units"]:
                report["problems"].append(f"{n}: units {d.attrs['units']!r} vs {m['units'].get(n)!r}")
        report["checked"].append(n)
    attrs = {k: (v.item() if hasattr(v, "item") else v) for k, v in f.attrs.items()}
    if attrs != m["attrs"]:
        report["problems"].append(f"attributes: h5py {attrs}, wflo {m['attrs']}")
    for group in ("farms", "types"):
        h = {k: json.loads(f[group][k].attrs["json"]) for k in f[group]}
        if h != m[group]:
            report["problems"].append(f"/{group} differs")
    report["rows"] = int(f["aep"].shape[0])
    report["nan_padding"] = int(np.isnan(f["layout"][:]).sum())
print(json.dumps(report))
`;

/** The xarray Dataset holds the arrays' values on the h5netcdf dimension names. */
const XARRAY = `
import json, sys
import numpy as np, xarray as xr, wflo
path = sys.argv[1]
ds = wflo.read_layouts(path)
a = wflo.read_layouts(path, xarray=False)
nc = xr.open_dataset(path, engine="h5netcdf")
problems = []
assert isinstance(ds, xr.Dataset)
for name, values in a.items():
    if name.startswith("metrics/"):
        got = ds["metrics"].sel(metric=name[len("metrics/"):]).values
    else:
        got = ds[name].values
    if got.tobytes() != values.tobytes() and got.tolist() != values.tolist():
        problems.append(name)
for name in nc.data_vars:
    if ds[name].dims != nc[name].dims:
        problems.append(f"{name}: dims {ds[name].dims} vs h5netcdf {nc[name].dims}")
if list(ds["task"].values) != list(a["task_id"]) or list(ds["coordinate"].values) != ["x", "y"]:
    problems.append("coords")
if ds["aep"].attrs.get("units") != "MWh" or json.loads(ds.attrs["farms"]) != a.farms:
    problems.append("attrs")
print(json.dumps({"problems": problems, "dims": dict(ds.sizes), "metrics": [str(m) for m in ds["metric"].values]}))
`;

/** A persistent @wflo.program that keeps each seed's start and reports two metrics. */
const METRICS_PROGRAM = `
import wflo

@wflo.program
def keep(task):
    x, y = task.initial_layout
    return wflo.Result(x, y, metrics={"cable_km": 0.5 * task.seed, "LCOE2": 40.0 + task.seed / 3})

keep.main()
`;

describe('wflo.read_layouts', { skip: missing }, () => {
  const dir = tempDir('wflo-pylayouts-');
  const big = path.join(dir, 'big');
  const small = path.join(dir, 'metrics');

  before(() => {
    const c = noopCampaign(big, 700);
    fs.writeFileSync(path.join(dir, 'big.yaml'), stringify(c));
    const r = runWflo(['run', path.join(dir, 'big.yaml'), '--quiet'], { timeoutMs: 300_000 });
    assert.equal(r.status, 0, r.stderr);
    fs.writeFileSync(path.join(dir, 'prog.py'), METRICS_PROGRAM);
    const m = {
      ...noopCampaign(small, 3),
      optimizer: { method: 'command', run: [PYTHON, 'prog.py'], inputs: ['prog.py'], mode: 'persistent' },
    };
    fs.writeFileSync(path.join(dir, 'metrics.yaml'), stringify(m));
    const s = runWflo(['run', path.join(dir, 'metrics.yaml'), '--quiet'], { timeoutMs: 300_000, env: { PYTHONPATH: PYTHON_PACKAGE } });
    assert.equal(s.status, 0, s.stderr);
  });

  for (const [label, out, rows] of [
    ['2800 rows, several responses', big, 2800],
    ['metrics columns', small, 12],
  ] as const) {
    test(`NumPy only, equal to h5py: ${label}`, { timeout: 300_000 }, () => {
      const file = path.join(out, 'layouts.h5');
      const npz = path.join(dir, `${path.basename(out)}.npz`);
      const meta = path.join(dir, `${path.basename(out)}.json`);
      const a = runPython(['-c', READ_NUMPY_ONLY, file, npz, meta]);
      assert.equal(a.status, 0, a.stderr);
      const b = runPython(['-c', COMPARE_WITH_H5PY, file, npz, meta]);
      assert.equal(b.status, 0, b.stderr);
      const report = JSON.parse(b.stdout) as { checked: string[]; problems: string[]; rows: number; nan_padding: number };
      assert.deepEqual(report.problems, []);
      assert.equal(report.rows, rows);
      assert.ok(report.checked.includes('layout') && report.checked.includes('task_id') && report.checked.includes('turbine_type'), report.checked.join());
      if (out === small) assert.ok(report.checked.includes('metrics/cable_km') && report.checked.includes('metrics/LCOE2'), report.checked.join());
      assert.ok(report.nan_padding > 0, 'the 4-turbine rows are NaN past n_turbines');
    });
  }

  test('with xarray: a Dataset on the dimensions h5netcdf gives the file', {
    timeout: 300_000,
    skip: runPython(['-c', 'import xarray, h5netcdf']).status === 0 ? false : 'xarray or h5netcdf missing',
  }, () => {
    const r = runPython(['-c', XARRAY, path.join(small, 'layouts.h5')]);
    assert.equal(r.status, 0, r.stderr);
    const got = JSON.parse(r.stdout) as { problems: string[]; dims: Record<string, number>; metrics: string[] };
    assert.deepEqual(got.problems, []);
    assert.deepEqual(got.dims, { task: 12, turbine: 6, coordinate: 2, metric: 2 });
    assert.deepEqual(got.metrics, ['LCOE2', 'cable_km']);
  });

  test('a file that is not a wflo layouts file: WfloError with the line `wflo plot FILE` prints', { timeout: 120_000 }, () => {
    const w = runPython([
      '-c',
      `
import h5py, sys
with h5py.File(sys.argv[1] + "/other.h5", "w") as f:
    f["x"] = [1.0, 2.0]
    f.attrs["format"] = "pipeline-v2"
with h5py.File(sys.argv[1] + "/plain.h5", "w") as f:
    f["x"] = [1.0, 2.0]
open(sys.argv[1] + "/text.h5", "w").write("not hdf5\\n")
`,
      dir,
    ]);
    assert.equal(w.status, 0, w.stderr);
    for (const name of ['other.h5', 'plain.h5', 'text.h5']) {
      const cli = runWflo(['plot', name, '-o', 'x.svg'], { cwd: dir });
      assert.equal(cli.status, 2, cli.stderr);
      const py = runPython(
        [
          '-c',
          `
import sys, wflo
try:
    wflo.read_layouts(sys.argv[1])
except wflo.WfloError as err:
    print(err.exit_code, err)
`,
          name,
        ],
        { cwd: dir },
      );
      assert.equal(py.status, 0, py.stderr);
      assert.equal(`wflo: ${py.stdout.slice(2)}`, cli.stderr, name);
      assert.equal(py.stdout.slice(0, 2), '2 ');
    }
  });

  test('on the wire: answers in order behind a pending layouts_open, also after stdin closed; headers match the schema', { timeout: 120_000 }, async () => {
    const frame = (header: Record<string, unknown>) => {
      const json = Buffer.from(JSON.stringify(header), 'utf8');
      const len = Buffer.alloc(4);
      len.writeUInt32LE(json.length);
      return Buffer.concat([len, json]);
    };
    const requests = [
      { kind: 'layouts_open', id: 1, file: path.join(big, 'layouts.h5') },
      { kind: 'open', id: 2, case: 'iea37-cs1-16' },
      { kind: 'layouts_rows', id: 3, handle: 1, start: 2790 },
      { kind: 'layouts_rows', id: 4, handle: 7, start: 0 },
      { kind: 'layouts_rows', id: 5, handle: 1, start: 2801 },
      { kind: 'layouts_open', id: 6, file: path.join(dir, 'none.h5') },
      { kind: 'layouts_definitions', id: 7, handle: 1, offset: 0 },
      { kind: 'layouts_close', id: 8, handle: 1 },
      { kind: 'layouts_rows', id: 9, handle: 1, start: 0 },
    ];
    const p = spawn(process.execPath, [CLI, 'serve', '--stdio'], { cwd: REPO });
    const out: Buffer[] = [];
    p.stdout.on('data', (c: Buffer) => out.push(c));
    p.stdin.end(Buffer.concat(requests.map(frame))); // stdin ends while the first request is still reading the file
    const code = await new Promise<number | null>((resolve) => p.on('close', resolve));
    assert.equal(code, 0);
    const all = Buffer.concat(out);
    const replies: { header: Record<string, any>; arrays: Record<string, number> }[] = [];
    for (let at = 0; at < all.length; ) {
      const n = all.readUInt32LE(at);
      const header = JSON.parse(all.subarray(at + 4, at + 4 + n).toString('utf8')) as Record<string, any>;
      at += 4 + n;
      const arrays: Record<string, number> = {};
      for (const e of (header.arrays ?? []) as { name: string; bytes: number }[]) {
        arrays[e.name] = e.bytes / 8;
        at += e.bytes;
      }
      replies.push({ header, arrays });
    }
    assert.deepEqual(
      replies.map((r) => r.header.id),
      [1, 2, 3, 4, 5, 6, 7, 8, 9],
    );
    assert.deepEqual(
      replies.map((r) => r.header.ok),
      [true, true, true, false, false, false, true, true, false],
    );
    assert.deepEqual([replies[0].header.rows, replies[0].header.max_turbines], [2800, 6]);
    assert.deepEqual(
      [replies[2].header.start, replies[2].header.count, replies[2].arrays.layout, replies[2].header.text.task_id.length],
      [2790, 10, 10 * 6 * 2, 10],
    );
    assert.equal(replies[3].header.error, 'layouts_rows.handle: no open layouts file 7');
    assert.equal(replies[4].header.error, "layouts_rows.start: 2801 is past the file's 2800 rows");
    assert.match(replies[5].header.error, /none\.h5/);
    assert.equal(replies[5].header.exit_code, 2);
    assert.ok(replies[6].header.total_chars > 0 && typeof replies[6].header.text === 'string');
    assert.equal(replies[8].header.error, 'layouts_rows.handle: no open layouts file 1');
    if (spawnSync(PYTHON, ['-c', 'import jsonschema']).status !== 0) return;
    const check = `
import json, sys, jsonschema
v = jsonschema.Draft202012Validator(json.load(open(sys.argv[1])))
print(json.dumps([h for h in json.load(sys.stdin) if not v.is_valid(h)]))
`;
    const r = spawnSync(PYTHON, ['-c', check, path.join(REPO, 'schemas', 'serve.v1.json')], {
      input: JSON.stringify([...requests, ...replies.map((x) => x.header)]),
      encoding: 'utf8',
    });
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), [], 'headers outside the schema');
  });
});
