/**
 * Per-turbine × condition results from Python (`Farm.flow_conditions`, python/wflo/_conditions.py,
 * src/physics/conditionFlows.ts): an xarray.Dataset whose Σ Power · P · hours · 1e-6 equals the
 * engine's AEP (`wflo aep --json`'s) to 1e-12 relative on a rose (cs4-offshore: 81 turbines, 20 × 20
 * bins), a time series (dims wt × time), a per-bin TI rose, a mixed farm, a farm with neighbours
 * and Zong 2020's weighted sum;
 * coordinates and units as documented (docs/python.md); the effective speed and Ct at PyWake's
 * check condition (270°, 8 m/s) equal to PyWake's to 1e-9 on reference cases of test/data/reference;
 * a blockage model refused in one line.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { pythonMissing, runPython } from './pythonKit.js';
import { PYWAKE_REFERENCE, runWflo } from '../helpers.js';
import { readYamlFile } from '../../src/io/yamlFile.js';
import { caseFromReferenceDocument } from '../../src/io/referenceCase.js';

const missing = pythonMissing() || (runPython(['-c', 'import xarray']).status !== 0 ? 'python3 without xarray (apt-get install python3-xarray)' : false);

const SUMMARY = `
import json, sys, numpy as np, wflo
out = {}
with wflo.Engine() as engine:
    for case in sys.argv[1:]:
        f = engine.farm(case)
        ds = f.flow_conditions(*f.baseline)
        s = float((ds.Power * ds.P).sum()) * ds.attrs["hours_per_year"] * 1e-6
        out[case] = dict(sum=s, aep=ds.attrs["aep_mwh"], dims={k: int(v) for k, v in ds.sizes.items()},
                         vars={k: [list(ds[k].dims), ds[k].attrs.get("units")] for k in ds.data_vars},
                         coords={k: [list(ds[k].dims), ds[k].attrs.get("units")] for k in ds.coords},
                         p_sum=float(ds.P.sum()), x=ds.x.values.tolist(),
                         ws_min=float(ds.WS_eff.min()), ws_max_over_free=float((ds.WS_eff - ds.ws).max()),
                         power_w_first=float(ds.Power.values.reshape(-1)[0]))
print(json.dumps(out))
`;

const rel = (a: number, b: number) => Math.abs(a - b) / Math.abs(b);

test('Python flow_conditions: Σ Power · P · 8760 h equals the AEP of `wflo aep` to 1e-12 on a rose, a time series, per-bin TI, a mixed farm, neighbours, the weighted sum', {
  skip: missing,
}, () => {
  const ref = (f: string) => path.join('test', 'data', 'reference', f);
  const cases = [
    'examples/offshore-cs4/cs4-offshore.yaml',
    'iea37-cs1-16',
    ref('timeseries-niayifar2016-grid5x5.yaml'),
    ref('tibins-niayifar2016-random16.yaml'),
    ref('mixed-niayifar2016.yaml'),
    ref('neighbours-bastankhah2014.yaml'),
    ref('site-weibull-bastankhah2014.yaml'),
    ref('zong2020-grid5x5.yaml'),
  ];
  const r = runPython(['-c', SUMMARY, ...cases]);
  assert.equal(r.status, 0, r.stderr);
  const got = JSON.parse(r.stdout) as Record<
    string,
    {
      sum: number;
      aep: number;
      dims: Record<string, number>;
      vars: Record<string, [string[], string]>;
      coords: Record<string, [string[], string]>;
      p_sum: number;
      x: number[];
      ws_min: number;
      ws_max_over_free: number;
    }
  >;
  for (const c of cases) {
    const cli = JSON.parse(runWflo(['aep', c, '--json']).stdout) as { aep_mwh: number; n_turbines: number };
    const g = got[c];
    assert.equal(g.aep, cli.aep_mwh, `${c}: the response's AEP is the CLI's bit for bit`);
    assert.ok(rel(g.sum, cli.aep_mwh) <= 1e-12, `${c}: Σ Power·P·hours = ${g.sum} vs AEP ${cli.aep_mwh} (${rel(g.sum, cli.aep_mwh).toExponential(2)})`);
    assert.equal(g.dims.wt, cli.n_turbines, c);
    assert.ok(g.ws_min >= 0, `${c}: no negative effective speed`);
  }
  const cs4 = got['examples/offshore-cs4/cs4-offshore.yaml'];
  assert.deepEqual(cs4.dims, { wt: 81, wd: 20, ws: 20 });
  assert.deepEqual(cs4.vars.WS_eff, [['wt', 'wd', 'ws'], 'm/s']);
  assert.deepEqual(cs4.vars.Power, [['wt', 'wd', 'ws'], 'W']);
  assert.deepEqual(cs4.vars.TI_eff, [['wt', 'wd', 'ws'], '-']);
  assert.deepEqual(cs4.vars.CT, [['wt', 'wd', 'ws'], '-']);
  assert.deepEqual(cs4.vars.P, [['wd', 'ws'], '-']);
  assert.deepEqual(cs4.coords.wd, [['wd'], 'deg']);
  assert.deepEqual(cs4.coords.x, [['wt'], 'm']);
  assert.ok(Math.abs(cs4.p_sum - 0.9999) <= 1e-9, `the cs4 rose's probabilities as the file lists them (they sum to 0.9999): ${cs4.p_sum}`);
  assert.ok(cs4.ws_max_over_free <= 1e-12, 'wakes only slow the wind (no blockage, no site)');
  const series = got[ref('timeseries-niayifar2016-grid5x5.yaml')];
  assert.deepEqual(series.dims, { wt: 25, time: 300 });
  assert.deepEqual(series.vars.WS_eff, [['wt', 'time'], 'm/s']);
  assert.deepEqual(series.coords.wd, [['time'], 'deg']);
  assert.deepEqual(series.coords.ws, [['time'], 'm/s']);
  // A per-point Weibull site: every turbine has its own probability of a bin.
  assert.deepEqual(got[ref('site-weibull-bastankhah2014.yaml')].vars.P, [['wt', 'wd', 'ws'], '-']);
});

test("Python flow_conditions: WS_eff and CT at PyWake's check condition (270°, 8 m/s) equal PyWake's to 1e-9", { skip: missing }, () => {
  const files = [
    'niayifar2016-grid5x5.yaml',
    'turbopark2022-random16.yaml',
    'jensen1983-grid5x5.yaml',
    'ground-bastankhah2014-grid5x5.yaml',
    'rotor-bastankhah2014-grid-random16.yaml',
    'tibins-niayifar2016-random16.yaml',
    'site-speedup-bastankhah2014.yaml',
    'mixed-niayifar2016.yaml',
    'neighbours-bastankhah2014.yaml',
  ];
  // Not the weighted sum (zong2020-*): its iteration count is shared by every bin solved together, as in PyWake's call over
  // the whole rose (what its AEP is), so a bin of the rose is not PyWake's check condition solved alone (6e-5 apart at turbine 3).
  const code = `
import json, sys, wflo
out = {}
with wflo.Engine() as engine:
    for case in sys.argv[1:]:
        f = engine.farm(case)
        ds = f.flow_conditions(*f.baseline).sel(wd=270.0, ws=8.0)
        out[case] = dict(ws=ds.WS_eff.values.tolist(), ct=ds.CT.values.tolist())
print(json.dumps(out))
`;
  const full = files.map((f) => path.join(PYWAKE_REFERENCE, f));
  const r = runPython(['-c', code, ...full]);
  assert.equal(r.status, 0, r.stderr);
  const got = JSON.parse(r.stdout) as Record<string, { ws: number[]; ct: number[] }>;
  for (const file of full) {
    const cc = caseFromReferenceDocument(readYamlFile(file), file).expected!.checkCondition!;
    const g = got[file];
    // PyWake's check condition lists the neighbours after the own turbines; the dataset holds the own ones.
    const own = caseFromReferenceDocument(readYamlFile(file), file).layout!.x.length;
    assert.equal(g.ws.length, own, `${file}: own turbines only`);
    cc.wsEff.slice(0, own).forEach((v, i) => assert.ok(rel(g.ws[i], v) <= 1e-9, `${path.basename(file)}: WS_eff[${i}] ${g.ws[i]} vs PyWake ${v}`));
    cc.ct
      .slice(0, own)
      .forEach((v, i) => assert.ok(Math.abs(g.ct[i] - v) <= 1e-9 * Math.max(v, 1e-3), `${path.basename(file)}: CT[${i}] ${g.ct[i]} vs PyWake ${v}`));
  }
});

test('Python flow_conditions: a blockage model is refused in one line (exit code 2), a wrong layout length too', { skip: missing }, () => {
  const code = `
import sys, wflo
with wflo.Engine() as engine:
    f = engine.farm(sys.argv[1])
    for args in (f.baseline, (f.baseline[0][:3], f.baseline[1][:3])):
        try:
            f.flow_conditions(*args)
        except wflo.WfloError as err:
            print(err.exit_code, err)
`;
  const r = runPython(['-c', code, path.join(PYWAKE_REFERENCE, 'blockage-jensen1983-random16.yaml')]);
  assert.equal(r.status, 0, r.stderr);
  const lines = r.stdout.trim().split('\n');
  assert.equal(lines.length, 2, r.stdout);
  assert.match(
    lines[0],
    /^2 blockage 'selfsimilarity2020': blockage is solved by its own engine: the flow of each condition covers the waked solve and the weighted sum/,
  );
  assert.match(lines[1], /^2 x: expected 16 values \(one per turbine\), got shape \(3,\)$/);
});
