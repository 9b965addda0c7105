/**
 * The Python package (python/wflo) run by Debian's python3 through PYTHONPATH against this
 * checkout's `wflo serve --stdio`: AEP, per-turbine AEP and gradient equal `wflo aep --json
 * --gradient`'s bit for bit (the Python side prints float64 as hex), and at a moved layout equal
 * the TS evaluator's (caseEvaluator) in this process; a bad case name raises WfloError with the
 * CLI's message and exit code; the SLSQP example improves cs1-36 and its result recomputes exactly.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { doublesOfHex, pythonMissing, runPython } from './pythonKit.js';
import path from 'node:path';
import { REPO, runWflo } from '../helpers.js';
import { resolveAepRequest } from '../../src/io/aepInput.js';
import { caseEvaluator } from '../../src/optimize/caseEvaluator.js';

const missing = pythonMissing();

/** Python: open each case, evaluate the baseline and a moved layout, print hex float64s as JSON. */
const EVALUATE = `
import json, struct, sys
import numpy as np
import wflo
h = lambda a: struct.pack(f"<{len(a)}d", *a).hex()
out = {}
with wflo.Engine() as engine:
    for case in sys.argv[1:]:
        farm = engine.farm(case)
        x0, y0 = farm.baseline
        g = farm.aep_and_gradient(x0, y0)
        a = farm.aep(x0, y0)
        x1, y1 = x0 + 7.25 * np.cos(np.arange(farm.n)), y0 - 3.5 * np.sin(np.arange(farm.n))
        m = farm.aep_and_gradient(x1, y1)
        out[case] = dict(n=farm.n, aep=h([a.aep_mwh]), per_turbine=h(a.per_turbine_mwh), aep_g=h([g.aep_mwh]),
                         gx=h(g.grad_x), gy=h(g.grad_y), x1=h(x1), y1=h(y1), aep1=h([m.aep_mwh]), gx1=h(m.grad_x), gy1=h(m.grad_y))
print(json.dumps(out))
`;

/** A case name for this process (relative files are the repository's). */
const here = (name: string) => (name.includes('/') ? path.join(REPO, name) : name);

const CASES = ['iea37-cs1-16', 'iea37-cs3', 'examples/mixed-farm.yaml', 'test/data/iea37/cs1-2/iea37-ex36.yaml'];

test("Python: AEP, per-turbine AEP and gradient equal the CLI's and the TS evaluator's bit for bit", { skip: missing }, () => {
  const r = runPython(['-c', EVALUATE, ...CASES]);
  assert.equal(r.status, 0, r.stderr);
  const got = JSON.parse(r.stdout) as Record<string, Record<string, string | number>>;
  for (const name of CASES) {
    const py = got[name];
    const cli = runWflo(['aep', name, '--json', '--gradient']);
    assert.equal(cli.status, 0, cli.stderr);
    const j = JSON.parse(cli.stdout) as {
      aep_mwh: number;
      per_turbine_mwh: number[];
      grad_x_mwh_per_m: number[];
      grad_y_mwh_per_m: number[];
      n_turbines: number;
    };
    assert.equal(py.n, j.n_turbines, name);
    assert.ok(Object.is(doublesOfHex(py.aep as string)[0], j.aep_mwh), `${name}: aep ${doublesOfHex(py.aep as string)[0]} vs CLI ${j.aep_mwh}`);
    assert.ok(Object.is(doublesOfHex(py.aep_g as string)[0], j.aep_mwh), name);
    assert.deepEqual(Array.from(doublesOfHex(py.per_turbine as string)), j.per_turbine_mwh, name);
    assert.deepEqual(Array.from(doublesOfHex(py.gx as string)), j.grad_x_mwh_per_m, name);
    assert.deepEqual(Array.from(doublesOfHex(py.gy as string)), j.grad_y_mwh_per_m, name);
    // A layout the CLI has no file for: the evaluator in this process, on the exact coordinates Python sent.
    const c = resolveAepRequest({ file: here(name) });
    const ts = caseEvaluator(c).aepWithGradient(doublesOfHex(py.x1 as string), doublesOfHex(py.y1 as string));
    assert.notEqual(ts.aepMwh, j.aep_mwh, `${name}: the moved layout is another layout`);
    assert.ok(Object.is(doublesOfHex(py.aep1 as string)[0], ts.aepMwh), name);
    assert.deepEqual(doublesOfHex(py.gx1 as string), ts.gradX, name);
    assert.deepEqual(doublesOfHex(py.gy1 as string), ts.gradY, name);
  }
});

test("Python: a bad case name and a bad layout raise WfloError with the CLI's one line and exit code", { skip: missing }, () => {
  const code = `
import wflo, numpy as np
with wflo.Engine() as engine:
    try:
        engine.farm("iea37-cs1-17")
    except wflo.WfloError as err:
        print(err.exit_code, err)
    farm = engine.farm("iea37-cs1-16")
    x, y = farm.baseline
    try:
        farm.aep(np.where(np.arange(16) == 3, np.nan, x), y)
    except wflo.WfloError as err:
        print(err.exit_code, err)
    print(round(farm.aep(x, y).aep_mwh))   # the engine still serves
`;
  const r = runPython(['-c', code]);
  assert.equal(r.status, 0, r.stderr);
  const lines = r.stdout.trim().split('\n');
  const cli = runWflo(['aep', 'iea37-cs1-17']);
  assert.equal(cli.status, 2);
  assert.equal(lines[0], `2 ${cli.stderr.trim().replace(/^wflo: /, '')}`);
  assert.equal(lines[1], '2 aep.x[3]: expected a finite number, got NaN');
  const j = JSON.parse(runWflo(['aep', 'iea37-cs1-16', '--json']).stdout) as { aep_mwh: number };
  assert.equal(Number(lines[2]), Math.round(j.aep_mwh));
});

test('Python: the SciPy SLSQP example improves cs1-36 in a few iterations; its layout and AEP recompute exactly', { skip: pythonMissing(true) }, () => {
  const r = runPython(['python/examples/slsqp_cs1_36.py', '--maxiter', '4']);
  assert.equal(r.status, 0, r.stderr);
  const m = /baseline AEP ([\d.]+) MWh, SLSQP \((\d+) iterations\) ([\d.]+) MWh/.exec(r.stdout);
  assert.ok(m, r.stdout);
  assert.ok(Number(m[3]) > Number(m[1]), r.stdout);
  const [, layoutHex, aepHex] = /layout ([0-9a-f]+) aep ([0-9a-f]+)/.exec(r.stdout)!;
  const v = doublesOfHex(layoutHex);
  const c = resolveAepRequest({ file: 'iea37-cs1-36' });
  const n = c.nTurbines;
  assert.equal(v.length, 2 * n);
  const x = v.subarray(0, n),
    y = v.subarray(n);
  assert.ok(Object.is(caseEvaluator(c).aep(x, y).aepMwh, doublesOfHex(aepHex)[0]));
  // Inside the 2000 m circle (SLSQP's constraint tolerance: a few millimetres at most).
  for (let i = 0; i < n; i++) assert.ok(Math.hypot(x[i], y[i]) < 2000 + 0.01, `turbine ${i} at radius ${Math.hypot(x[i], y[i])}`);
});
