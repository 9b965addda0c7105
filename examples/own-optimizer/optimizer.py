#!/usr/bin/env python3
"""Your own layout optimizer as a wflo command task: a template to copy.

A random local search over the IEA Wind Task 37 simplified Gaussian wake model (the case-study
model: sigma = k*dx + D/sqrt(8), deficit (1 - sqrt(1 - Ct/(8 sigma^2/D^2))) exp(-(dy/sigma)^2/2),
root-sum-square superposition, Ct at the free-stream speed), written here with NumPy only.
Deterministic per seed: the same task gives the same layout, bit for bit, on every run.

wflo runs it in one of two ways (docs/own-optimizer.md):
  per-task    one process per task: read the task document from $WFLO_TASK, write the result
              document to $WFLO_RESULT, exit 0 (exit 65: this task can never succeed, do not retry);
  persistent  one process for many tasks: read one task document per line from descriptor
              $WFLO_TASKS_FD, write one result line per task to $WFLO_RESULTS_FD.
stdout and stderr are yours (wflo keeps them in the task's log folder).

Parameters (`params:` in the campaign, per farm or per farm type):
  iterations   proposals of the local search (default 300)
"""
import json
import os
import sys

import numpy as np

EXIT_PERMANENT = 65


class Permanent(Exception):
    """A task this program can never solve (retrying will not help)."""


# ---- the problem: site, turbine, wind, AEP --------------------------------------------------

def inside_polygon(x, y, vertices):
    """Even-odd rule: which points (x, y) lie inside the polygon."""
    v = np.asarray(vertices, dtype=float)
    x0, y0 = v[:, 0], v[:, 1]
    x1, y1 = np.roll(x0, -1), np.roll(y0, -1)
    px, py = x[:, None], y[:, None]
    crosses = ((y0 > py) != (y1 > py)) & (px < (x1 - x0) * (py - y0) / np.where(y1 == y0, 1e-300, y1 - y0) + x0)
    return crosses.sum(axis=1) % 2 == 1


class Problem:
    def __init__(self, task, wind):
        model = task["wake_model"]
        if model["name"] != "iea37":
            raise Permanent(f"this optimizer implements the iea37 wake model only, not {model['name']}")
        self.k = model.get("params", {}).get("k", 0.0324555)
        self.n = task["n_turbines"]
        self.spacing = task["min_spacing_m"]
        self.site = task["site"]
        t = task["turbine"]
        self.turbine = t
        self.d = t["diameter_m"]
        self.directions = np.asarray(wind["directions_deg"], dtype=float)
        self.speeds = np.asarray(wind["speeds_ms"], dtype=float)
        self.probability = np.asarray(wind["probability"], dtype=float)  # [direction, speed]
        self.hours = wind["hours_per_year"]
        theta = np.deg2rad(270.0 - self.directions)
        self.cos, self.sin = np.cos(-theta), np.sin(-theta)
        self.ct = np.array([self.thrust(v) for v in self.speeds])
        self.evaluations = 0
        if self.site["kind"] == "circle":
            (cx, cy), r = self.site["center"], self.site["radius"]
            self.box = (cx - r, cy - r, cx + r, cy + r)
        else:
            rings = [self.site["vertices"]] if self.site["kind"] == "polygon" else self.site["polygons"]
            pts = np.concatenate([np.asarray(r, dtype=float) for r in rings])
            self.box = (pts[:, 0].min(), pts[:, 1].min(), pts[:, 0].max(), pts[:, 1].max())

    def thrust(self, v):
        ct = self.turbine["ct"]
        if ct["kind"] == "constant":
            return ct["value"]
        s, c = ct["speeds_ms"], ct["values"]
        if ct["outside"] == "zero" and not (s[0] <= v <= s[-1]):
            return 0.0
        return float(np.interp(v, s, c))

    def power(self, v):
        """Electrical power (W) at hub-height speeds v (an array)."""
        t = self.turbine
        on = (v >= t["cut_in_ms"]) & ((v < t["cut_out_ms"]) | (t["power_at_cut_out"] & (v == t["cut_out_ms"])))
        p = t["power"]
        if p["kind"] == "cubic":
            r = np.clip((v - t["cut_in_ms"]) / (p["rated_speed_ms"] - t["cut_in_ms"]), 0.0, 1.0)
            out = t["rated_power_w"] * r ** 3
        else:
            out = np.interp(v, p["speeds_ms"], p["power_w"])
        return np.where(on, out, 0.0)

    def aep(self, x, y):
        """Annual energy production in MWh."""
        self.evaluations += 1
        xr = x[None, :] * self.cos[:, None] - y[None, :] * self.sin[:, None]  # [direction, turbine]
        yr = x[None, :] * self.sin[:, None] + y[None, :] * self.cos[:, None]
        dx = xr[:, :, None] - xr[:, None, :]  # turbine i relative to turbine j
        dy = yr[:, :, None] - yr[:, None, :]
        down = dx > 0.0
        sigma = self.k * np.where(down, dx, 0.0) + self.d / np.sqrt(8.0)
        spread = np.exp(-0.5 * (dy / sigma) ** 2)
        energy = 0.0
        for s, v in enumerate(self.speeds):
            radical = 1.0 - self.ct[s] / (8.0 * sigma ** 2 / self.d ** 2)
            loss = np.where(down, (1.0 - np.sqrt(np.maximum(radical, 0.0))) * spread, 0.0)
            total = np.sqrt((loss ** 2).sum(axis=2))  # [direction, turbine]
            power = self.power(v * (1.0 - total)).sum(axis=1)
            energy += (self.probability[:, s] * power).sum()
        return self.hours * energy / 1e6

    def inside(self, x, y):
        s = self.site
        if s["kind"] == "circle":
            (cx, cy), r = s["center"], s["radius"]
            ok = (x - cx) ** 2 + (y - cy) ** 2 <= r * r
        elif s["kind"] == "polygon":
            ok = inside_polygon(x, y, s["vertices"])
        else:
            ok = np.any([inside_polygon(x, y, p) for p in s["polygons"]], axis=0)
        for zone in s["exclusions"]:
            ok &= ~inside_polygon(x, y, zone["vertices"])
        return ok

    def spaced(self, x, y, i):
        """Whether turbine i keeps the minimum spacing to every other turbine."""
        d2 = (x - x[i]) ** 2 + (y - y[i]) ** 2
        d2[i] = np.inf
        return d2.min() >= self.spacing ** 2


# ---- the optimizer ------------------------------------------------------------------------------

def random_start(p, rng):
    """n feasible positions, placed one by one (rejection sampling)."""
    x0, y0, x1, y1 = p.box
    x, y = np.empty(0), np.empty(0)
    tries = 0
    while x.size < p.n:
        tries += 1
        if tries > 200000:
            raise Permanent(f"could not place {p.n} turbines at {p.spacing} m spacing by random sampling")
        cx, cy = rng.uniform(x0, x1), rng.uniform(y0, y1)
        if not p.inside(np.array([cx]), np.array([cy]))[0]:
            continue
        if x.size and ((x - cx) ** 2 + (y - cy) ** 2).min() < p.spacing ** 2:
            continue
        x, y = np.append(x, cx), np.append(y, cy)
    return x, y


def optimize(task, wind):
    p = Problem(task, wind)
    rng = np.random.default_rng(task["seed"])
    iterations = int(task["params"].get("iterations", 300))
    x, y = random_start(p, rng)
    x_start, y_start = x.copy(), y.copy()
    best = p.aep(x, y)
    start_aep = best
    size = max(p.box[2] - p.box[0], p.box[3] - p.box[1])
    for it in range(iterations):
        step = size * (0.25 * (1.0 - it / iterations) + 0.005)  # shrinking moves
        i = rng.integers(p.n)
        nx, ny = x.copy(), y.copy()
        nx[i] += rng.normal(0.0, step)
        ny[i] += rng.normal(0.0, step)
        if not p.inside(nx[i:i + 1], ny[i:i + 1])[0] or not p.spaced(nx, ny, i):
            continue
        value = p.aep(nx, ny)
        if value > best:
            x, y, best = nx, ny, value
    return {
        "layout": {"x": x.tolist(), "y": y.tolist()},
        "aep_mwh": best,
        "initial_layout": {"x": x_start.tolist(), "y": y_start.tolist()},
        "iterations": iterations,
        "evaluations": p.evaluations,
        "metrics": {"gain_percent": 100.0 * (best / start_aep - 1.0)},
    }


# ---- the protocol -------------------------------------------------------------------------------

_winds = {}


def wind_of(task):
    """The farm's wind file (read once per file: a persistent program sees it many times)."""
    f = task["wind"]["file"]
    if f not in _winds:
        with open(f) as fh:
            _winds[f] = json.load(fh)
    return _winds[f]


def per_task():
    with open(os.environ["WFLO_TASK"]) as fh:
        task = json.load(fh)
    try:
        result = optimize(task, wind_of(task))
    except Permanent as e:
        print(f"permanent failure: {e}", file=sys.stderr)
        sys.exit(EXIT_PERMANENT)
    with open(os.environ["WFLO_RESULT"], "w") as fh:
        json.dump(result, fh)


def persistent():
    tasks = os.fdopen(int(os.environ["WFLO_TASKS_FD"]), "r")
    results = os.fdopen(int(os.environ["WFLO_RESULTS_FD"]), "w")
    for line in tasks:  # ends when wflo closes the descriptor
        task = json.loads(line)
        try:
            result = optimize(task, wind_of(task))
        except Permanent as e:
            result = {"error": str(e), "permanent": True}
        except Exception as e:  # noqa: BLE001 - any other failure is retried by wflo
            result = {"error": f"{type(e).__name__}: {e}"}
        result["task_id"] = task["task_id"]
        results.write(json.dumps(result) + "\n")
        results.flush()


if __name__ == "__main__":
    persistent() if "WFLO_TASKS_FD" in os.environ else per_task()
