/**
 * Python package benchmark (`node dist/bench/run.js python`): what one `farm.aep_and_gradient(x, y)`
 * call from Python (python/wflo over `wflo serve --stdio`) costs beyond the engine's own time, on
 * IEA37 cs1-16 at its baseline layout. Per call: the round trip Python measures (perf_counter_ns
 * around the call: framing, pipe both ways, NumPy arrays) minus the evaluation time the server
 * reports for that call (`engine_us`); median and 90th percentile over 2000 calls after 200
 * warm-up calls. Target (issue 30): ≤ 50 µs. Figures only, no pass/fail. Python: WFLO_PYTHON or
 * /usr/bin/python3 (needs NumPy).
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const PY = process.env.WFLO_PYTHON ?? '/usr/bin/python3';
const PACKAGE = fileURLToPath(new URL('../../python', import.meta.url));
const CLI = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));

/** Measures in Python; the engine's own time per call is what the server reports. */
const MEASURE = `
import json, sys, time
import numpy as np
import wflo
from wflo._frames import read_frame
case, calls, warm = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
with wflo.Engine() as engine:
    farm = engine.farm(case)
    x, y = farm.baseline
    # The engine's time of each call: the last response header, kept by a wrapper around read_frame.
    import wflo._engine as e
    seen = {}
    def reading(stream):
        header, arrays = read_frame(stream)
        seen["engine_us"] = header.get("engine_us")
        return header, arrays
    e.read_frame = reading
    total, engine_us = [], []
    for k in range(warm + calls):
        t0 = time.perf_counter_ns()
        farm.aep_and_gradient(x, y)
        t1 = time.perf_counter_ns()
        if k >= warm:
            total.append((t1 - t0) / 1e3)
            engine_us.append(seen["engine_us"])
print(json.dumps({"n": farm.n, "total_us": total, "engine_us": engine_us}))
`;

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

export async function benchPython(): Promise<void> {
  const t0 = Date.now();
  console.log('## python: one aep_and_gradient call from Python beyond the engine\'s own time');
  for (const c of ['iea37-cs1-16']) {
    const r = spawnSync(PY, ['-c', MEASURE, c, '2000', '200'], {
      encoding: 'utf8', env: { ...process.env, PYTHONPATH: PACKAGE, WFLO_CLI: CLI }, maxBuffer: 64 << 20,
    });
    if (r.status !== 0) {
      console.log(`${c}: skipped (${PY} with NumPy: ${r.stderr.trim().split('\n').pop()})`);
      continue;
    }
    const m = JSON.parse(r.stdout) as { n: number; total_us: number[]; engine_us: number[] };
    const over = m.total_us.map((t, i) => t - m.engine_us[i]).sort((a, b) => a - b);
    const total = [...m.total_us].sort((a, b) => a - b);
    const engine = [...m.engine_us].sort((a, b) => a - b);
    console.log(`${c} (${m.n} turbines, ${m.total_us.length} calls): round trip median ${quantile(total, 0.5).toFixed(1)} µs, engine median ${quantile(engine, 0.5).toFixed(1)} µs; overhead median ${quantile(over, 0.5).toFixed(1)} µs, p90 ${quantile(over, 0.9).toFixed(1)} µs (target ≤ 50 µs)`);
  }
  console.log(`python: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}
