"""Peer for the quality-per-second benchmark (bench/optimizeQuality.ts): DTU's PyWake computes the
AEP and its gradient (autograd), SciPy's SLSQP optimizes the layout (slsqp_driver.py, shared with
wflo_slsqp.py), restarted from new random feasible layouts until the parent process kills this one.

    python3 pywake_slsqp.py CASE.json SEED

CASE.json (written by the benchmark from a wflo case): turbine (diameter, hub height, cut-in,
cut-out, rated speed and power, constant Ct), wind (directions in degrees, speeds, probability by
direction x speed, TI), boundary (circle or polygons), minimum spacing, turbine count.

The model is PyWake's IEA37SimpleBastankhahGaussian (the IEA37 case-study wake; the same AEP as
wflo's engine). Output as slsqp_driver.py states, times in CPU seconds of this process
(time.process_time) since the case was loaded. Nothing here is copied from PyWake or TopFarm; only
their public APIs are called.
"""
import json
import os
import sys
import types
import warnings

warnings.filterwarnings("ignore")

# PyWake's GitHub mirror lacks one git-lfs table that a few literature models load at import time;
# the IEA37 model never uses it. A placeholder module keeps the import from failing.
try:
    import pywake_lfs_guard  # noqa: F401
except ImportError:
    _guard = types.ModuleType("py_wake.rotor_avg_models.gaussian_overlap_model")

    class GaussianOverlapAvgModel:  # never used by the IEA37 model
        def __init__(self, *a, **k):
            pass

    _guard.GaussianOverlapAvgModel = GaussianOverlapAvgModel
    sys.modules[_guard.__name__] = _guard

import numpy as np  # noqa: E402
import xarray as xr  # noqa: E402
from py_wake import IEA37SimpleBastankhahGaussian  # noqa: E402
from py_wake.site import XRSite  # noqa: E402
from py_wake.wind_turbines import WindTurbine  # noqa: E402
from py_wake.wind_turbines.power_ct_functions import CubePowerSimpleCt  # noqa: E402
from py_wake.utils.gradients import autograd  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import slsqp_driver  # noqa: E402


def load(path):
    with open(path) as f:
        case = json.load(f)
    t = case["turbine"]
    wt = WindTurbine(t["name"], t["diameter"], t["hub_height"],
                     CubePowerSimpleCt(t["cut_in"], t["cut_out"], t["rated_speed"], t["rated_power_w"], "W", t["ct"], ct_idle=None))
    w = case["wind"]
    wd, ws = np.array(w["directions"], float), np.array(w["speeds"], float)
    p = np.array(w["probability"], float).reshape(len(wd), len(ws))
    site = XRSite(xr.Dataset(data_vars={"P": (("wd", "ws"), p), "TI": w["ti"]}, coords={"wd": wd, "ws": ws}))
    wfm = IEA37SimpleBastankhahGaussian(site, wt)
    return case, wfm, wd, ws


def main():
    case, wfm, wd, ws = load(sys.argv[1])
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    gradient = wfm.aep_gradients(autograd, ["x", "y"])

    def aep_gwh(x, y):
        return float(wfm.aep(x, y, wd=wd, ws=ws))

    def aep_and_gradient_gwh(x, y):  # PyWake's AEP, then its autograd gradient (as before the driver was shared)
        return aep_gwh(x, y), np.asarray(gradient(x, y, wd=wd, ws=ws))

    slsqp_driver.run(case, aep_gwh, aep_and_gradient_gwh, seed)


if __name__ == "__main__":
    main()
