/**
 * A Python call interrupted by SIGINT (a notebook's interrupt, Ctrl-C) never leaves the engine out
 * of step: Python opens cs1-16 and a 1500-turbine farm under a 360 × 23 Weibull rose (one `aep`
 * takes seconds), prints "calling", and starts a long call (that farm's `aep`, or cs1-16's
 * `optimize("global")`); this test sends SIGINT 0.4 s later. Python must get KeyboardInterrupt, the
 * engine process that was computing must be gone, and then 1000 calls on the same Farm objects
 * (aep, aep_and_gradient, feasibility at random layouts) must each equal, bit for bit, a fresh
 * engine's answer, and the big farm, opened from values, must answer again too. Before request
 * ids were checked, every later call got the previous request's reply (a KeyError or wrong AEPs).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { PYTHON, REPO } from '../helpers.js';
import { PYTHON_PACKAGE, pythonMissing } from './pythonKit.js';

const CODE = String.raw`
import json, os, sys, time
import numpy as np
import wflo

mode = sys.argv[1]
engine = wflo.Engine()
small = engine.farm("iea37-cs1-16")
n = 1500
bx, by = (np.arange(n) % 40) * 400.0, (np.arange(n) // 40) * 400.0
dirs, ws = np.arange(0.0, 360.0, 1.0), np.arange(3.0, 26.0)
wind = wflo.wind_rose(dirs, ws, sector_probability=np.full(360, 1 / 360), weibull_a=np.full(360, 9.0), weibull_k=np.full(360, 2.0))
big_doc = dict(base="iea37-cs1-16", wind=wind, layout=(bx, by), wake_model="bastankhah2014",
               boundary={"polygon": [[-10, -10], [20000, -10], [20000, 20000], [-10, 20000]]})
big = engine.farm_from_values(**big_doc)
x0, y0 = small.baseline
small.aep(x0, y0)
old_pid = engine._process.pid
print("calling", flush=True)
t0 = time.perf_counter()
try:
    if mode == "aep":
        big.aep(bx, by)
    else:
        small.optimize("global", seed=1)
    print(json.dumps({"completed": True}))
    sys.exit(0)
except KeyboardInterrupt:
    interrupted_after_s = time.perf_counter() - t0
old_engine_running = os.path.exists(f"/proc/{old_pid}")
with wflo.Engine() as fresh:
    fsmall = fresh.farm("iea37-cs1-16")
    rng = np.random.default_rng(7)
    equal, first_call_s = 0, None
    for k in range(1000):
        x, y = x0 + rng.normal(0.0, 30.0, small.n), y0 + rng.normal(0.0, 30.0, small.n)
        t = time.perf_counter()
        if k % 3 == 0:
            a, b = small.aep(x, y), fsmall.aep(x, y)
            same = a.aep_mwh == b.aep_mwh and np.array_equal(a.per_turbine_mwh, b.per_turbine_mwh)
        elif k % 3 == 1:
            a, b = small.aep_and_gradient(x, y), fsmall.aep_and_gradient(x, y)
            same = a.aep_mwh == b.aep_mwh and all(np.array_equal(p, q) for p, q in zip(a[1:], b[1:]))
        else:
            a, b = small.feasibility(x, y), fsmall.feasibility(x, y)
            same = a == b
        if first_call_s is None:
            first_call_s = time.perf_counter() - t
        equal += bool(same)
    fbig = fresh.farm_from_values(**big_doc)
    xs, ys = bx.copy(), by + 50.0
    xs[1] = xs[0] + 1.0
    fa, fb = big.feasibility(xs, ys), fbig.feasibility(xs, ys)
print(json.dumps({"completed": False, "interrupted_after_s": interrupted_after_s, "old_engine_running": old_engine_running,
                  "equal": equal, "big_same": fa == fb and not fa.feasible, "starts": getattr(engine, "starts", None),
                  "first_call_s": first_call_s}))
engine.close()
`;

interface Outcome {
  completed: boolean;
  interrupted_after_s: number;
  old_engine_running: boolean;
  equal: number;
  big_same: boolean;
  starts: number;
  first_call_s: number;
}

/** Run CODE in `mode`, SIGINT it 0.4 s after it says "calling"; its last line parsed. */
async function interrupted(mode: 'aep' | 'optimize'): Promise<{ status: number | null; out: Outcome | null; stderr: string }> {
  const py = spawn(PYTHON, ['-c', CODE, mode], {
    cwd: REPO,
    env: { ...process.env, PYTHONPATH: PYTHON_PACKAGE, WFLO_CLI: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    let stdout = '',
      stderr = '';
    py.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    const exited = new Promise<number | null>((resolve) => py.on('exit', (code) => resolve(code)));
    await new Promise<void>((resolve) => {
      py.stdout.on('data', (c: Buffer) => {
        const first = !stdout.includes('calling\n');
        stdout += c.toString();
        if (first && stdout.includes('calling\n'))
          setTimeout(() => {
            py.kill('SIGINT');
            resolve();
          }, 400);
      });
      void exited.then(() => resolve());
    });
    const status = await exited;
    const last = stdout.trim().split('\n').at(-1) ?? '';
    return { status, out: last.startsWith('{') ? (JSON.parse(last) as Outcome) : null, stderr };
  } finally {
    if (py.exitCode === null && py.signalCode === null) py.kill('SIGKILL');
  }
}

for (const mode of ['aep', 'optimize'] as const) {
  test(`Python interrupted mid ${mode}: KeyboardInterrupt, the busy engine gone, then 1000 calls each equal to a fresh engine's`, {
    skip: pythonMissing(),
    timeout: 300_000,
  }, async (t) => {
    const { status, out, stderr } = await interrupted(mode);
    assert.equal(status, 0, stderr);
    assert.ok(out, `no result line; stderr: ${stderr}`);
    assert.equal(out.completed, false, `the ${mode} call finished before the interrupt`);
    assert.equal(out.old_engine_running, false, 'the engine process computing the interrupted call still runs');
    assert.equal(out.equal, 1000);
    assert.equal(out.big_same, true);
    assert.equal(out.starts, 2);
    t.diagnostic(
      `interrupted ${out.interrupted_after_s.toFixed(3)} s into the call; the first call after it (a new engine process, both farms opened again) took ${out.first_call_s.toFixed(3)} s`,
    );
  });
}
