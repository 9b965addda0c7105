"""Times DTU PyWake on the `site` bench case (bench/siteCase.ts writes it; bench/site.ts runs this
script beside wflo, interleaved, on one core): PyWake's XRSite carrying the case's speed-up field
(x, y; linear interpolation, bounds checked), TI 0.1 and the case's probability table P(wd, ws), so
that PyWake's own `aep` is the case's AEP; the model from the case's `source.call`
(Bastankhah_PorteAgel_2014 with the case's k). AEP calls, then `aep_gradients(autograd, ['x', 'y'])`.

usage: PYTHONPATH=<PyWake source>:<autograd source>[:<folder with an import guard>] \
       python3 pywake_site_time.py [time] CASE REPEATS [GRAD_REPEATS]
Prints one JSON line: PyWake's AEP (MWh), CPU and wall seconds of every call after one warm-up
(GRAD_REPEATS defaults to REPEATS; 0 skips the gradient), the load average.
"""
import json, os, sys, time
import numpy as np, yaml, xarray as xr
try:
    import pywake_lfs_guard  # noqa: F401  (a source mirror without git-lfs data needs it)
except ImportError:
    pass
from py_wake.site import XRSite
from py_wake.wind_turbines import WindTurbine
from py_wake.wind_turbines.power_ct_functions import PowerCtTabular
from py_wake.literature.gaussian_models import Bastankhah_PorteAgel_2014
from py_wake.utils.gradients import autograd

args = sys.argv[1:]
if args and args[0] == 'time':  # the mode word bench/realFarms.ts pywake() passes first
    args = args[1:]
case_file, repeats = args[0], int(args[1])
grad_repeats = int(args[2]) if len(args) > 2 else repeats
case = yaml.safe_load(open(case_file))
t, w, lay, s = case['turbine'], case['wind'], case['layout'], case['site']['speedup']
assert case['source']['call'].startswith('Bastankhah_PorteAgel_2014('), case['source']['call']
wd, ws = np.asarray(w['wind_direction'], float), np.asarray(w['wind_speed'], float)
P = np.asarray(w['probability'], float)
x, y = np.asarray(lay['x'], float), np.asarray(lay['y'], float)
pc, cc = t['power_curve'], t['ct_curve']
wt = WindTurbine(name=t['name'], diameter=t['rotor_diameter'], hub_height=t['hub_height'],
                 powerCtFunction=PowerCtTabular(pc['wind_speed'], pc['power_w'], 'w', cc['ct']))
ds = xr.Dataset(data_vars={'Speedup': (('x', 'y'), np.asarray(s['values'], float)), 'P': (('wd', 'ws'), P),
                           'TI': w['turbulence_intensity']},
                coords={'x': np.asarray(s['x'], float), 'y': np.asarray(s['y'], float), 'wd': wd, 'ws': ws})
wfm = Bastankhah_PorteAgel_2014(XRSite(ds, interp_method='linear'), wt, k=case['model']['k'])


def timed(f, n):
    wall, cpu = [], []
    for _ in range(n):
        t0, c0 = time.perf_counter(), time.process_time()
        r = f()
        wall.append(time.perf_counter() - t0); cpu.append(time.process_time() - c0)
    return r, wall, cpu


aep_mwh = float(wfm.aep(x, y, wd=wd, ws=ws)) * 1e3  # GWh -> MWh; also the warm-up
_, aep_wall, aep_cpu = timed(lambda: wfm.aep(x, y, wd=wd, ws=ws), repeats)
out = {'peer': 'pywake', 'what': "XRSite(Speedup(x, y)), Bastankhah_PorteAgel_2014, aep and aep_gradients(autograd, ['x', 'y'])",
       'n': len(x), 'aep_mwh': aep_mwh, 'aep_wall_s': aep_wall, 'aep_cpu_s': aep_cpu}
if grad_repeats > 0:
    grad_fn = wfm.aep_gradients(autograd, ['x', 'y'])
    g, gw, gc = timed(lambda: np.asarray(grad_fn(x, y, wd=wd, ws=ws)) * 1e3, grad_repeats)
    out.update({'grad_wall_s': gw, 'grad_cpu_s': gc, 'grad_max_abs_mwh_per_m': float(np.abs(g).max()),
                'grad_x0_y0': [float(g[0][0]), float(g[1][0])]})
out['load'] = open('/proc/loadavg').read().split()[:3]
print(json.dumps(out))
