"""Peer for the quality-per-second benchmark (bench/optimizeQuality.ts): wflo's engine, reached
through its Python package (python/wflo: a `wflo serve --stdio` process), computes the AEP and its
exact gradient; SciPy's SLSQP optimizes the layout with the same driver, restarts and random
layouts as the PyWake peer (slsqp_driver.py), so the two peers differ only in the engine.

    PYTHONPATH=<repo>/python python3 wflo_slsqp.py CASE.json SEED BUILTIN

CASE.json as for pywake_slsqp.py (boundary, spacing, turbine count); BUILTIN the wflo built-in case
it was written from (`wflo cases`), which the engine opens. Times are CPU seconds of this process
and of its engine process together, since the case was opened.
"""
import json
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import slsqp_driver  # noqa: E402
import wflo  # noqa: E402

TICKS = os.sysconf("SC_CLK_TCK")


def process_cpu_seconds(pid):
    """User + system CPU seconds of process `pid` (/proc/<pid>/stat fields 14 and 15)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def main():
    with open(sys.argv[1]) as f:
        case = json.load(f)
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    with wflo.Engine() as engine:
        farm = engine.farm(sys.argv[3])
        if farm.n != case["n_turbines"]:
            raise SystemExit(f"{sys.argv[3]}: {farm.n} turbines, the case file says {case['n_turbines']}")
        engine_pid = engine._process.pid

        def clock():
            return time.process_time() + process_cpu_seconds(engine_pid)

        def aep_and_gradient_gwh(x, y):  # one engine call (GWh, GWh per m: the PyWake peer's units)
            r = farm.aep_and_gradient(x, y)
            return r.aep_mwh / 1e3, np.stack([r.grad_x, r.grad_y]) / 1e3

        slsqp_driver.run(case, lambda x, y: farm.aep(x, y).aep_mwh / 1e3, aep_and_gradient_gwh, seed, clock)


if __name__ == "__main__":
    main()
