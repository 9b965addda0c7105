/**
 * `farm.optimize(...)` from Python against `wflo optimize CASE --seed S --method M --json` with the
 * same options: for every method the CLI offers (small budgets), the layout, its AEP, the initial
 * AEP, feasibility and work counts are equal bit for bit; several starts keep the CLI's best; a
 * layout given from Python is the CLI's case-file layout under `--initial given`; a bad option
 * raises WfloError with the CLI's message for the same flag; feasibility from Python agrees.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { doublesOfHex, pythonMissing, runPython } from './pythonKit.js';
import { runWflo, tempDir } from '../helpers.js';

const missing = pythonMissing();

interface Run {
  label: string;
  case: string;
  seed: number;
  py: Record<string, unknown>;
  flags: string[];
}

const RUNS: Run[] = [
  {
    label: 'gradient',
    case: 'iea37-cs1-16',
    seed: 3,
    py: { method: 'gradient', max_iterations: 20, wec: [2, 1] },
    flags: ['--method', 'gradient', '--max-iterations', '20', '--wec', '2,1'],
  },
  {
    label: 'random',
    case: 'iea37-cs1-16',
    seed: 3,
    py: { method: 'random', random_iterations: 200 },
    flags: ['--method', 'random', '--random-iterations', '200'],
  },
  {
    label: 'hybrid',
    case: 'iea37-cs1-16',
    seed: 4,
    py: { method: 'hybrid', max_iterations: 20, random_iterations: 100, initial: 'grid' },
    flags: ['--method', 'hybrid', '--max-iterations', '20', '--random-iterations', '100', '--initial', 'grid'],
  },
  {
    label: 'basin',
    case: 'iea37-cs1-16',
    seed: 3,
    py: { method: 'basin', hops: 2, max_iterations: 20, hop_wec: [1.5, 1] },
    flags: ['--method', 'basin', '--hops', '2', '--max-iterations', '20', '--hop-wec', '1.5,1'],
  },
  {
    label: 'global',
    case: 'iea37-cs1-16',
    seed: 3,
    py: { method: 'global', hops: 1, max_iterations: 20 },
    flags: ['--method', 'global', '--hops', '1', '--max-iterations', '20'],
  },
  {
    label: 'population',
    case: 'iea37-cs1-16',
    seed: 3,
    py: { method: 'population', max_iterations: 20 },
    flags: ['--method', 'population', '--max-iterations', '20'],
  },
  { label: 'none', case: 'iea37-cs1-16', seed: 5, py: { method: 'none' }, flags: ['--method', 'none'] },
  {
    label: 'directions',
    case: 'iea37-cs1-16',
    seed: 2,
    py: { method: 'gradient', max_iterations: 10, directions: 'spread:3' },
    flags: ['--method', 'gradient', '--max-iterations', '10', '--directions', 'spread:3'],
  },
  {
    label: 'starts',
    case: 'iea37-cs1-16',
    seed: 6,
    py: { method: 'gradient', max_iterations: 10, starts: 3 },
    flags: ['--method', 'gradient', '--max-iterations', '10', '--starts', '3', '--workers', '1'],
  },
  {
    label: 'mixed',
    case: 'examples/mixed-farm.yaml',
    seed: 1,
    py: { method: 'gradient', max_iterations: 10 },
    flags: ['--method', 'gradient', '--max-iterations', '10'],
  },
];

const OPTIMIZE = `
import json, struct, sys, wflo
h = lambda a: struct.pack(f"<{len(a)}d", *a).hex()
runs = json.loads(sys.argv[1])
out = {}
with wflo.Engine() as engine:
    for run in runs:
        farm = engine.farm(run["case"])
        r = farm.optimize(seed=run["seed"], **run["py"])
        fe = farm.feasibility(r.x, r.y)
        out[run["label"]] = dict(x=h(r.x), y=h(r.y), aep=h([r.aep_mwh]), aep0=h([r.aep_initial_mwh]), feasible=r.feasible, viol=h([r.max_violation_m]),
            iterations=r.iterations, evaluations=r.evaluations, seed=r.info["seed"], types=None if r.turbine_types is None else r.turbine_types.tolist(),
            fe=fe.feasible, fe_viol=h([fe.max_violation_m]))
print(json.dumps(out))
`;

test('Python: optimize with every method equals `wflo optimize --json` of the same seed and options, bit for bit', { skip: missing }, () => {
  const r = runPython(['-c', OPTIMIZE, JSON.stringify(RUNS.map(({ label, case: c, seed, py }) => ({ label, case: c, seed, py })))], { timeoutMs: 900_000 });
  assert.equal(r.status, 0, r.stderr);
  const got = JSON.parse(r.stdout) as Record<
    string,
    {
      x: string;
      y: string;
      aep: string;
      aep0: string;
      feasible: boolean;
      viol: string;
      iterations: number;
      evaluations: number;
      seed: number;
      types: number[] | null;
      fe: boolean;
      fe_viol: string;
    }
  >;
  for (const run of RUNS) {
    const cli = runWflo(['optimize', run.case, '--seed', String(run.seed), ...run.flags, '--json'], { timeoutMs: 600_000 });
    assert.equal(cli.status, 0, `${run.label}: ${cli.stderr}`);
    const j = JSON.parse(cli.stdout) as {
      seed: number;
      aep_mwh: number;
      aep_initial_mwh: number;
      x: number[];
      y: number[];
      feasible: boolean;
      max_violation_m: number;
      iterations: number;
      evaluations: number;
      turbine_types?: number[];
    };
    const py = got[run.label];
    assert.ok(Object.is(doublesOfHex(py.aep)[0], j.aep_mwh), `${run.label}: AEP ${doublesOfHex(py.aep)[0]} vs CLI ${j.aep_mwh}`);
    assert.ok(Object.is(doublesOfHex(py.aep0)[0], j.aep_initial_mwh), run.label);
    assert.deepEqual(Array.from(doublesOfHex(py.x)), j.x, run.label);
    assert.deepEqual(Array.from(doublesOfHex(py.y)), j.y, run.label);
    assert.deepEqual(
      [py.feasible, doublesOfHex(py.viol)[0], py.iterations, py.evaluations, py.seed],
      [j.feasible, j.max_violation_m, j.iterations, j.evaluations, j.seed],
      run.label,
    );
    assert.deepEqual(py.types, j.turbine_types ?? null, run.label);
    // The optimizers' feasibility of the result, asked from Python, is the CLI's verdict.
    assert.deepEqual([py.fe, doublesOfHex(py.fe_viol)[0]], [j.feasible, j.max_violation_m], run.label);
  }
});

test("Python: a starting layout from Python is a case file's layout under --initial given; bad options raise the CLI's message", { skip: missing }, () => {
  const dir = tempDir('wflo-py-optimize-');
  const code = `
import json, struct, numpy as np, wflo
h = lambda a: struct.pack(f"<{len(a)}d", *a).hex()
out = {"errors": []}
with wflo.Engine() as engine:
    farm = engine.farm("iea37-cs1-16")
    a = np.radians(np.arange(16) * 22.5)
    x0, y0 = 1000 * np.cos(a), 1000 * np.sin(a)
    r = farm.optimize("gradient", 2, initial="given", max_iterations=10, x0=x0, y0=y0)
    out["given"] = dict(x=h(r.x), aep=h([r.aep_mwh]), x0=x0.tolist(), y0=y0.tolist())
    for kw in (dict(seed=-1), dict(method="gradiant"), dict(initial="ring"), dict(max_iterations=0), dict(directions="spread:0"), dict(objective="lcoe")):
        try:
            farm.optimize(**kw)
        except wflo.WfloError as err:
            out["errors"].append([err.exit_code, str(err)])
print(json.dumps(out))
`;
  const r = runPython(['-c', code]);
  assert.equal(r.status, 0, r.stderr);
  const got = JSON.parse(r.stdout) as { given: { x: string; aep: string; x0: number[]; y0: number[] }; errors: [number, string][] };
  const file = path.join(dir, 'ring.yaml');
  fs.writeFileSync(file, `base: iea37-cs1-16\nlayout: ${JSON.stringify({ x: got.given.x0, y: got.given.y0 })}\n`);
  const j = JSON.parse(runWflo(['optimize', file, '--seed', '2', '--method', 'gradient', '--initial', 'given', '--max-iterations', '10', '--json']).stdout) as {
    aep_mwh: number;
    x: number[];
  };
  assert.ok(Object.is(doublesOfHex(got.given.aep)[0], j.aep_mwh));
  assert.deepEqual(Array.from(doublesOfHex(got.given.x)), j.x);
  const flags = [
    ['--seed', '-1'],
    ['--method', 'gradiant'],
    ['--initial', 'ring'],
    ['--max-iterations', '0'],
    ['--directions', 'spread:0'],
    ['--objective', 'lcoe'],
  ];
  assert.equal(got.errors.length, flags.length);
  for (const [k, f] of flags.entries()) {
    const cli = runWflo(['optimize', 'iea37-cs1-16', ...f]);
    assert.equal(cli.status, 2, cli.stderr);
    assert.deepEqual(got.errors[k], [2, cli.stderr.trim().replace(/^wflo: /, '')], f.join(' '));
  }
  fs.rmSync(dir, { recursive: true, force: true });
});
