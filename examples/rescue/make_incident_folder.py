#!/usr/bin/env python3
"""Write a worker folder as the incident left it (docs/incident.md), with h5py, for the campaign
beside this script (campaign.yaml: 2 farms x 2 farm types x 6 seeds, 24 tasks).

    python3 make_incident_folder.py [DIR]      # default: the current folder

writes into DIR:
    layouts.h5_temp/worker_<pid>.h5   what a multiprocessing pool of 10 workers left behind
    campaign.yaml                     a copy of the campaign (its output: DIR/out/rescue)
    incident.json                     what each task's record is, for checking a rescue by hand
                                      or in a test (not read by wflo)

Each worker "optimized" its tasks with a short random local search over the IEA Wind Task 37
simplified Gaussian wake model, written here with NumPy from the case studies' description (the
same model the campaign names, so the AEPs agree with wflo's recomputation), and stored the
optimized layout, its AEP, the starting layout and its AEP (`aep_initial`), iterations,
evaluations and wall time, in the shapes docs/shards.md describes:

    worker_41001.h5  0 bytes: the worker died before HDF5 wrote anything
    worker_41002.h5  groups shape, one group per record (layout and initial_layout datasets, the
                     rest attributes); 4 records
    worker_41003.h5  only the `init` placeholder (the worker never got a task)
    worker_41004.h5  groups shape, one dataset per record with its values as attributes; 3 records,
                     one without aep_initial (its worker did not record it)
    worker_41005.h5  rows shape: farm_id, farm_type, seed, aep, aep_initial, layout (N, T, 2)
                     NaN-padded, initial_layout, iterations, evaluations, wall_s; 4 records
    worker_41006.h5  only `init`
    worker_41007.h5  3 records, cut in half: truncated (its tasks must be computed)
    worker_41008.h5  written with libver='latest' and killed with the file open, after flushing 2
                     of its 3 records: the 2 are recoverable, the third must be computed
    worker_41009.h5  a task worker_41002.h5 also holds, optimized again with another result (a
                     conflicting duplicate: both feasible, different AEPs), and 1 other record
    worker_41010.h5  optimizer slack: one layout with a turbine 0.01 m outside the boundary, one
                     with a pair 259.9995 m apart (minimum 260 m), and 1 good record

Needs only h5py and NumPy (Debian: apt-get install python3-h5py python3-numpy); no network.
Deterministic: the same DIR content on every run, but for the wall times.
"""
import json
import math
import os
import shutil
import signal
import subprocess
import sys
import time

import h5py
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))

# ---- the campaign (campaign.yaml beside this script) ----------------------------------------

FARMS = {
    0: {"circle": ((0.0, 0.0), 1300.0), "polygon": None, "exclusions": []},
    1: {"circle": None, "polygon": [(0.0, 0.0), (3000.0, 0.0), (3000.0, 2000.0), (0.0, 2000.0)],
        "exclusions": [[(1400.0, 0.0), (1600.0, 0.0), (1600.0, 2000.0), (1400.0, 2000.0)]]},
}
FARM_TYPES = {0: 8, 1: 12}  # turbines
SEEDS = range(6)
SPACING = 260.0  # 2 rotor diameters

# IEA37 3.35 MW turbine and the case-study 1 wind rose (16 directions, 9.8 m/s).
DIAMETER, RATED_W, CUT_IN, RATED_SPEED, CUT_OUT, CT, K_STAR = 130.0, 3.35e6, 4.0, 9.8, 25.0, 8.0 / 9.0, 0.0324555
DIRECTIONS = np.arange(16) * 22.5
FREQUENCY = np.array([0.025, 0.024, 0.029, 0.036, 0.063, 0.065, 0.1, 0.122, 0.063, 0.038, 0.039, 0.083, 0.213, 0.046, 0.032, 0.022])
SPEED = 9.8


def aep_mwh(x, y):
    """IEA37 simplified Gaussian wake, root-sum-square superposition, AEP in MWh."""
    t = np.radians(DIRECTIONS)[:, None]
    # A wind from direction theta (clockwise from north) blows towards theta + 180 degrees.
    down = x[None, :] * -np.sin(t) + y[None, :] * -np.cos(t)  # [direction, turbine]
    cross = x[None, :] * np.cos(t) - y[None, :] * np.sin(t)
    dx = down[:, :, None] - down[:, None, :]  # how far turbine j is downwind of turbine i: [d, j, i]
    dy = cross[:, :, None] - cross[:, None, :]
    behind = dx > 0.0
    sigma = K_STAR * np.where(behind, dx, 1.0) + DIAMETER / math.sqrt(8.0)
    deficit = (1.0 - np.sqrt(1.0 - CT / (8.0 * sigma ** 2 / DIAMETER ** 2))) * np.exp(-0.5 * (dy / sigma) ** 2)
    loss = np.sqrt(np.sum(np.where(behind, deficit, 0.0) ** 2, axis=2))
    v = SPEED * (1.0 - loss)
    power = np.where((v >= CUT_IN) & (v < RATED_SPEED), RATED_W * ((v - CUT_IN) / (RATED_SPEED - CUT_IN)) ** 3, 0.0)
    power = np.where((v >= RATED_SPEED) & (v < CUT_OUT), RATED_W, power)
    return 8760.0 * float(np.sum(FREQUENCY * power.sum(axis=1))) / 1e6


def inside_polygon(px, py, poly):
    inside = False
    for (ax, ay), (bx, by) in zip(poly, poly[1:] + poly[:1]):
        if (ay > py) != (by > py) and px < ax + (py - ay) * (bx - ax) / (by - ay):
            inside = not inside
    return inside


def edge_distance(px, py, poly):
    best = math.inf
    for (ax, ay), (bx, by) in zip(poly, poly[1:] + poly[:1]):
        vx, vy = bx - ax, by - ay
        s = min(1.0, max(0.0, ((px - ax) * vx + (py - ay) * vy) / (vx * vx + vy * vy)))
        best = min(best, math.hypot(px - ax - s * vx, py - ay - s * vy))
    return best


def clearance(farm, px, py):
    """How far (m) a point lies inside the site and outside its exclusion zones (< 0: violation)."""
    f = FARMS[farm]
    if f["circle"]:
        (cx, cy), r = f["circle"]
        c = r - math.hypot(px - cx, py - cy)
    else:
        c = edge_distance(px, py, f["polygon"]) * (1 if inside_polygon(px, py, f["polygon"]) else -1)
    for zone in f["exclusions"]:
        c = min(c, edge_distance(px, py, zone) * (-1 if inside_polygon(px, py, zone) else 1))
    return c


def feasible(farm, x, y, i):
    """Turbine i at least 1 m inside the site and 1 m clear of the minimum spacing (no slack here)."""
    if clearance(farm, x[i], y[i]) < 1.0:
        return False
    d = np.hypot(x - x[i], y - y[i])
    d[i] = np.inf
    return d.min() >= SPACING + 1.0


def optimize(farm, ftype, seed, stream=0, proposals=120):
    """A feasible random start, then a random local search: what a worker stored for one task."""
    started = time.perf_counter()
    rng = np.random.default_rng([farm, ftype, seed, stream])
    n = FARM_TYPES[ftype]
    box = (-1300.0, -1300.0, 1300.0, 1300.0) if FARMS[farm]["circle"] else (0.0, 0.0, 3000.0, 2000.0)
    x, y = np.empty(0), np.empty(0)
    while x.size < n:
        cx, cy = rng.uniform(box[0], box[2]), rng.uniform(box[1], box[3])
        nx, ny = np.append(x, cx), np.append(y, cy)
        if feasible(farm, nx, ny, nx.size - 1):
            x, y = nx, ny
    x0, y0 = x.copy(), y.copy()
    start = best = aep_mwh(x, y)
    evaluations = 1
    for it in range(proposals):
        i = rng.integers(n)
        nx, ny = x.copy(), y.copy()
        step = 400.0 * (1.0 - it / proposals) + 5.0
        nx[i] += rng.normal(0.0, step)
        ny[i] += rng.normal(0.0, step)
        if not feasible(farm, nx, ny, i):
            continue
        value = aep_mwh(nx, ny)
        evaluations += 1
        if value > best:
            x, y, best = nx, ny, value
    return {
        "farm": farm, "type": ftype, "seed": seed, "x": x, "y": y, "aep": best, "x0": x0, "y0": y0, "aep_initial": start,
        "iterations": proposals, "evaluations": evaluations, "wall_s": time.perf_counter() - started,
    }


def with_turbine_outside(r, metres):
    """The record with its outermost turbine moved `metres` outside the boundary (AEP recomputed)."""
    x, y = r["x"].copy(), r["y"].copy()
    farm = r["farm"]
    for i in np.argsort([clearance(farm, x[k], y[k]) for k in range(x.size)]):
        if FARMS[farm]["circle"]:
            (cx, cy), radius = FARMS[farm]["circle"]
            scale = (radius + metres) / math.hypot(x[i] - cx, y[i] - cy)
            nx, ny = x.copy(), y.copy()
            nx[i], ny[i] = cx + (x[i] - cx) * scale, cy + (y[i] - cy) * scale
        else:
            nx, ny = x.copy(), y.copy()
            nx[i] = 3000.0 + metres if x[i] > 1500.0 else -metres
        d = np.hypot(nx - nx[i], ny - ny[i])
        d[i] = np.inf
        if d.min() >= SPACING + 1.0:
            return dict(r, x=nx, y=ny, aep=aep_mwh(nx, ny))
    raise RuntimeError("no turbine can be moved outside without breaking the spacing")


def with_pair_at(r, distance):
    """The record with one turbine moved to `distance` m from its nearest neighbour (AEP recomputed)."""
    x, y = r["x"], r["y"]
    farm = r["farm"]
    for i in range(x.size):
        d = np.hypot(x - x[i], y - y[i])
        d[i] = np.inf
        j = int(np.argmin(d))
        nx, ny = x.copy(), y.copy()
        nx[i] = x[j] + (x[i] - x[j]) * distance / d[j]
        ny[i] = y[j] + (y[i] - y[j]) * distance / d[j]
        others = np.hypot(nx - nx[i], ny - ny[i])
        others[[i, j]] = np.inf
        if clearance(farm, nx[i], ny[i]) >= 1.0 and others.min() >= SPACING + 1.0:
            return dict(r, x=nx, y=ny, aep=aep_mwh(nx, ny))
    raise RuntimeError("no pair can be brought together without breaking another constraint")


# ---- the worker files ---------------------------------------------------------------------------

def key_of(r):
    return "farm_%d_type_%d_seed_%d" % (r["farm"], r["type"], r["seed"])


def write_groups(h, records, entry):
    """optimized_layouts/<key>: a group (datasets + attributes) or a (T, 2) dataset with attributes."""
    g = h.require_group("optimized_layouts")
    for r in records:
        layout = np.stack([r["x"], r["y"]], axis=1)
        if entry == "group":
            e = g.create_group(key_of(r))
            e.create_dataset("layout", data=layout)
            e.create_dataset("initial_layout", data=np.stack([r["x0"], r["y0"]], axis=1))
        else:
            e = g.create_dataset(key_of(r), data=layout)
        e.attrs["aep"] = r["aep"]
        if r.get("aep_initial") is not None:
            e.attrs["aep_initial"] = r["aep_initial"]
        e.attrs["iterations"] = r["iterations"]
        e.attrs["evaluations"] = r["evaluations"]
        e.attrs["wall_s"] = r["wall_s"]


def write_rows(h, records):
    """One row per record, layouts NaN-padded to the longest."""
    n, tmax = len(records), max(r["x"].size for r in records)
    layout = np.full((n, tmax, 2), np.nan)
    initial = np.full((n, tmax, 2), np.nan)
    for k, r in enumerate(records):
        layout[k, :r["x"].size] = np.stack([r["x"], r["y"]], axis=1)
        initial[k, :r["x"].size] = np.stack([r["x0"], r["y0"]], axis=1)
    h.create_dataset("farm_id", data=np.array([r["farm"] for r in records], dtype=np.int32))
    h.create_dataset("farm_type", data=np.array([r["type"] for r in records], dtype=np.int32))
    h.create_dataset("seed", data=np.array([r["seed"] for r in records], dtype=np.int64))
    h.create_dataset("aep", data=np.array([r["aep"] for r in records]))
    h.create_dataset("aep_initial", data=np.array([r["aep_initial"] for r in records]))
    h.create_dataset("layout", data=layout)
    h.create_dataset("initial_layout", data=initial)
    h.create_dataset("iterations", data=np.array([r["iterations"] for r in records], dtype=np.int32))
    h.create_dataset("evaluations", data=np.array([r["evaluations"] for r in records], dtype=np.int64))
    h.create_dataset("wall_s", data=np.array([r["wall_s"] for r in records]))


def worker_file(path, records=(), shape="groups", entry="group"):
    with h5py.File(path, "w") as h:
        h.create_dataset("init", data=np.zeros(1))  # every worker's first write
        if records:
            write_rows(h, list(records)) if shape == "rows" else write_groups(h, records, entry)


def killed_writer(path, records, flushed):
    """A worker killed (SIGKILL) while its file, opened with libver='latest', is open for writing."""
    spec = json.dumps({"path": path, "flushed": flushed, "records": [
        {k: (v.tolist() if isinstance(v, np.ndarray) else v) for k, v in r.items()} for r in records]})
    subprocess.run([sys.executable, os.path.abspath(__file__), "--killed-writer"], input=spec, text=True, check=False)
    if not os.path.exists(path):
        raise RuntimeError(f"the killed writer left no {path}")


def killed_writer_child():
    spec = json.load(sys.stdin)
    h = h5py.File(spec["path"], "w", libver="latest")
    h.create_dataset("init", data=np.zeros(1))
    for k, r in enumerate(spec["records"]):
        r = {key: (np.array(v) if isinstance(v, list) else v) for key, v in r.items()}
        write_groups(h, [r], "group")
        if k < spec["flushed"]:
            h.flush()
    os.kill(os.getpid(), signal.SIGKILL)


def main(out):
    folder = os.path.join(out, "layouts.h5_temp")
    if os.path.exists(folder):
        shutil.rmtree(folder)
    os.makedirs(folder)
    shutil.copyfile(os.path.join(HERE, "campaign.yaml"), os.path.join(out, "campaign.yaml"))
    tasks = [(f, t, s) for f in sorted(FARMS) for t in sorted(FARM_TYPES) for s in SEEDS]
    result = {task: optimize(*task) for task in tasks}
    at = lambda name: os.path.join(folder, name)  # noqa: E731
    pick = lambda *keys: [result[k] for k in keys]  # noqa: E731
    fates = {}

    def good(name, records, note=None):
        for r in records:
            fates[key_of(r)] = {"fate": "good", "file": name, "aep": r["aep"], "aep_initial": r.get("aep_initial"),
                                "iterations": r["iterations"], "evaluations": r["evaluations"], "x": list(r["x"]), "y": list(r["y"]),
                                **({"note": note} if note else {})}

    open(at("worker_41001.h5"), "wb").close()
    g2 = pick((0, 0, 0), (0, 0, 1), (0, 1, 0), (1, 0, 0))
    worker_file(at("worker_41002.h5"), g2, entry="group")
    good("worker_41002.h5", g2)
    worker_file(at("worker_41003.h5"))
    g4 = pick((0, 1, 1), (1, 1, 0), (1, 0, 1))
    g4[2] = dict(g4[2], aep_initial=None)
    worker_file(at("worker_41004.h5"), g4, entry="dataset")
    good("worker_41004.h5", g4)
    g5 = pick((0, 0, 2), (0, 1, 2), (1, 0, 2), (1, 1, 1))
    worker_file(at("worker_41005.h5"), g5, shape="rows")
    good("worker_41005.h5", g5)
    worker_file(at("worker_41006.h5"))
    cut = pick((0, 0, 3), (0, 1, 3), (1, 1, 2))
    worker_file(at("worker_41007.h5"), cut)
    with open(at("worker_41007.h5"), "r+b") as fh:
        fh.truncate(os.path.getsize(at("worker_41007.h5")) // 2)
    for r in cut:
        fates[key_of(r)] = {"fate": "missing", "file": "worker_41007.h5", "note": "truncated file"}
    killed = pick((1, 0, 3), (1, 1, 3), (0, 0, 4))
    killed_writer(at("worker_41008.h5"), killed, flushed=2)
    good("worker_41008.h5", killed[:2], note="recovered from a file left open")
    fates[key_of(killed[2])] = {"fate": "missing", "file": "worker_41008.h5", "note": "written after the last flush"}
    again = optimize(0, 0, 1, stream=1)
    worker_file(at("worker_41009.h5"), [again, result[(0, 1, 4)]], entry="group")
    good("worker_41009.h5", [result[(0, 1, 4)]])
    fates[key_of(again)]["conflict"] = {"file": "worker_41009.h5", "aep": again["aep"]}
    outside = with_turbine_outside(result[(1, 0, 4)], 0.01)
    close = with_pair_at(result[(0, 0, 5)], 259.9995)
    worker_file(at("worker_41010.h5"), [outside, close, result[(1, 1, 4)]], entry="group")
    good("worker_41010.h5", [result[(1, 1, 4)]])
    for r, why in ((outside, "a turbine 0.01 m outside the boundary"), (close, "a pair 259.9995 m apart, minimum 260 m")):
        fates[key_of(r)] = {"fate": "slack", "file": "worker_41010.h5", "note": why, "aep": r["aep"], "aep_initial": r["aep_initial"],
                            "iterations": r["iterations"], "evaluations": r["evaluations"], "x": list(r["x"]), "y": list(r["y"])}
    for task in tasks:
        fates.setdefault("farm_%d_type_%d_seed_%d" % task, {"fate": "missing", "note": "in no worker file"})
    with open(os.path.join(out, "incident.json"), "w") as fh:
        json.dump({"folder": "layouts.h5_temp", "campaign": "campaign.yaml", "tasks": fates}, fh, indent=1)
    counts = {}
    for f in fates.values():
        counts[f["fate"]] = counts.get(f["fate"], 0) + 1
    print(f"wrote {folder}: {len(os.listdir(folder))} worker files for {len(tasks)} tasks "
          f"({counts.get('good', 0)} good records, {counts.get('slack', 0)} with optimizer slack, {counts.get('missing', 0)} missing)")


if __name__ == "__main__":
    if sys.argv[1:] == ["--killed-writer"]:
        killed_writer_child()
    else:
        target = sys.argv[1] if len(sys.argv) > 1 else "."
        os.makedirs(target, exist_ok=True)
        main(target)
