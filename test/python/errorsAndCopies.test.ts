/**
 * What a NumPy/SciPy caller expects of the package's values (issue 39, item 7): `wflo.WfloError`
 * is a `ValueError` (an `except ValueError` around a SciPy objective catches a bad layout), and
 * every array a result holds owns its memory — no view into the reply's buffer or into another
 * array — so mutating one result (in place, or resizing it) changes no other result, not the
 * next call's, and not the farm's baseline.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pythonMissing, runPython } from './pythonKit.js';

const missing = pythonMissing();

test('Python: WfloError is a ValueError, caught as one, with the exit code kept', { skip: missing }, () => {
  const code = `
import json, wflo
out = {"subclass": issubclass(wflo.WfloError, ValueError)}
with wflo.Engine() as engine:
    farm = engine.farm("iea37-cs1-16")
    try:
        farm.aep([0.0] * 3, [0.0] * 3)
    except ValueError as err:
        out["caught"] = [type(err).__name__, str(err), err.exit_code]
    try:
        engine.farm("no-such-case-xyz")
    except ValueError as err:
        out["open"] = [type(err).__name__, err.exit_code]
print(json.dumps(out))
`;
  const r = runPython(['-c', code]);
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout) as { subclass: boolean; caught: [string, string, number]; open: [string, number] };
  assert.equal(out.subclass, true);
  assert.deepEqual(out.caught, ['WfloError', 'x: expected 16 values (one per turbine), got shape (3,)', 2]);
  assert.deepEqual(out.open, ['WfloError', 2]);
});

test('Python: every result array owns its memory; mutating one changes no other, nor the next call, nor the baseline', { skip: missing }, () => {
  const code = `
import json, numpy as np, wflo
out = {}
with wflo.Engine() as engine:
    farm = engine.farm("iea37-cs1-16")
    x, y = (a.copy() for a in farm.baseline)
    g = farm.aep_and_gradient(x, y)
    a = farm.aep(x, y)
    d = farm.aep_details(x, y)
    c = farm.constraints(x, y)
    arrays = {"baseline_x": farm.baseline[0], "baseline_y": farm.baseline[1], "per_turbine": g.per_turbine_mwh, "grad_x": g.grad_x,
              "grad_y": g.grad_y, "aep_per_turbine": a.per_turbine_mwh, "per_direction": d.per_direction_mwh, "directions": d.directions_deg,
              "values": c.values, "jac_value": c.jac_value}
    out["owndata"] = {k: bool(v.flags.owndata) for k, v in arrays.items()}
    out["writeable"] = all(v.flags.writeable for v in arrays.values())
    before = {k: v.copy() for k, v in arrays.items()}
    # Mutate every array of the aep_and_gradient result, and grow one in place (a view cannot be resized).
    g.per_turbine_mwh[:] = -1.0
    g.grad_x.resize(40, refcheck=False)
    g.grad_x[:] = 7.0
    out["others_kept"] = all(np.array_equal(v, before[k]) for k, v in arrays.items() if k not in ("per_turbine", "grad_x"))
    g2 = farm.aep_and_gradient(x, y)
    out["next_equal"] = bool(np.array_equal(g2.grad_x, before["grad_x"]) and np.array_equal(g2.per_turbine_mwh, before["per_turbine"]))
    out["baseline_kept"] = bool(np.array_equal(farm.baseline[0], x) and np.array_equal(farm.baseline[1], y))
    out["aep_again"] = farm.aep(*farm.baseline).aep_mwh == a.aep_mwh
print(json.dumps(out))
`;
  const r = runPython(['-c', code]);
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout) as {
    owndata: Record<string, boolean>;
    writeable: boolean;
    others_kept: boolean;
    next_equal: boolean;
    baseline_kept: boolean;
    aep_again: boolean;
  };
  for (const [name, own] of Object.entries(out.owndata)) assert.equal(own, true, `${name} is a view`);
  assert.deepEqual([out.writeable, out.others_kept, out.next_equal, out.baseline_kept, out.aep_again], [true, true, true, true, true]);
});
