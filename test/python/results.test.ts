/**
 * Results beyond the AEP from Python (python/wflo/_results.py): energy per direction equal to
 * `wflo aep --json`'s bit for bit (also under a direction treatment, per listed bin); a flow map
 * equal to the field `wflo plot --flow` draws (views/flowField.ts, in this process) and free-stream
 * upstream; constraint values and their sparse Jacobian checked against NumPy's own distances on
 * cs1-16's circle and against central differences on a polygon with an exclusion zone;
 * feasibility naming the worst turbine as the optimizers do.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { doublesOfHex, pythonMissing, runPython } from './pythonKit.js';
import { runWflo, tempDir } from '../helpers.js';
import { resolveAepRequest } from '../../src/io/aepInput.js';
import { flowField } from '../../src/views/flowField.js';

const missing = pythonMissing();

test('Python: energy per direction equals `wflo aep --json`, also per listed bin under directions: spread', { skip: missing }, () => {
  const dir = tempDir('wflo-py-details-');
  const spread = path.join(dir, 'spread.yaml');
  fs.writeFileSync(spread, 'base: iea37-cs1-16\ndirections: {spread: 5}\n');
  const code = `
import json, struct, sys, wflo
h = lambda a: struct.pack(f"<{len(a)}d", *a).hex()
out = {}
with wflo.Engine() as engine:
    for case in sys.argv[1:]:
        f = engine.farm(case)
        d = f.aep_details(*f.baseline)
        out[case] = dict(aep=h([d.aep_mwh]), bins=None if d.aep_bins_mwh is None else h([d.aep_bins_mwh]), pd=h(d.per_direction_mwh), pt=h(d.per_turbine_mwh), dirs=h(d.directions_deg))
print(json.dumps(out))
`;
  const cases = ['iea37-cs1-16', 'iea37-cs3', spread];
  const r = runPython(['-c', code, ...cases]);
  assert.equal(r.status, 0, r.stderr);
  const got = JSON.parse(r.stdout) as Record<string, { aep: string; bins: string | null; pd: string; pt: string; dirs: string }>;
  for (const c of cases) {
    const j = JSON.parse(runWflo(['aep', c, '--json']).stdout) as {
      aep_mwh: number;
      aep_bins_mwh?: number;
      per_direction_mwh: number[];
      per_turbine_mwh: number[];
      directions_deg: number[];
    };
    const py = got[c];
    assert.ok(Object.is(doublesOfHex(py.aep)[0], j.aep_mwh), c);
    assert.deepEqual(Array.from(doublesOfHex(py.pd)), j.per_direction_mwh, c);
    assert.deepEqual(Array.from(doublesOfHex(py.pt)), j.per_turbine_mwh, c);
    assert.deepEqual(Array.from(doublesOfHex(py.dirs)), j.directions_deg, c);
    if (j.aep_bins_mwh === undefined) assert.equal(py.bins, null, c);
    else assert.ok(Object.is(doublesOfHex(py.bins!)[0], j.aep_bins_mwh), c);
  }
  assert.equal(doublesOfHex(got[spread].dirs).length, 16, 'the listed bins, not the 80 directions evaluated');
  fs.rmSync(dir, { recursive: true, force: true });
});

test('Python: a flow map is the field `wflo plot --flow` draws, free-stream upstream and slower in the wakes', { skip: missing }, () => {
  const code = `
import json, struct, wflo
h = lambda a: struct.pack(f"<{len(a)}d", *a).hex()
out = {}
with wflo.Engine() as engine:
    for case in ("iea37-cs1-16", "examples/mixed-farm.yaml"):
        f = engine.farm(case)
        x, y = f.baseline
        m = f.flow_map(x, y, 250.0, x_range=(-2000.0, 2100.0), y_range=(-1800.0, 1700.0), nx=41, ny=23)
        out[case] = dict(shape=list(m.speed_ms.shape), speed=h(m.speed_ms.ravel()), x=h(m.x_m), y=h(m.y_m), u=m.free_stream_ms, x0=h(x), y0=h(y))
print(json.dumps(out))
`;
  const r = runPython(['-c', code]);
  assert.equal(r.status, 0, r.stderr);
  const got = JSON.parse(r.stdout) as Record<string, { shape: number[]; speed: string; x: string; y: string; u: number; x0: string; y0: string }>;
  for (const [name, py] of Object.entries(got)) {
    const c = resolveAepRequest({ file: name });
    const f = flowField(c, doublesOfHex(py.x0), doublesOfHex(py.y0), 250, { minX: -2000, maxX: 2100, minY: -1800, maxY: 1700, nx: 41, ny: 23 });
    assert.deepEqual(py.shape, [23, 41]);
    assert.deepEqual(Array.from(doublesOfHex(py.speed)), Array.from(f.speedByCell), name);
    assert.equal(py.u, f.freeStreamSpeed);
    const xs = doublesOfHex(py.x),
      ys = doublesOfHex(py.y);
    assert.equal(xs[0], -2000 + 50); // cell centres: 100 m wide cells from -2000
    assert.ok(ys[0] > ys[22], 'row 0 is the top');
    const speed = doublesOfHex(py.speed);
    // The first column lies west of every turbine (the wind comes from 250°, west-south-west): no wake there.
    for (let iy = 0; iy < 23; iy++) assert.equal(speed[iy * 41], Math.fround(py.u), `${name} row ${iy}`);
    assert.ok(Math.min(...speed) < 0.8 * py.u, `${name}: the wakes slow the wind`);
  }
});

test('Python: constraint values and Jacobian are the boundary distances and pair distances NumPy computes; feasibility names the worst turbine', {
  skip: missing,
}, () => {
  const code = `
import json, numpy as np, wflo
out = {}
with wflo.Engine() as engine:
    f = engine.farm("iea37-cs1-16")
    x0, y0 = f.baseline
    rng = np.random.default_rng(3)
    x, y = x0 + rng.normal(0, 40, 16), y0 + rng.normal(0, 40, 16)
    x[5], y[5] = 1400.0, 0.0          # 100 m outside the 1300 m circle
    x[9], y[9] = x[8] + 30.0, y[8]    # 30 m from turbine 8
    c = f.constraints(x, y)
    J = c.jacobian()
    # NumPy, independently: g = r - R on the circle; pairs i < j: s - |p_i - p_j|.
    r = np.hypot(x, y)
    g_b = r - 1300.0
    i, j = np.triu_indices(16, 1)
    d = np.hypot(x[i] - x[j], y[i] - y[j])
    g_p = f.min_spacing_m - d
    J_ref = np.zeros((16 + len(i), 32))
    J_ref[np.arange(16), np.arange(16)] = x / r
    J_ref[np.arange(16), 16 + np.arange(16)] = y / r
    k = 16 + np.arange(len(i))
    J_ref[k, i] = -(x[i] - x[j]) / d; J_ref[k, j] = (x[i] - x[j]) / d
    J_ref[k, 16 + i] = -(y[i] - y[j]) / d; J_ref[k, 16 + j] = (y[i] - y[j]) / d
    out["circle"] = dict(n_boundary=c.n_boundary, n_pairs=c.n_pairs, nnz=len(c.jac_value),
        values=float(np.max(np.abs(c.values - np.concatenate([g_b, g_p])))), jac=float(np.max(np.abs(J - J_ref))),
        feas=f.feasibility(x, y)._asdict(), feas0=f.feasibility(x0 * 0.99, y0 * 0.99)._asdict())
    # A polygon with an exclusion zone, from values: the Jacobian against central differences of the values.
    g = engine.farm_from_values(turbine="iea37-3.35mw", wind="iea37-cs1", n_turbines=6,
        boundary={"polygon": [[0, 0], [3000, 0], [3000, 2000], [1500, 2600], [0, 2000]],
                  "exclusions": [{"name": "lane", "polygon": [[1200, -10], [1700, -10], [1700, 2700], [1200, 2700]]}]})
    px = np.array([300.0, 900.0, 1350.0, 2000.0, 2600.0, 2950.0]); py = np.array([400.0, 1800.0, 900.0, 2300.0, 500.0, 1700.0])
    cg = g.constraints(px, py, margin_m=1.0)
    h = 1e-4
    fd = np.zeros((len(cg.values), 12))
    for col in range(12):
        dp = np.zeros(12); dp[col] = h
        up = g.constraints(px + dp[:6], py + dp[6:], margin_m=1.0).values
        dn = g.constraints(px - dp[:6], py - dp[6:], margin_m=1.0).values
        fd[:, col] = (up - dn) / (2 * h)
    out["polygon"] = dict(n_boundary=cg.n_boundary, rows=len(cg.values), fd=float(np.max(np.abs(cg.jacobian() - fd))),
        lane=cg.values[6 + 2], inside=cg.values[:6].tolist(), feas=g.feasibility(px, py)._asdict())
print(json.dumps(out))
`;
  const r = runPython(['-c', code]);
  assert.equal(r.status, 0, r.stderr);
  const { circle, polygon } = JSON.parse(r.stdout) as Record<string, Record<string, unknown>>;
  assert.equal(circle.n_boundary, 16);
  assert.equal(circle.n_pairs, 120);
  assert.equal(circle.nnz, 2 * 16 + 4 * 120);
  assert.ok((circle.values as number) < 1e-9, `values differ by ${circle.values} m`);
  assert.ok((circle.jac as number) < 1e-12, `Jacobian differs by ${circle.jac}`);
  const feas = circle.feas as { feasible: boolean; max_violation_m: number; worst: string; worst_turbines: number[] };
  assert.equal(feas.feasible, false);
  assert.ok(Math.abs(feas.max_violation_m - Math.max(100, 260 - 30)) < 1e-6, String(feas.max_violation_m)); // the pair 8–9 is 230 m short of 2 D = 260 m
  assert.deepEqual(feas.worst_turbines, [8, 9]);
  assert.match(feas.worst, /8.*9/);
  assert.equal((circle.feas0 as { feasible: boolean }).feasible, true);
  // 6 inside-the-polygon rows + 6 lane rows + 15 pairs; turbine 2 (x = 1350) is inside the lane (150 m from its edges).
  assert.equal(polygon.n_boundary, 12);
  assert.equal(polygon.rows, 27);
  assert.ok((polygon.fd as number) < 1e-6, `Jacobian vs central differences: ${polygon.fd}`);
  assert.ok(Math.abs((polygon.lane as number) - (1 + 150)) < 1e-9, `lane row of turbine 2: ${polygon.lane}`);
  assert.equal((polygon.feas as { worst_turbines: number[] }).worst_turbines[0], 2);
});

test('Python: every header of the new requests and their responses matches schemas/serve.v1.json (Python jsonschema)', {
  skip: pythonMissing() || (runPython(['-c', 'import jsonschema']).status !== 0 && 'python3-jsonschema is not installed'),
}, () => {
  const code = `
import json, sys, numpy as np, jsonschema, wflo
import wflo._engine as e
schema = json.load(open("schemas/serve.v1.json"))
v = jsonschema.Draft202012Validator(schema)
seen = []
plain = e.encode_frame
def recording(header, arrays=None):
    h = dict(header)
    if arrays: h["arrays"] = [{"name": k, "bytes": int(np.asarray(a).nbytes)} for k, a in arrays.items()]
    seen.append(("request", h))
    return plain(header, arrays)
e.encode_frame = recording
with wflo.Engine() as engine:
    f = engine.farm("iea37-cs1-16"); x, y = f.baseline
    g = engine.farm_from_values(turbine="v80", wind=wflo.wind_rose(np.arange(0.0, 360.0, 4.0), [8.0], np.full((90, 1), 1 / 90)), layout=([0, 500], [0, 0]))
    seen.append(("response", engine.last_header))
    for call in (lambda: f.aep_details(x, y), lambda: f.flow_map(x, y, 270.0, nx=4, ny=3), lambda: f.feasibility(x, y),
                 lambda: f.constraints(x, y, 0.5), lambda: f.optimize("none", 1), lambda: f.optimize("gradient", 2, max_iterations=2, wec=[1.0], x0=x, y0=y, initial="given")):
        call(); seen.append(("response", engine.last_header))
bad = [(k, h) for k, h in seen if not v.is_valid(h)]
print(json.dumps({"checked": len(seen), "bad": bad}))
`;
  const r = runPython(['-c', code]);
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout) as { checked: number; bad: unknown[] };
  assert.equal(out.checked, 15);
  assert.deepEqual(out.bad, []);
});
