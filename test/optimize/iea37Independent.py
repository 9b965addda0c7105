"""An independent check of wflo's record layouts: the IEA Wind Task 37 case-study AEP written from the
case studies' own description (iea37-wakemodel.pdf and the case-study announcements), in numpy,
sharing no code with wflo; run by test/optimize/independentRecords.test.ts.

    /usr/bin/python3 iea37Independent.py REPO

The model (as the case studies define it):
- wind frame: a wind from direction theta (degrees from north, clockwise) blows towards theta + 180;
  x' is the downwind distance, y' the crosswind one;
- Bastankhah's Gaussian wake simplified for the case studies: a turbine j waked by i (x' > 0 behind
  i) loses the fraction (1 - sqrt(1 - Ct / (8 sigma^2 / D^2))) exp(-0.5 (y'/sigma)^2) of the
  free-stream speed, sigma = k* x' + D / sqrt(8), k* = 0.0324555, Ct = 8/9;
- the losses a turbine sees are combined as the root of the sum of their squares;
- power: 0 below cut-in and from cut-out on, P_rated ((V - V_in) / (V_r - V_in))^3 from cut-in to
  rated, P_rated from rated to cut-out;
- AEP = 8760 h x sum over directions and speeds of the bin's probability x the farm's power (MWh).

Data: the case-study facts in REPO/test/data/iea37/facts.yaml (turbines, roses, boundaries, the
published baseline layouts with their published AEP) and the 360 x 20 rose of case study 4 in
REPO/examples/records/iea37-windrose-cs4.yaml. First the formula is checked against the published
baseline AEPs (cs1 16/36/64 turbines on the 16-direction rose; cs3 and cs4 on the 20 x 20 rose);
then every layout file of REPO/examples/results is checked: its AEP by this formula on its case's
published rose, its feasibility (inside the circle or one of the polygons within 1e-6 m; every pair
at least 2D apart, 1e-6 m tolerance) and the best known feasible AEP of its case
(REPO/examples/records/best-known.json). Prints one JSON document; asserts nothing itself.

A file may record its AEP on another measure than its case's benchmark rose: with `wflo.directions:
{spread: n}` (issue 28) it is the AEP with each bin of the rose spread evenly over its width in n
sub-directions (at the midpoints theta + ((j + 1/2)/n - 1/2) w, j = 0 .. n-1, each with the
probability p/n; w is the bin's width, half the gap between its two neighbours' directions), and a
case study 4 file that carries the 20-direction rose records its AEP on that rose (the case
study's own 20 x 20 rose) rather than on the 360 x 20 one. Every file is also scored under every
measure (`measures`): its benchmark rose(s) and each of them spread over 20 sub-directions.
"""
import glob
import json
import math
import os
import sys

import numpy as np
import yaml

# libyaml's parser when python3-yaml has it (Debian's does): the same documents, read some 20x faster.
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def load_yaml(path):
    with open(path) as f:
        return yaml.load(f, Loader=_LOADER)


K_STAR = 0.0324555
CT = 8.0 / 9.0
HOURS = 8760.0


def farm_aep_mwh(x, y, diameter, rated_w, cut_in, rated_speed, cut_out, directions, speeds, prob):
    """AEP (MWh) of the layout; prob[d][s] is the probability of direction d and speed s. The
    directions are taken CHUNK at a time as one array (the formula is per direction; the chunks
    only spare the interpreter a loop of thousands of small numpy calls on a 360 x 20 rose)."""
    x = np.asarray(x, float)
    y = np.asarray(y, float)
    speeds = np.asarray(speeds, float)
    prob = np.asarray(prob, float).reshape(len(directions), len(speeds))
    n = len(x)
    chunk = max(1, 2_000_000 // max(1, n * n))
    by_direction = []
    for start in range(0, len(directions), chunk):
        t = np.radians(np.asarray(directions[start:start + chunk], float))[:, None]
        # Unit vector the wind blows towards (from theta, clockwise from north): -(sin t, cos t).
        wx, wy = -np.sin(t), -np.cos(t)
        down = x[None, :] * wx + y[None, :] * wy  # [direction, turbine]
        cross = -x[None, :] * wy + y[None, :] * wx
        dx = down[:, :, None] - down[:, None, :]  # [d, j, i]: how far j is downwind of i
        dy = cross[:, :, None] - cross[:, None, :]
        behind = dx > 0.0
        # The deficit only where j is behind i (0 elsewhere): computed on those pairs alone.
        dxb = dx[behind]
        sigma = K_STAR * dxb + diameter / math.sqrt(8.0)
        deficit = np.zeros_like(dx)
        deficit[behind] = (1.0 - np.sqrt(1.0 - CT / (8.0 * sigma**2 / diameter**2))) * np.exp(-0.5 * (dy[behind] / sigma) ** 2)
        loss = np.sqrt(np.sum(deficit**2, axis=2))  # [d, j]
        v = speeds[None, None, :] * (1.0 - loss[:, :, None])  # directions x turbines x speeds
        power = np.where((v >= cut_in) & (v < rated_speed), rated_w * ((v - cut_in) / (rated_speed - cut_in)) ** 3, 0.0)
        power = np.where((v >= rated_speed) & (v < cut_out), rated_w, power)
        e = HOURS * np.sum(prob[start:start + chunk] * power.sum(axis=1), axis=1) / 1e6
        by_direction.extend(float(v) for v in e)
    total = 0.0
    for e in by_direction:
        total += e
    return total, by_direction


def rose_from_facts(w):
    if "speed_ms" in w:
        return list(w["directions_deg"]), [w["speed_ms"]], [[f] for f in w["direction_frequency"]]
    return list(w["directions_deg"]), list(w["speeds_ms"]), [[f * s for s in row] for f, row in zip(w["direction_frequency"], w["speed_frequency"])]


def rose_from_iea37_file(path):
    doc = load_yaml((path))
    p = doc["definitions"]["wind_inflow"]["properties"]
    dirs = p["direction"]["bins"]
    dfreq = p["direction"]["frequency"]
    speeds = p["speed"]["bins"]
    sfreq = p["speed"]["frequency"]
    return list(dirs), list(speeds), [[f * s for s in row] for f, row in zip(dfreq, sfreq)]


def bin_widths(directions):
    """Each bin's width (degrees): half the gap between its neighbours' directions, around the circle."""
    nd = len(directions)
    if nd == 1:
        return [360.0]
    order = sorted(range(nd), key=lambda i: directions[i])
    widths = [0.0] * nd
    for k, i in enumerate(order):
        before = directions[order[k - 1]] - (360.0 if k == 0 else 0.0)
        after = directions[order[(k + 1) % nd]] + (360.0 if k == nd - 1 else 0.0)
        widths[i] = (after - before) / 2.0
    return widths


def spread_rose(rose, n):
    """The rose with each bin spread evenly over its width in n sub-directions (midpoints, p/n each)."""
    dirs, speeds, prob = rose
    widths = bin_widths(dirs)
    out_dirs, out_prob = [], []
    for d, theta in enumerate(dirs):
        for j in range(n):
            out_dirs.append((theta + ((j + 0.5) / n - 0.5) * widths[d]) % 360.0)
            out_prob.append([p / n for p in prob[d]])
    return out_dirs, speeds, out_prob


def point_segment_distance(px, py, ax, ay, bx, by):
    vx, vy = bx - ax, by - ay
    t = ((px - ax) * vx + (py - ay) * vy) / (vx * vx + vy * vy)
    t = min(1.0, max(0.0, t))
    return math.hypot(px - (ax + t * vx), py - (ay + t * vy))


def inside_polygon(px, py, poly):
    inside = False
    n = len(poly)
    for i in range(n):
        ax, ay = poly[i]
        bx, by = poly[(i + 1) % n]
        if (ay > py) != (by > py) and px < ax + (py - ay) * (bx - ax) / (by - ay):
            inside = not inside
    return inside


def outside_by(px, py, boundary, polygons):
    """How far (m) the point lies outside the site (0 inside)."""
    if "circle" in boundary:
        c = boundary["circle"]
        return max(0.0, math.hypot(px - c["center"][0], py - c["center"][1]) - c["radius_m"])
    best = math.inf
    for name in boundary["polygons"]:
        poly = polygons[name]
        if inside_polygon(px, py, poly):
            return 0.0
        best = min(best, min(point_segment_distance(px, py, *poly[i], *poly[(i + 1) % len(poly)]) for i in range(len(poly))))
    return best


def min_spacing(x, y):
    x = np.asarray(x)
    y = np.asarray(y)
    d = np.hypot(x[:, None] - x[None, :], y[:, None] - y[None, :])
    np.fill_diagonal(d, np.inf)
    return float(d.min())


def main(repo):
    facts = load_yaml((os.path.join(repo, "test", "data", "iea37", "facts.yaml")))
    best_known = json.load(open(os.path.join(repo, "examples", "records", "best-known.json")))
    turbines = facts["turbines"]
    out = {"baselines": [], "files": []}

    def turbine_args(name):
        t = turbines[name]
        return t["diameter_m"], t["rated_power_w"], t["cut_in_ms"], t["rated_speed_ms"], t["cut_out_ms"]

    # 1. The checker against the published baseline AEPs.
    for name in ["ex16", "ex36", "ex64", "ex-opt3", "ex-opt4"]:
        b = facts["baselines"][name]
        dirs, speeds, prob = rose_from_facts(facts["winds"][b["wind"]])
        aep, by_dir = farm_aep_mwh(b["x_m"], b["y_m"], *turbine_args(b["turbine"]), dirs, speeds, prob)
        out["baselines"].append({"name": name, "aep": aep, "published": b["aep_mwh"], "by_direction": by_dir, "published_by_direction": b["aep_by_direction_mwh"]})

    # 2. The layout files of examples/results (and of its cs3-cs4 folder).
    rose360 = rose_from_iea37_file(os.path.join(repo, "examples", "records", "iea37-windrose-cs4.yaml"))
    rose20 = rose_from_facts(facts["winds"]["cs3"])
    rose16 = rose_from_facts(facts["winds"]["cs1"])
    files = sorted(glob.glob(os.path.join(repo, "examples", "results", "*.yaml")) + glob.glob(os.path.join(repo, "examples", "results", "cs3-cs4", "*.yaml")))
    for f in files:
        doc = load_yaml((f))
        case = doc["wflo"]["case"]
        x, y = doc["layout"]["x"], doc["layout"]["y"]
        n = len(x)
        spread = int((doc["wflo"].get("directions") or {}).get("spread", 0))
        if case.startswith("iea37-cs1"):
            turbine, boundary, key = "iea37-335mw", facts["boundaries"]["cs1-%d" % n], "iea37-cs1-%d" % n
            roses = {"bins": rose16}
        elif case.startswith("iea37-cs3") or case.startswith("iea37-cs4"):
            # Case studies 3 and 4 are compared on the 360 x 20 rose, or on their own 20 x 20 rose
            # by a file that carries it.
            study = "cs3" if case.startswith("iea37-cs3") else "cs4"
            turbine, boundary = "iea37-10mw", facts["boundaries"][study]
            roses = {"bins-360x20": rose360, "bins-20x20": rose20}
            own = "bins-20x20" if len(doc["wind"]["wind_direction"]) == 20 and spread == 0 else "bins-360x20"
            key = "iea37-%s-%s" % (study, own[5:])
        else:
            continue
        measures = {}
        for name, rose in roses.items():
            measures[name] = farm_aep_mwh(x, y, *turbine_args(turbine), *rose)[0]
            measures[name.replace("bins", "spread20")] = farm_aep_mwh(x, y, *turbine_args(turbine), *spread_rose(rose, 20))[0]
        if case.startswith("iea37-cs1"):
            measure = "spread%d" % spread if spread else "bins"
            own_rose = rose16
        else:
            measure = own if not spread else "spread%d-%s" % (spread, own[5:])
            own_rose = roses[own]
        # The file's own measure is one of those just computed when it is its rose or its spread
        # over 20 (the same call); another spread is computed here.
        own_name = "bins" if not spread else "spread%d" % spread
        known = {"bins": measures.get(own if not case.startswith("iea37-cs1") else "bins"),
                 "spread20": measures.get((own if not case.startswith("iea37-cs1") else "bins").replace("bins", "spread20"))}
        aep = known.get(own_name)
        if aep is None:
            aep = farm_aep_mwh(x, y, *turbine_args(turbine), *(spread_rose(own_rose, spread) if spread else own_rose))[0]
        spacing = min_spacing(x, y)
        outside = max(outside_by(px, py, boundary, facts["boundaries"]["polygons"]) for px, py in zip(x, y))
        out["files"].append({
            "file": os.path.relpath(f, os.path.join(repo, "examples", "results")), "case": case, "n": n,
            "aep": aep, "recorded": doc["wflo"]["aep_mwh"], "min_spacing_m": spacing,
            "required_spacing_m": 2 * turbines[turbine]["diameter_m"], "max_outside_m": outside,
            "best_known": best_known.get(key, {}).get("aep_mwh"), "measure": measure, "measures": measures,
        })
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main(sys.argv[1])
