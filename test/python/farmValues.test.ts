/**
 * Farms from Python values (Engine.farm_from_values, python/wflo/_farm_values.py): a turbine from
 * power and Ct arrays, a Weibull rose of 36 sectors, a probability table, a time series of 2000
 * samples with turbulence per sample (long arrays travel as binary arrays); each document is also
 * written as a case file here and run through `wflo aep FILE --json --gradient`: AEP, per
 * turbine, per direction and gradient equal bit for bit. A bad document raises WfloError with the
 * message the CLI prints for the same document in a file (the file's path and line replaced by the
 * document's source name). windIO plant files and a case file without a layout open by path.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { doublesOfHex, pythonMissing, runPython } from './pythonKit.js';
import { runWflo, tempDir } from '../helpers.js';

const missing = pythonMissing();

/** Python: build each document, evaluate its layout; print the plain document and hex results. */
const BUILD = `
import json, struct, sys
import numpy as np
import wflo
h = lambda a: struct.pack(f"<{len(a)}d", *a).hex()
rng = np.random.default_rng(7)
ws = np.arange(3.0, 26.0)
power = np.clip(2000.0 * ((ws - 3.0) / 9.0) ** 3, 0, 2000)           # kW
ct = np.where(ws < 12, 0.8, 0.8 * (12 / ws) ** 2)
t = wflo.turbine(80.0, 70.0, ws, power, ct, name="py-2mw")
dirs = np.arange(0.0, 360.0, 5.0)
freq = 1 + 0.5 * np.cos(np.radians(dirs - 270)); freq /= freq.sum()
weibull = wflo.wind_rose(dirs, np.arange(3.0, 26.0), sector_probability=freq, weibull_a=9 + np.sin(np.radians(dirs)), weibull_k=np.full(72, 2.1))
table = wflo.wind_rose(dirs, np.array([6.0, 9.0, 12.0]), probability=(lambda p: p / p.sum())(rng.random((72, 3)) + 0.1), turbulence_intensity=0.09)
n = 2000
series = wflo.time_series(rng.uniform(0, 360, n).round(1), rng.weibull(2.0, n) * 9, turbulence_intensity=rng.uniform(0.05, 0.15, n), weight=rng.integers(1, 4, n).astype(float))
gx, gy = np.meshgrid(np.arange(4) * 560.0, np.arange(3) * 480.0)
layout = (gx.ravel() + rng.normal(0, 20, 12), gy.ravel() + rng.normal(0, 20, 12))
docs = {
  "weibull": wflo.case_document(t, weibull, layout=layout, wake_model="bastankhah2014", name="weibull"),
  "table": wflo.case_document(t, table, layout=layout, wake_model="niayifar2016", superposition="linear", name="table"),
  "series": wflo.case_document(t, series, layout=layout, wake_model="turbopark2022", boundary={"polygon": [[-300, -300], [2000, -300], [2000, 1300], [-300, 1300]]}, name="series"),
  "builtin": wflo.case_document("v80", "iea37-cs3", layout=layout, wake_model="jensen", wake_params={"k": 0.05}, name="builtin"),
}
out = {}
with wflo.Engine() as engine:
    for key, doc in docs.items():
        packed, arrays = wflo._farm_values.pack_document(doc)
        farm = engine.farm_from_values(doc)
        g = farm.aep_and_gradient(*farm.baseline)
        d = farm.aep_details(*farm.baseline)
        plain = json.loads(json.dumps(wflo._farm_values.pack_document({"x": doc})[0]["x"], default=float))
        def full(v):
            if isinstance(v, dict): return {k: full(e) for k, e in v.items()}
            if isinstance(v, (list, tuple)): return [full(e) for e in v]
            if isinstance(v, np.ndarray): return v.tolist()
            if isinstance(v, np.generic): return v.item()
            return v
        out[key] = dict(document=full(doc), binary=sorted(arrays), n=farm.n, aep=h([g.aep_mwh]), per_turbine=h(g.per_turbine_mwh),
                        gx=h(g.grad_x), gy=h(g.grad_y), per_direction=h(d.per_direction_mwh), directions=h(d.directions_deg))
print(json.dumps(out))
`;

test('Python: farms from values (curves, Weibull sectors, a table, a time series) equal `wflo aep` of the same document in a file, bit for bit', {
  skip: missing,
}, () => {
  const r = runPython(['-c', BUILD]);
  assert.equal(r.status, 0, r.stderr);
  const got = JSON.parse(r.stdout) as Record<string, Record<string, unknown>>;
  const dir = tempDir('wflo-py-values-');
  assert.ok((got.series.binary as string[]).length > 0 && (got.weibull.binary as string[]).length > 0, 'long arrays went as binary arrays');
  for (const [key, py] of Object.entries(got)) {
    const file = path.join(dir, `${key}.yaml`);
    fs.writeFileSync(file, JSON.stringify(py.document)); // JSON is YAML
    const cli = runWflo(['aep', file, '--json', '--gradient']);
    assert.equal(cli.status, 0, cli.stderr);
    const j = JSON.parse(cli.stdout) as {
      aep_mwh: number;
      per_turbine_mwh: number[];
      per_direction_mwh: number[];
      directions_deg: number[];
      grad_x_mwh_per_m: number[];
      grad_y_mwh_per_m: number[];
      n_turbines: number;
    };
    assert.equal(py.n, j.n_turbines, key);
    assert.ok(Object.is(doublesOfHex(py.aep as string)[0], j.aep_mwh), `${key}: ${doublesOfHex(py.aep as string)[0]} vs CLI ${j.aep_mwh}`);
    assert.deepEqual(Array.from(doublesOfHex(py.per_turbine as string)), j.per_turbine_mwh, key);
    assert.deepEqual(Array.from(doublesOfHex(py.gx as string)), j.grad_x_mwh_per_m, key);
    assert.deepEqual(Array.from(doublesOfHex(py.gy as string)), j.grad_y_mwh_per_m, key);
    assert.deepEqual(Array.from(doublesOfHex(py.per_direction as string)), j.per_direction_mwh, key);
    assert.deepEqual(Array.from(doublesOfHex(py.directions as string)), j.directions_deg, key);
  }
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Bad documents: each raises WfloError; printed as exit code, message, and the plain document. */
const BAD = `
import json, numpy as np, wflo
t = wflo.turbine(80.0, 70.0, [4, 8, 12, 25], [100, 1000, 2000, 2000], [0.8, 0.8, 0.5, 0.1])
rose = wflo.wind_rose([0, 90, 180, 270], [8.0, 10.0], np.full((4, 2), 0.125))
dirs = np.arange(0.0, 360.0, 5.0)
bad = [
  wflo.case_document(t, rose, layout=([0, 500], [0, 0]), wake_modle="jensen"),
  wflo.case_document(t, rose, layout=([0, 500], [0, 0]), wake_model="bastankah2014"),
  wflo.case_document(t, wflo.wind_rose(dirs, [8.0], sector_probability=np.full(72, 1 / 72), weibull_a=np.full(72, 9.0), weibull_k=-np.ones(72)), layout=([0, 500], [0, 0])),
  wflo.case_document(wflo.turbine(80.0, 30.0, [4, 8], [100, 2000], [0.8, 0.8]), rose, layout=([0, 500], [0, 0])),
  wflo.case_document(t, rose, layout=([0, 500], [0, 0]), wake_model="jensen", wake_params={"k": 5}),
  wflo.case_document(t, rose, n_turbines=40, boundary={"circle": {"radius": 300}}),
]
with wflo.Engine() as engine:
    for doc in bad:
        try:
            engine.farm_from_values(doc)
            print(json.dumps({"ok": True}))
        except wflo.WfloError as err:
            plain = json.loads(json.dumps(doc, default=lambda a: a.tolist()))
            print(json.dumps({"exit_code": err.exit_code, "message": str(err), "document": plain}))
    print(json.dumps({"aep": engine.farm_from_values(wflo.case_document(t, rose, layout=([0, 500], [0, 0]))).aep([0, 500], [0, 0]).aep_mwh > 0}))
`;

test("Python: a bad farm document raises WfloError with the CLI's message for the same document in a file", { skip: missing }, () => {
  const r = runPython(['-c', BAD]);
  assert.equal(r.status, 0, r.stderr);
  const lines = r.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { ok?: boolean; exit_code: number; message: string; document: unknown; aep?: boolean });
  assert.equal(lines.pop()!.aep, true, 'the engine still serves');
  const dir = tempDir('wflo-py-bad-');
  assert.equal(lines.length, 6);
  for (const [i, py] of lines.entries()) {
    assert.equal(py.ok, undefined, `document ${i} was refused`);
    const file = path.join(dir, `bad${i}.yaml`);
    fs.writeFileSync(file, JSON.stringify(py.document));
    const cli = runWflo(['aep', file]);
    assert.equal(cli.status, 2, cli.stderr);
    assert.equal(py.exit_code, 2);
    // The CLI names the file (and a line); Python names the document's source, <python>.
    const expected = cli.stderr
      .trim()
      .replace(/^wflo: /, '')
      .split(file)
      .join('<python>')
      .replace(/^<python>:\d+:/, '<python>:');
    assert.equal(py.message, expected, `document ${i}`);
  }
  fs.rmSync(dir, { recursive: true, force: true });
});

test('Python: a windIO plant file and a case file without a layout open by path (windIO equal to `wflo aep`)', { skip: missing }, () => {
  const dir = tempDir('wflo-py-nolayout-');
  const noLayout = path.join(dir, 'site.yaml');
  fs.writeFileSync(noLayout, 'turbine: iea37-3.35mw\nwind: iea37-cs1\nboundary: {circle: {radius: 1300}}\nn_turbines: 10\nname: ten\n');
  const windio = 'test/data/windio/plant/wind_energy_system/IEA37_case_study_3_wind_energy_system.yaml';
  const code = `
import json, struct, sys, wflo
with wflo.Engine() as engine:
    w = engine.farm(sys.argv[1])
    s = engine.farm(sys.argv[2])
    print(json.dumps({"aep": struct.pack("<d", w.aep(*w.baseline).aep_mwh).hex(), "n": w.n, "site_n": s.n, "baseline": s.baseline is None, "name": s.name}))
`;
  const r = runPython(['-c', code, windio, noLayout]);
  assert.equal(r.status, 0, r.stderr);
  const py = JSON.parse(r.stdout) as { aep: string; n: number; site_n: number; baseline: boolean; name: string };
  const j = JSON.parse(runWflo(['aep', windio, '--json']).stdout) as { aep_mwh: number; n_turbines: number };
  assert.equal(py.n, j.n_turbines);
  assert.ok(Object.is(doublesOfHex(py.aep)[0], j.aep_mwh));
  assert.deepEqual([py.site_n, py.baseline, py.name], [10, true, 'ten']);
  fs.rmSync(dir, { recursive: true, force: true });
});

test('Python: a document nested too deep or naming an array not sent is refused in one line, and the engine keeps serving', { skip: missing }, () => {
  const r = runPython([
    '-c',
    `
import wflo
with wflo.Engine() as e:
    deep = 0
    for _ in range(200): deep = [deep]
    for doc in ({"turbine": "v80", "wind": {"x": deep}}, {"turbine": "v80", "wind": "iea37-cs1", "layout": {"x": {"$array": "z"}, "y": [0]}}):
        try:
            e.farm_from_values(doc)
        except wflo.WfloError as err:
            print(err.exit_code, err)
    print(e.farm("iea37-cs1-16").n)
`,
  ]);
  assert.equal(r.status, 0, r.stderr);
  const lines = r.stdout.trim().split('\n');
  assert.equal(lines.length, 3, r.stdout);
  assert.match(lines[0], /^2 open_document\.document\.wind\.x(\[0\])+: nested more than 64 levels deep$/);
  assert.equal(lines[1], "2 open_document.document.layout.x.$array: no array 'z' in the request");
  assert.equal(lines[2], '16');
});
