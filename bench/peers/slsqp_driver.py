"""The SLSQP driver shared by the quality-per-second peers (bench/optimizeQuality.ts):
SciPy's SLSQP on a layout problem, restarted from new random feasible layouts until the parent
process kills it, printing every new best feasible layout. The AEP and its gradient come from the
caller: DTU's PyWake (pywake_slsqp.py) or wflo's engine through its Python package
(wflo_slsqp.py), so the two peers differ only in the engine.

Variables are the coordinates in rotor diameters; constraints (1 mm margins, as wflo's): every pair
at least the spacing apart (squared distances), every turbine inside (circle: squared radius;
polygons: signed distance to the nearest part, with its gradient).

Output: one JSON line per new best feasible layout, {"t": CPU seconds since the case was loaded,
"aep": the engine's AEP in MWh, "x": [...], "y": [...]}; the parent recomputes the AEP and
feasibility with wflo. Nothing here is copied from PyWake or TopFarm.
"""
import json
import time

import numpy as np
from scipy.optimize import minimize

MARGIN = 1e-3  # m


class Boundary:
    def __init__(self, spec):
        self.kind = spec["kind"]
        if self.kind == "circle":
            self.cx, self.cy = spec["center"]
            self.r = spec["radius"]
        else:
            self.parts = [np.array(p, float) for p in spec["polygons"]]
            self.box = np.array([[p[:, 0].min(), p[:, 1].min(), p[:, 0].max(), p[:, 1].max()] for p in self.parts])

    def signed(self, x, y):
        """Signed distance (m, + inside) of every point and its gradient (dx, dy)."""
        if self.kind == "circle":
            dx, dy = x - self.cx, y - self.cy
            d = np.sqrt(dx * dx + dy * dy) + 1e-300
            return self.r - d, -dx / d, -dy / d
        best = np.full(x.shape, -np.inf)
        gx = np.zeros(x.shape)
        gy = np.zeros(x.shape)
        for poly in self.parts:
            a = poly
            b = np.roll(poly, -1, axis=0)
            ex, ey = (b - a)[:, 0], (b - a)[:, 1]
            px, py = x[:, None] - a[None, :, 0], y[:, None] - a[None, :, 1]
            t = np.clip((px * ex + py * ey) / (ex * ex + ey * ey), 0, 1)
            qx, qy = px - t * ex, py - t * ey
            dist2 = qx * qx + qy * qy
            k = np.argmin(dist2, axis=1)
            rows = np.arange(len(x))
            d = np.sqrt(dist2[rows, k]) + 1e-300
            crossing = ((a[None, :, 1] > y[:, None]) != (b[None, :, 1] > y[:, None])) & \
                (x[:, None] < a[None, :, 0] + (y[:, None] - a[None, :, 1]) / (b[None, :, 1] - a[None, :, 1] + 1e-300) * ex[None, :])
            inside = np.sum(crossing, axis=1) % 2 == 1
            s = np.where(inside, 1.0, -1.0)
            sd = s * d
            better = sd > best
            best = np.where(better, sd, best)
            gx = np.where(better, s * qx[rows, k] / d, gx)
            gy = np.where(better, s * qy[rows, k] / d, gy)
        return best, gx, gy

    def random_point(self, rng):
        if self.kind == "circle":
            while True:
                px, py = rng.uniform(-self.r, self.r, 2)
                if px * px + py * py <= (self.r - MARGIN) ** 2:
                    return px + self.cx, py + self.cy
        lo, hi = self.box[:, :2].min(axis=0), self.box[:, 2:].max(axis=0)
        while True:
            px, py = rng.uniform(lo, hi)
            if self.signed(np.array([px]), np.array([py]))[0][0] >= MARGIN:
                return px, py


def random_layout(boundary, n, spacing, rng):
    for _ in range(1000):
        xs, ys = [], []
        for _ in range(200 * n):
            px, py = boundary.random_point(rng)
            if all((px - a) ** 2 + (py - b) ** 2 >= (spacing + MARGIN) ** 2 for a, b in zip(xs, ys)):
                xs.append(px)
                ys.append(py)
                if len(xs) == n:
                    return np.array(xs), np.array(ys)
    raise RuntimeError("no random feasible layout")


def run(case, aep_gwh, aep_and_gradient_gwh, seed, clock=time.process_time):
    """Restarted SLSQP on `case` (the CASE.json document) until killed: `aep_gwh(x, y)` the AEP in
    GWh, `aep_and_gradient_gwh(x, y)` the AEP and its gradient (d/dx, d/dy rows, GWh per m), each
    computed as the engine does it best (one call where it has one), `clock()` the CPU seconds
    the reported times count (the peer's own process, plus its engine's where it has one)."""
    t0 = clock()
    rng = np.random.default_rng(seed)
    n, S, D = case["n_turbines"], case["min_spacing"], case["turbine"]["diameter"]
    boundary = Boundary(case["boundary"])
    iu, ju = np.triu_indices(n, 1)
    cache = {}

    def objective(z):
        x, y = z[:n] * D, z[n:] * D
        value, g = aep_and_gradient_gwh(x, y)  # GWh; d AEP / d (x, y), GWh per m
        cache[z.tobytes()] = value
        return -value, -np.concatenate([g[0], g[1]]) * D

    def spacing(z):
        x, y = z[:n], z[n:]
        dx, dy = x[iu] - x[ju], y[iu] - y[ju]
        return dx * dx + dy * dy - ((S + MARGIN) / D) ** 2

    def spacing_jac(z):
        x, y = z[:n], z[n:]
        dx, dy = x[iu] - x[ju], y[iu] - y[ju]
        J = np.zeros((len(iu), 2 * n))
        rows = np.arange(len(iu))
        J[rows, iu] = 2 * dx
        J[rows, ju] = -2 * dx
        J[rows, n + iu] = 2 * dy
        J[rows, n + ju] = -2 * dy
        return J

    def inside(z):
        return (boundary.signed(z[:n] * D, z[n:] * D)[0] - MARGIN) / D

    def inside_jac(z):
        _, gx, gy = boundary.signed(z[:n] * D, z[n:] * D)
        return np.hstack([np.diag(gx), np.diag(gy)])

    constraints = [{"type": "ineq", "fun": spacing, "jac": spacing_jac}, {"type": "ineq", "fun": inside, "jac": inside_jac}]
    best = -np.inf

    def offer(z):
        nonlocal best
        x, y = z[:n] * D, z[n:] * D
        dx, dy = x[iu] - x[ju], y[iu] - y[ju]
        if np.sqrt(dx * dx + dy * dy).min() < S - 1e-6 or boundary.signed(x, y)[0].min() < -1e-6:
            return
        value = cache.get(z.tobytes())
        if value is None:
            value = aep_gwh(x, y)
        if value * 1e3 > best:
            best = value * 1e3
            print(json.dumps({"t": clock() - t0, "aep": best, "x": x.tolist(), "y": y.tolist()}), flush=True)

    while True:
        x0, y0 = random_layout(boundary, n, S, rng)
        z0 = np.concatenate([x0, y0]) / D
        offer(z0)
        r = minimize(objective, z0, jac=True, method="SLSQP", constraints=constraints, callback=offer,
                     options={"maxiter": 300, "ftol": 1e-9})
        offer(r.x)
