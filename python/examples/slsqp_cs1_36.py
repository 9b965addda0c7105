"""SciPy's SLSQP maximising wflo's AEP with its exact gradient on IEA37 case study 1, 36 turbines:
the circular boundary and the minimum spacing as inequality constraints with their Jacobians.

    PYTHONPATH=python python3 python/examples/slsqp_cs1_36.py --maxiter 50
"""
import argparse
import struct

import numpy as np
from scipy.optimize import minimize

import wflo

parser = argparse.ArgumentParser()
parser.add_argument("--maxiter", type=int, default=50)
args = parser.parse_args()

with wflo.Engine() as engine:
    farm = engine.farm("iea37-cs1-36")
    n, (x0, y0) = farm.n, farm.baseline
    radius, spacing = farm.boundary["radius"], farm.min_spacing_m
    i, j = np.triu_indices(n, 1)
    scale = 1e-5  # AEP in units of 100 GWh: SLSQP's tolerances suit O(1) objectives

    def objective(v):
        r = farm.aep_and_gradient(v[:n], v[n:])
        return -scale * r.aep_mwh, -scale * np.concatenate([r.grad_x, r.grad_y])

    def inside(v):  # radius² − x² − y² ≥ 0 per turbine
        return radius**2 - v[:n] ** 2 - v[n:] ** 2

    def inside_jac(v):
        return np.hstack([np.diag(-2 * v[:n]), np.diag(-2 * v[n:])])

    def apart(v):  # squared distance − spacing² ≥ 0 per pair
        dx, dy = v[:n][i] - v[:n][j], v[n:][i] - v[n:][j]
        return dx**2 + dy**2 - spacing**2

    def apart_jac(v):
        dx, dy = v[:n][i] - v[:n][j], v[n:][i] - v[n:][j]
        jac = np.zeros((len(i), 2 * n))
        rows = np.arange(len(i))
        jac[rows, i], jac[rows, j] = 2 * dx, -2 * dx
        jac[rows, n + i], jac[rows, n + j] = 2 * dy, -2 * dy
        return jac

    result = minimize(objective, np.concatenate([x0, y0]), jac=True, method="SLSQP",
                      constraints=[{"type": "ineq", "fun": inside, "jac": inside_jac},
                                   {"type": "ineq", "fun": apart, "jac": apart_jac}],
                      options={"maxiter": args.maxiter})
    x, y = result.x[:n], result.x[n:]
    final = farm.aep(x, y).aep_mwh
    print(f"baseline AEP {farm.aep(x0, y0).aep_mwh:.2f} MWh, SLSQP ({result.nit} iterations) {final:.2f} MWh")
    print(f"worst boundary margin {inside(result.x).min():.3g} m², worst spacing margin {apart(result.x).min():.3g} m²")
    # The layout and AEP exactly (little-endian float64 as hex), for a test to recompute.
    print("layout", struct.pack(f"<{2 * n}d", *result.x).hex(), "aep", struct.pack("<d", final).hex())
