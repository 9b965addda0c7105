"""The incident researcher's own optimizer (docs/incident.md) under wflo's runner: a random search
over their own NumPy wake model (the IEA37 simplified Gaussian, root-sum-square superposition).

Everything specific to wflo is the 9 lines marked `# wflo` (test/python/program.test.ts counts them
and checks that no other line names wflo or the task): the import, the decorator, what it reads
from the task, what it returns, and `main()`. The rest is the researcher's code, unchanged from
their multiprocessing pipeline. Run it with the campaign next to it:

    PYTHONPATH=$PWD/python ./wflo run python/examples/researcher/campaign.yaml
"""
import numpy as np

import wflo  # wflo


def gaussian_aep(x, y, d, ct, power, directions, speeds, probability, hours, k=0.0324555):
    """AEP (MWh) of turbines at (x, y): the IEA37 Gaussian deficit, root-sum-square superposition."""
    theta = np.deg2rad(270.0 - directions)
    c, s = np.cos(-theta)[:, None], np.sin(-theta)[:, None]
    xr, yr = x[None, :] * c - y[None, :] * s, x[None, :] * s + y[None, :] * c  # [direction, turbine]
    dx, dy = xr[:, :, None] - xr[:, None, :], yr[:, :, None] - yr[:, None, :]
    down = dx > 0.0
    sigma = k * np.where(down, dx, 0.0) + d / np.sqrt(8.0)
    energy = 0.0
    for i, v in enumerate(speeds):
        radical = np.maximum(1.0 - ct[i] / (8.0 * sigma ** 2 / d ** 2), 0.0)
        loss = np.where(down, (1.0 - np.sqrt(radical)) * np.exp(-0.5 * (dy / sigma) ** 2), 0.0)
        energy += (probability[:, i] * power(v * (1.0 - np.sqrt((loss ** 2).sum(axis=2)))).sum(axis=1)).sum()
    return hours * energy / 1e6


def random_search(x, y, aep, feasible, rng, iterations, step):
    """Move one turbine at a time; keep a move when it stays feasible and gains energy."""
    best = aep(x, y)
    for it in range(iterations):
        i = rng.integers(len(x))
        nx, ny = x.copy(), y.copy()
        scale = step * (1.0 - it / iterations) + 1.0
        nx[i], ny[i] = nx[i] + rng.normal(0.0, scale), ny[i] + rng.normal(0.0, scale)
        if feasible(nx, ny):
            value = aep(nx, ny)
            if value > best:
                x, y, best = nx, ny, value
    return x, y, best


@wflo.program  # wflo
def optimize(task):  # wflo
    w = task.wind  # wflo
    aep = lambda x, y: gaussian_aep(x, y, task.diameter_m, task.ct(w.speeds_ms), task.power_w, w.directions_deg, w.speeds_ms, w.probability, w.hours_per_year)  # wflo
    x0, y0 = task.initial_layout  # wflo
    x, y, best = random_search(x0, y0, aep, task.feasible, task.rng, task.params.get("iterations", 300), step=task.diameter_m)  # wflo
    return wflo.Result(x, y, aep_mwh=best, metrics={"gain_percent": 100.0 * (best / aep(x0, y0) - 1.0)})  # wflo


optimize.main()  # wflo
