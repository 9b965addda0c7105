/**
 * `Farm.cost` and `Farm.cables` from Python (python/wflo/_economics.py, the engine session's `cost`
 * and `cables` requests): the figures of `wflo cost --json` and `wflo cables --json` bit for bit,
 * for the case's layout (examples/offshore-cs4: 81 turbines, a bathymetry grid, three cable types)
 * and for another layout given from Python; a farm without economics and a wrong layout length
 * are a WfloError with the CLI's line and exit code 2, and the engine goes on answering.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { doublesOfHex, pythonMissing, runPython } from './pythonKit.js';
import { runWflo, tempDir } from '../helpers.js';

const missing = pythonMissing();
const CS4 = 'examples/offshore-cs4/cs4-offshore.yaml';

const CODE = `
import json, struct, sys, numpy as np, wflo
h = lambda a: struct.pack(f"<{len(a)}d", *a).hex()
case, moved = sys.argv[1], sys.argv[2]
out = {}
with wflo.Engine() as engine:
    f = engine.farm(case)
    x, y = f.baseline
    mx, my = x.copy(), y.copy()
    mx[0] += 150.0; my[0] -= 90.0          # one turbine moved
    with open(moved, "w") as fh:
        fh.write("layout:\\n  x: [" + ", ".join(repr(float(v)) for v in mx) + "]\\n  y: [" + ", ".join(repr(float(v)) for v in my) + "]\\n")
    for name, (lx, ly) in (("case", (x, y)), ("moved", (mx, my))):
        c = f.cost(lx, ly)
        k = f.cables(lx, ly)
        out[name] = dict(cost=h([c.lcoe_per_mwh, c.npv, c.irr, c.aep_mwh, c.cable_length_m, c.cable_cost]), breakdown={a: h([b]) for a, b in c.breakdown.items()},
                         model=c.cost_model, currency=c.currency, cables=h([k.cable_length_m, k.cable_cost]), each=h(k.cable_length_each_m),
                         to=k.cable_to.tolist(), type=k.cable_type.tolist(), load=k.cable_load.tolist(), by_type=k.by_type, subs=k.substations)
    errors = []
    g = engine.farm("iea37-cs1-16")
    for call in (lambda: g.cost(*g.baseline), lambda: f.cables(x[:5], y[:5])):
        try:
            call()
        except wflo.WfloError as err:
            errors.append([err.exit_code, str(err), isinstance(err, Exception)])
    out["errors"] = errors
    out["after"] = h([f.cost(x, y).lcoe_per_mwh])
print(json.dumps(out))
`;

const one = (hex: string) => Array.from(doublesOfHex(hex));

test('Python Farm.cost / Farm.cables equal `wflo cost --json` / `wflo cables --json` bit for bit (cs4-offshore: its layout and one turbine moved); bad input is a WfloError with exit code 2', {
  skip: missing,
}, () => {
  const moved = path.join(tempDir('wflo-py-cost-'), 'moved.yaml');
  const r = runPython(['-c', CODE, CS4, moved]);
  assert.equal(r.status, 0, r.stderr);
  const got = JSON.parse(r.stdout) as Record<string, any>;
  assert.ok(fs.existsSync(moved));
  for (const [name, extra] of [
    ['case', []],
    ['moved', ['--layout', moved]],
  ] as const) {
    const cost = JSON.parse(runWflo(['cost', CS4, ...extra, '--json']).stdout);
    const net = JSON.parse(runWflo(['cables', CS4, ...extra, '--json']).stdout);
    const g = got[name];
    assert.deepEqual(one(g.cost), [cost.lcoe_per_mwh, cost.npv, cost.irr, cost.aep_mwh, cost.cable_length_m, cost.cable_cost], `${name}: cost figures`);
    assert.deepEqual(
      Object.fromEntries(Object.entries(g.breakdown as Record<string, string>).map(([k, v]) => [k, one(v)[0]])),
      cost.cost_breakdown,
      `${name}: breakdown`,
    );
    assert.equal(g.model, cost.cost_model);
    assert.equal(g.currency, 'EUR');
    assert.deepEqual(one(g.cables), [net.cable_length_m, net.cable_cost], `${name}: network totals`);
    assert.deepEqual(one(g.each), net.cable_length_each_m, `${name}: each cable's length`);
    assert.deepEqual(g.to, net.cable_to);
    assert.deepEqual(g.type, net.cable_type);
    assert.deepEqual(g.load, net.cable_load);
    assert.deepEqual(g.by_type, net.by_type);
    assert.deepEqual(g.subs, net.substations);
  }
  assert.notDeepEqual(got.case.cost, got.moved.cost, 'moving a turbine changes the figures');
  assert.deepEqual(got.errors, [
    [2, 'iea37-cs1-16: economics: the case has none (substations, cables and cost inputs are needed: docs/cost.md)', true],
    [2, 'x: expected 81 values (one per turbine), got shape (5,)', true],
  ]);
  assert.equal(got.after, got.case.cost.slice(0, 16), 'the engine answers after the errors');
});
