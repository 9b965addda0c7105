/**
 * `farm.aep_batch(X, Y)` (python/wflo/_batch.py, the session's `aep_batch` request): k layouts in
 * one request give, row by row, the single `aep` / `aep_and_gradient` calls' AEP, per-turbine
 * energy and gradient bit for bit (cs1-16, random layouts; a mixed farm); one layout as a 1-D
 * array is k = 1; bad shapes and a non-finite coordinate are refused in one line naming the
 * layout and the turbine, and the engine keeps serving.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pythonMissing, runPython } from './pythonKit.js';

const missing = pythonMissing();

test('Python: aep_batch of k layouts equals k single calls bit for bit (AEP, per turbine, gradient)', { skip: missing }, () => {
  const code = `
import json, numpy as np, wflo
out = {}
with wflo.Engine() as engine:
    for case in ("iea37-cs1-16", "examples/mixed-farm.yaml"):
        farm = engine.farm(case)
        x0, y0 = farm.baseline
        rng = np.random.default_rng(7)
        k = 25
        X = x0 + rng.uniform(-80, 80, (k, farm.n)); Y = y0 + rng.uniform(-80, 80, (k, farm.n))
        b = farm.aep_batch(X, Y)
        bg = farm.aep_batch(X, Y, gradient=True)
        singles = [farm.aep_and_gradient(X[j], Y[j]) for j in range(k)]
        plain = [farm.aep(X[j], Y[j]) for j in range(k)]
        out[case] = dict(
            shapes=[list(b.aep_mwh.shape), list(b.per_turbine_mwh.shape), list(bg.grad_x.shape), list(bg.grad_y.shape)],
            no_grad=b.grad_x is None and b.grad_y is None,
            aep=all(b.aep_mwh[j] == plain[j].aep_mwh and bg.aep_mwh[j] == singles[j].aep_mwh for j in range(k)),
            per_turbine=all(np.array_equal(b.per_turbine_mwh[j], plain[j].per_turbine_mwh) and np.array_equal(bg.per_turbine_mwh[j], singles[j].per_turbine_mwh) for j in range(k)),
            grad=all(np.array_equal(bg.grad_x[j], singles[j].grad_x) and np.array_equal(bg.grad_y[j], singles[j].grad_y) for j in range(k)),
            distinct=len(set(b.aep_mwh.tolist())) == k,
            one=farm.aep_batch(x0, y0).aep_mwh.tolist() == [farm.aep(x0, y0).aep_mwh])
print(json.dumps(out))
`;
  const r = runPython(['-c', code]);
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout) as Record<
    string,
    { shapes: number[][]; no_grad: boolean; aep: boolean; per_turbine: boolean; grad: boolean; distinct: boolean; one: boolean }
  >;
  const n: Record<string, number> = { 'iea37-cs1-16': 16 };
  for (const [c, o] of Object.entries(out)) {
    if (n[c]) assert.deepEqual(o.shapes, [[25], [25, 16], [25, 16], [25, 16]], c);
    assert.deepEqual([o.no_grad, o.aep, o.per_turbine, o.grad, o.distinct, o.one], [true, true, true, true, true, true], c);
  }
});

test('Python: aep_batch refuses bad shapes and non-finite values in one line, and the engine keeps serving', { skip: missing }, () => {
  const code = `
import json, numpy as np, wflo
out = []
with wflo.Engine() as engine:
    farm = engine.farm("iea37-cs1-16")
    x0, y0 = farm.baseline
    X = np.tile(x0, (3, 1)); Y = np.tile(y0, (3, 1))
    bad = X.copy(); bad[1, 3] = np.nan
    for args in ((X[:, :15], Y[:, :15]), (X, Y[:2]), (np.zeros((0, 16)), np.zeros((0, 16))), (bad, Y)):
        try:
            farm.aep_batch(*args)
            out.append(None)
        except ValueError as err:
            out.append([str(err), err.exit_code])
    # The request itself, as another client would frame it: 20 values are not k layouts of 16.
    try:
        engine._request({"kind": "aep_batch", "handle": farm.handle}, {"x": np.zeros(20), "y": np.zeros(20)})
    except wflo.WfloError as err:
        out.append([str(err), err.exit_code])
    out.append(farm.aep_batch(X, Y).aep_mwh.tolist() == [farm.aep(x0, y0).aep_mwh] * 3)
print(json.dumps(out))
`;
  const r = runPython(['-c', code]);
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), [
    ['x: expected shape (k, 16) (k layouts of 16 turbines), got shape (3, 15)', 2],
    ['x, y: shapes (3, 16) and (2, 16) differ', 2],
    ['x: expected shape (k, 16) (k layouts of 16 turbines), got shape (0, 16)', 2],
    ['aep_batch.x[1, 3]: expected a finite number, got NaN', 2],
    ["aep_batch.x: 20 values, expected k layouts of the farm's 16 turbines (a multiple of 16, at least one layout)", 2],
    true,
  ]);
});

test('Python: the aep_batch and optimize-with-progress headers, progress frames included, match schemas/serve.v1.json (Python jsonschema)', {
  skip: missing || (runPython(['-c', 'import jsonschema']).status !== 0 && 'python3-jsonschema is not installed'),
}, () => {
  const code = `
import json, numpy as np, jsonschema, wflo
import wflo._engine as e
v = jsonschema.Draft202012Validator(json.load(open("schemas/serve.v1.json")))
seen = []
plain = e.encode_frame
def recording(header, arrays=None):
    h = dict(header)
    if arrays: h["arrays"] = [{"name": k, "bytes": int(np.asarray(a).nbytes)} for k, a in arrays.items()]
    seen.append(h)
    return plain(header, arrays)
e.encode_frame = recording
with wflo.Engine() as engine:
    read = engine._reader.read
    def reading():
        h, a = read()
        seen.append(dict(h))
        return h, a
    engine._reader.read = reading
    f = engine.farm("iea37-cs1-16"); x, y = f.baseline
    f.aep_batch(np.tile(x, (2, 1)), np.tile(y, (2, 1)), gradient=True)
    f.aep_batch(x, y)
    f.optimize("gradient", 2, max_iterations=2, wec=[1.5, 1.0], progress=lambda p: None)
    f.optimize("global", 1, hops=1, max_iterations=2, progress=lambda p: None)
kinds = sorted({h.get("kind") for h in seen})
bad = [h for h in seen if not v.is_valid(h)]
print(json.dumps({"kinds": kinds, "progress": sum(h.get("kind") == "progress" for h in seen), "bad": bad[:3]}))
`;
  const r = runPython(['-c', code]);
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout) as { kinds: string[]; progress: number; bad: unknown[] };
  assert.deepEqual(out.kinds, ['aep_batch', 'open', 'optimize', 'progress']);
  assert.ok(out.progress > 10, `${out.progress} progress frames`);
  assert.deepEqual(out.bad, []);
});
