"""Times DTU PyWake's AEP gradient (autograd through PropagateDownwind, `aep_gradients`) on a
real-turbine case file written in the format of test/data/reference/ (a V80 farm with a 360 x 23
probability table, e.g. a 100-turbine 5D grid), and compares it with wflo's exact gradient.

usage: PYTHONPATH=<PyWake source>:<autograd source>[:<folder with an import guard>] \
       python3 pywake_grad.py CASE.yaml [REPEATS=1] [--aep-repeats=N (default REPEATS)] [--no-wflo]
Prints one JSON line: PyWake's AEP (MWh) and its relative difference from the case's expected AEP,
the seconds of each AEP call and of each gradient call (wall and CPU: on a loaded machine the
process's CPU time is the steadier figure) and their medians, and the largest difference
between PyWake's and wflo's gradient relative to the largest gradient component
(max_i |g_pywake - g_wflo| / max_i |g_wflo|), and at the worst component PyWake's own AEP by central
differences (step 1 mm) as a referee between the two. wflo's gradient comes from this checkout's built
`dist/` (run `npx tsc -p tsconfig.json` first; WFLO=<checkout> picks another one) through `node`.
The model is rebuilt from the case's `source.call` (the name the case generator used). The case's
site (uniform, TI 0.1, probability table P(wd, ws)) becomes an XRSite carrying that table, so that
PyWake's own `aep` is the case's AEP and `aep_gradients` differentiates that AEP.
"""
import json, os, subprocess, sys, time
import numpy as np, yaml, xarray as xr
try:
    import pywake_lfs_guard  # noqa: F401  (a source mirror without git-lfs data needs it; not needed otherwise)
except ImportError:
    pass
from py_wake.site import XRSite
from py_wake.wind_turbines import WindTurbine
from py_wake.wind_turbines.power_ct_functions import PowerCtTabular
from py_wake.literature.gaussian_models import Bastankhah_PorteAgel_2014, Niayifar_PorteAgel_2016
from py_wake.literature.noj import Jensen_1983
from py_wake.wind_farm_models.engineering_models import PropagateDownwind
from py_wake.deficit_models.gaussian import TurboGaussianDeficit
from py_wake.deficit_models.utils import ct2a_mom1d
from py_wake.superposition_models import SquaredSum
from py_wake.utils.gradients import autograd

HERE = os.path.dirname(os.path.abspath(__file__))
args = [a for a in sys.argv[1:] if not a.startswith('--')]
case_file, repeats = args[0], int(args[1]) if len(args) > 1 else 1
with_wflo = '--no-wflo' not in sys.argv
aep_repeats = next((int(a.split('=')[1]) for a in sys.argv if a.startswith('--aep-repeats=')), repeats)
case = yaml.safe_load(open(case_file))
call = case['source']['call']
t, w, lay = case['turbine'], case['wind'], case['layout']
wd, ws = np.asarray(w['wind_direction'], float), np.asarray(w['wind_speed'], float)
P = np.asarray(w['probability'], float)
assert P.shape == (len(wd), len(ws)), 'probability must be wind_direction x wind_speed'
x, y = np.asarray(lay['x'], float), np.asarray(lay['y'], float)

pc, cc = t['power_curve'], t['ct_curve']
assert pc['wind_speed'] == cc['wind_speed'], 'power and Ct tables on the same speeds'
wt = WindTurbine(name=t['name'], diameter=t['rotor_diameter'], hub_height=t['hub_height'],
                 powerCtFunction=PowerCtTabular(pc['wind_speed'], pc['power_w'], 'w', cc['ct']))
site = XRSite(ds=xr.Dataset(data_vars={'P': (('wd', 'ws'), P), 'TI': w['turbulence_intensity']},
                            coords={'wd': wd, 'ws': ws}))


def turbopark():
    d = TurboGaussianDeficit(ct2a=ct2a_mom1d, groundModel=None, rotorAvgModel=None)
    d.WS_key = 'WS_jlk'  # scaled by the ambient speed at the downstream turbine, as the case says
    return PropagateDownwind(site, wt, wake_deficitModel=d, superpositionModel=SquaredSum())


models = {
    'bastankhah2014': lambda: Bastankhah_PorteAgel_2014(site, wt, k=case['model']['k']),
    'niayifar2016': lambda: Niayifar_PorteAgel_2016(site, wt, rotorAvgModel=None),
    'turbopark2022': turbopark,
    'jensen1983': lambda: Jensen_1983(site, wt),
}
if call not in models:
    sys.exit(f'{case_file}: source.call {call!r} is not one of {sorted(models)}')
wfm = models[call]()

aep_mwh = float(wfm.aep(x, y, wd=wd, ws=ws)) * 1e3  # GWh -> MWh (also the warm-up)
aep_wall, aep_cpu = [], []
for _ in range(aep_repeats):
    t0, c0 = time.perf_counter(), time.process_time()
    wfm.aep(x, y, wd=wd, ws=ws)
    aep_wall.append(time.perf_counter() - t0); aep_cpu.append(time.process_time() - c0)
expected = case.get('expected', {}).get('aep_mwh')
grad_fn = wfm.aep_gradients(autograd, ['x', 'y'])
wall, cpu = [], []
for _ in range(repeats):
    t0, c0 = time.perf_counter(), time.process_time()
    g = np.asarray(grad_fn(x, y, wd=wd, ws=ws)) * 1e3  # GWh/m -> MWh/m, shape (2, n)
    wall.append(time.perf_counter() - t0); cpu.append(time.process_time() - c0)

out = {'peer': 'pywake', 'what': 'aep_gradients(autograd, [x, y])', 'case': os.path.basename(case_file), 'call': call,
       'n': len(x), 'aep_mwh': aep_mwh, 'aep_rel_vs_case': None if expected is None else (aep_mwh - expected) / expected,
       'aep_wall_s': aep_wall, 'aep_cpu_s': aep_cpu, 'aep_median_cpu_s': float(np.median(aep_cpu)),
       'grad_wall_s': wall, 'grad_cpu_s': cpu, 'median_wall_s': float(np.median(wall)), 'median_cpu_s': float(np.median(cpu))}
if with_wflo:
    root = os.environ.get('WFLO', os.path.join(HERE, '..', '..'))
    js = ("import { pathToFileURL } from 'node:url';"
          "const W = process.argv[1], f = process.argv[2];"
          "const { resolveAepRequest } = await import(pathToFileURL(`${W}/dist/src/io/aepInput.js`));"
          "const { createFarmEvaluator } = await import(pathToFileURL(`${W}/dist/src/physics/aep.js`));"
          "const c = resolveAepRequest({ file: f });"
          "const r = createFarmEvaluator(c.turbine, c.wind, c.model).aepWithGradient(c.layout.x, c.layout.y);"
          "process.stdout.write(JSON.stringify({ aep: r.aepMwh, gx: Array.from(r.gradX), gy: Array.from(r.gradY) }));")
    r = json.loads(subprocess.run(['node', '--input-type=module', '-e', js, os.path.abspath(root), os.path.abspath(case_file)],
                                  check=True, capture_output=True, text=True).stdout)
    gw = np.array([r['gx'], r['gy']])
    scale = float(np.abs(gw).max())
    out.update({'wflo_aep_mwh': r['aep'], 'aep_rel_wflo_vs_pywake': (r['aep'] - aep_mwh) / aep_mwh,
                'grad_max_abs_mwh_per_m': scale, 'grad_rel_max_diff': float(np.abs(g - gw).max()) / scale,
                'grad_rel_max_diff_componentwise_over_1e-3_of_max': float(
                    (np.abs(g - gw) / np.maximum(np.abs(gw), 1e-3 * scale)).max())})
    # Referee at the worst component: PyWake's own AEP by central differences (step 1 mm).
    k = np.unravel_index(np.abs(g - gw).argmax(), g.shape)
    xs, h = [x.copy(), y.copy()], 1e-3
    xs[k[0]][k[1]] += h; ap = float(wfm.aep(*xs, wd=wd, ws=ws)) * 1e3
    xs[k[0]][k[1]] -= 2 * h; am = float(wfm.aep(*xs, wd=wd, ws=ws)) * 1e3
    out['worst_component'] = {'coord': 'xy'[k[0]], 'turbine': int(k[1]), 'pywake_autograd': float(g[k]),
                              'wflo': float(gw[k]), 'pywake_aep_central_difference_1mm': (ap - am) / (2 * h)}
out['load'] = open('/proc/loadavg').read().split()[:3]
print(json.dumps(out))
