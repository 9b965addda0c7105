/**
 * Batch evaluation from Python (`node dist/bench/run.js pybatch`): k layouts of IEA37 cs1-16 (its
 * baseline, each turbine moved by a seeded random offset of up to 50 m) evaluated by one
 * `farm.aep_batch(X, Y)` call versus k single `farm.aep(x, y)` calls, for k = 1, 10, 100, 1000.
 * Per layout: the wall time Python measures (perf_counter_ns around the whole batch, or around
 * the k calls, after 3000 single and 30 batch warm-up calls) and, beyond the engine's own evaluation time (`engine_us`: the batch's own, or the
 * k calls' summed), the overhead; median of 7 repetitions after 2 warm-up ones. Also whether every
 * batch AEP equals its single call's bit for bit. Figures only, no pass/fail. Python: WFLO_PYTHON or
 * /usr/bin/python3 (needs NumPy).
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const PY = process.env.WFLO_PYTHON ?? '/usr/bin/python3';
const PACKAGE = fileURLToPath(new URL('../../python', import.meta.url));
const CLI = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));

const MEASURE = `
import json, sys, time
import numpy as np
import wflo
ks, reps, warm = [int(v) for v in sys.argv[1].split(",")], int(sys.argv[2]), int(sys.argv[3])
out = []
with wflo.Engine() as engine:
    farm = engine.farm("iea37-cs1-16")
    x0, y0 = farm.baseline
    rng = np.random.default_rng(1)
    # Warm the engine's JIT first (bench/python.ts: the first thousands of calls are slower).
    WX = x0 + rng.uniform(-50, 50, (100, farm.n)); WY = y0 + rng.uniform(-50, 50, (100, farm.n))
    for j in range(3000):
        farm.aep(WX[j % 100], WY[j % 100])
    for j in range(30):
        farm.aep_batch(WX, WY)
    for k in ks:
        X = x0 + rng.uniform(-50, 50, (k, farm.n)); Y = y0 + rng.uniform(-50, 50, (k, farm.n))
        batch, single, batch_engine, single_engine = [], [], [], []
        for rep in range(warm + reps):
            t0 = time.perf_counter_ns()
            b = farm.aep_batch(X, Y)
            t1 = time.perf_counter_ns()
            be = engine.last_header["engine_us"]
            se = 0.0
            s = np.empty(k)
            t2 = time.perf_counter_ns()
            for j in range(k):
                s[j] = farm.aep(X[j], Y[j]).aep_mwh
                se += engine.last_header["engine_us"]
            t3 = time.perf_counter_ns()
            if rep >= warm:
                batch.append((t1 - t0) / 1e3 / k); single.append((t3 - t2) / 1e3 / k)
                batch_engine.append(be / k); single_engine.append(se / k)
        out.append({"k": k, "batch_us": float(np.median(batch)), "single_us": float(np.median(single)),
                    "batch_engine_us": float(np.median(batch_engine)), "single_engine_us": float(np.median(single_engine)),
                    "equal": bool(np.array_equal(b.aep_mwh, s))})
print(json.dumps(out))
`;

export async function benchPythonBatch(): Promise<void> {
  const t0 = Date.now();
  console.log('## pybatch: k layouts of cs1-16 in one farm.aep_batch call vs k farm.aep calls (per layout)');
  const r = spawnSync(PY, ['-c', MEASURE, '1,10,100,1000', '7', '2'], {
    encoding: 'utf8',
    env: { ...process.env, PYTHONPATH: PACKAGE, WFLO_CLI: CLI },
    maxBuffer: 16 << 20,
  });
  if (r.status !== 0) {
    console.log(`pybatch: ${PY} failed (needs NumPy): ${(r.stderr || r.error?.message || '').trim().split('\n').pop()}`);
    return;
  }
  const rows = JSON.parse(r.stdout) as { k: number; batch_us: number; single_us: number; batch_engine_us: number; single_engine_us: number; equal: boolean }[];
  console.log('| k | batch µs/layout | of it beyond the engine | k single calls µs/layout | of it beyond the engine | AEPs equal |');
  console.log('|---|---|---|---|---|---|');
  for (const row of rows) {
    console.log(
      `| ${row.k} | ${row.batch_us.toFixed(1)} | ${(row.batch_us - row.batch_engine_us).toFixed(1)} | ${row.single_us.toFixed(1)} | ${(row.single_us - row.single_engine_us).toFixed(1)} | ${row.equal ? 'yes' : 'NO'} |`,
    );
  }
  console.log(`(pybatch: ${((Date.now() - t0) / 1000).toFixed(1)} s)`);
}
