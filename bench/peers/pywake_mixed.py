"""Writes the PyWake reference cases for farms with several turbine types and farms with fixed
neighbouring turbines (test/data/reference/mixed-*.yaml, neighbours-*.yaml; SOURCE.md there).

usage (PyWake and autograd on PYTHONPATH):
    python3 bench/peers/pywake_mixed.py OUT_DIR

Turbines: PyWake's Vestas V80 (Horns Rev 1 example, D 80 m, hub 70 m) and Siemens SWT-2.3-93
(Lillgrund example, D 93 m, hub 65 m), both tabulated with linear interpolation. Wind: the Horns Rev 1
Weibull site's probabilities at 72 directions x 23 speeds, normalised; ambient TI 0.1 everywhere.
Flow: PropagateDownwind with a WindTurbines object of both types (`type=` per turbine); for the
neighbour cases the neighbours are extra turbines of the same simulation and the expected AEP is the
sum over the farm's own turbines only. This script is a generator for facts about PyWake; wflo does
not need Python or PyWake.
"""
import os
import sys
import types as pytypes

# PyWake's literature models build GaussianOverlapAvgModel() as a default argument at import time;
# it reads a data table that a checkout without git-lfs objects lacks. None of the models below uses
# it, so a stand-in module that fails only if used is registered first.
_stub = pytypes.ModuleType("py_wake.rotor_avg_models.gaussian_overlap_model")


class _UnusedGaussianOverlap:
    def __init__(self, *a, **k):
        pass

    def __call__(self, *a, **k):
        raise NotImplementedError("GaussianOverlapAvgModel is not available here")


_stub.GaussianOverlapAvgModel = _UnusedGaussianOverlap
sys.modules[_stub.__name__] = _stub

import numpy as np  # noqa: E402
import yaml  # noqa: E402
from py_wake.site import UniformSite  # noqa: E402
from py_wake.wind_turbines import WindTurbines  # noqa: E402
from py_wake.examples.data.hornsrev1 import Hornsrev1Site, V80  # noqa: E402
from py_wake.examples.data import hornsrev1, lillgrund  # noqa: E402
from py_wake.examples.data.lillgrund import SWT23  # noqa: E402
from py_wake.literature.gaussian_models import Bastankhah_PorteAgel_2014, Niayifar_PorteAgel_2016  # noqa: E402
from py_wake.literature.noj import Jensen_1983  # noqa: E402
from py_wake.wind_farm_models.engineering_models import PropagateDownwind  # noqa: E402
from py_wake.deficit_models.gaussian import TurboGaussianDeficit  # noqa: E402
from py_wake.deficit_models.utils import ct2a_mom1d  # noqa: E402
from py_wake.superposition_models import SquaredSum  # noqa: E402
from py_wake.rotor_avg_models import CGIRotorAvg  # noqa: E402
from py_wake.ground_models import Mirror  # noqa: E402

out_dir = sys.argv[1] if len(sys.argv) > 1 else 'cases'
os.makedirs(out_dir, exist_ok=True)

wd = np.arange(0, 360, 5.0)
ws = np.arange(3, 26, 1.0)
P = np.asarray(Hornsrev1Site().local_wind(x=np.array([0.]), y=np.array([0.]), wd=wd, ws=ws).P)
P = P.reshape(len(wd), len(ws)) if P.size == len(wd) * len(ws) else P[0]
P = P / P.sum()
site = UniformSite(p_wd=[1.0], ti=0.1)
wts = WindTurbines.from_WindTurbine_lst([V80(), SWT23()])

INTERPOLATION = 'linear between table points; power and Ct are 0 outside the table; at exactly the last speed the table value applies'
fl = lambda a: [float(v) for v in np.asarray(a).ravel()]  # noqa: E731
TURBINES = [
    {'name': 'V80', 'rotor_diameter': 80.0, 'hub_height': 70.0,
     'power_curve': {'wind_speed': fl(hornsrev1.power_curve[:, 0]), 'power_w': fl(hornsrev1.power_curve[:, 1])},
     'ct_curve': {'wind_speed': fl(hornsrev1.ct_curve[:, 0]), 'ct': fl(hornsrev1.ct_curve[:, 1])}, 'interpolation': INTERPOLATION},
    {'name': 'SWT23', 'rotor_diameter': 93.0, 'hub_height': 65.0,
     'power_curve': {'wind_speed': fl(lillgrund.power_curve[:, 0]), 'power_w': fl(lillgrund.power_curve[:, 1] * 1000.0)},
     'ct_curve': {'wind_speed': fl(lillgrund.ct_curve[:, 0]), 'ct': fl(lillgrund.ct_curve[:, 1])}, 'interpolation': INTERPOLATION},
]
assert wts.diameter([0, 1]).tolist() == [80.0, 93.0] and wts.hub_height([0, 1]).tolist() == [70.0, 65.0]


def turbopark(site, wt, rotor, ground=None):
    d = TurboGaussianDeficit(ct2a=ct2a_mom1d, groundModel=ground, rotorAvgModel=rotor)
    d.WS_key = 'WS_jlk'
    return PropagateDownwind(site, wt, wake_deficitModel=d, superpositionModel=SquaredSum())


MODELS = {
    'bastankhah2014': (lambda wt: Bastankhah_PorteAgel_2014(site, wt, k=0.0324555),
                       'Bastankhah_PorteAgel_2014(site, wts, k=0.0324555)',
                       {'deficit': 'Bastankhah & Porte-Agel 2014 Gaussian', 'k': 0.0324555, 'ceps': 0.2, 'ct2a': 'mom1d', 'use_effective_ws': True,
                        'rotor_average': 'rotor centre', 'superposition': 'linear sum', 'turbulence': None}),
    'niayifar2016': (lambda wt: Niayifar_PorteAgel_2016(site, wt, rotorAvgModel=None),
                     'Niayifar_PorteAgel_2016(site, wts, rotorAvgModel=None)',
                     {'deficit': 'Niayifar & Porte-Agel 2016 Gaussian (k from local TI)', 'ct2a': 'mom1d', 'turbulence': 'Crespo-Hernandez',
                      'a': [0.3837, 0.003678], 'ceps': 0.2, 'use_effective_ws': True, 'use_effective_ti': True,
                      'crespo_hernandez_c': [0.73, 0.8325, 0.0325, -0.32], 'added_turbulence_superposition': 'sqrt of max of squares (SqrMaxSum)',
                      'superposition': 'linear sum', 'rotor_average': 'rotor centre'}),
    'jensen1983': (lambda wt: Jensen_1983(site, wt),
                   'Jensen_1983(site, wts)',
                   {'deficit': 'NOJ (Jensen 1983) top-hat', 'k': 0.1, 'ct2a': 'madsen', 'rotor_average': 'area overlap',
                    'superposition': 'squared sum', 'turbulence': None}),
    'turbopark2022-cgi4': (lambda wt: turbopark(site, wt, CGIRotorAvg(4)),
                           'PropagateDownwind(site, wts, TurboGaussianDeficit(ct2a=ct2a_mom1d, groundModel=None, rotorAvgModel=CGIRotorAvg(4)) '
                           'with WS_key=WS_jlk, SquaredSum())',
                           {'deficit': 'TurbOPark (Nygaard et al. 2022)', 'A': 0.04, 'cTI': [1.5, 0.8], 'ceps': 0.25, 'ctlim': 0.999, 'ct2a': 'mom1d',
                            'ground': None, 'rotor_average': 'CGI 4 points', 'superposition': 'squared sum',
                            'deficit_scaled_by': 'ambient speed at the downstream turbine'}),
}

rng = np.random.default_rng(20)


def random_layout(n, side, min_dist):
    pts = []
    while len(pts) < n:
        p = rng.uniform(0, side, 2)
        if all(np.hypot(*(p - q)) >= min_dist for q in pts):
            pts.append(p)
    pts = np.array(pts)
    return pts[:, 0].round(1), pts[:, 1].round(1)


# Mixed farm: 16 turbines in a 2 km square at least 3 x 93 m apart, types drawn at random.
mx, my = random_layout(16, 2000.0, 3 * 93.0)
mtype = rng.integers(0, 2, 16)
# Neighbour cases: the farm is 9 V80 on a 3 x 3 grid at 5 D; 8 neighbours (both types) 1.5-2.5 km
# to the west and south-west, upstream of the prevailing Horns Rev wind.
gx, gy = np.meshgrid(np.arange(3) * 400.0, np.arange(3) * 400.0, indexing='ij')
fx, fy = gx.ravel(), gy.ravel()
ftype = np.zeros(9, dtype=int)
nx = np.array([-1500.0, -1500.0, -1500.0, -1500.0, -2100.0, -2100.0, -1100.0, -600.0])
ny = np.array([-200.0, 250.0, 700.0, 1150.0, 0.0, 900.0, -1400.0, -1600.0])
ntype = np.array([0, 1, 0, 1, 1, 0, 1, 0])

NOTE = 'Reference values computed with PyWake; they are facts about that tool, not about the physical truth.'
CHECK = (270.0, 8.0)


def run(wfm, x, y, t):
    sr = wfm(x, y, type=t, wd=wd, ws=ws)
    pw = np.asarray(sr.Power).reshape(len(x), len(wd), len(ws))
    per = 8760.0 * np.einsum('ilk,lk->i', pw, P) / 1e6
    chk = wfm(x, y, type=t, wd=[CHECK[0]], ws=[CHECK[1]])
    return per, fl(np.asarray(chk.WS_eff).ravel()), fl(np.asarray(chk.CT).ravel())


def write(name, doc):
    path = os.path.join(out_dir, name + '.yaml')
    with open(path, 'w') as f:
        yaml.safe_dump(doc, f, sort_keys=False, width=120, default_flow_style=None)
    print(path, doc['expected']['aep_mwh'])


def base(title, call, spec):
    return {'name': title,
            'source': {'computed_with': 'PyWake (DTU Wind Energy) source at commit b81c149, PropagateDownwind engineering model, by bench/peers/pywake_mixed.py',
                       'call': call, 'turbines': 'WindTurbines.from_WindTurbine_lst([V80(), SWT23()]); type 0 = V80, type 1 = SWT23',
                       'site': 'UniformSite(p_wd=[1], ti=0.1) for the flow solution; the AEP weights each (direction, speed) by the probability table in `wind`',
                       'note': NOTE},
            'turbines': TURBINES,
            'wind': {'wind_direction': fl(wd), 'wind_speed': fl(ws), 'dims': ['wind_direction', 'wind_speed'], 'probability': [fl(r) for r in P],
                     'turbulence_intensity': 0.1, 'hours_per_year': 8760},
            'model': dict(spec, wind_farm_model='PropagateDownwind (turbines solved in downstream order; Ct and power at the waked inflow)')}


for key, (make, call, spec) in MODELS.items():
    wfm = make(wts)
    per, ws_eff, ct = run(wfm, mx, my, mtype)
    doc = base(f'{key} on a mixed farm of 16 (V80 and SWT23)', call, spec)
    doc['layout'] = {'x': fl(mx), 'y': fl(my), 'type': [int(v) for v in mtype]}
    doc['expected'] = {'aep_mwh': float(per.sum()), 'aep_per_turbine_mwh': fl(per),
                       'check_condition': {'wind_direction': CHECK[0], 'wind_speed': CHECK[1], 'ws_eff': ws_eff, 'ct': ct}}
    write(f'mixed-{key}', doc)

for key in ['bastankhah2014', 'niayifar2016']:
    make, call, spec = MODELS[key]
    wfm = make(wts)
    ax, ay, at = np.r_[fx, nx], np.r_[fy, ny], np.r_[ftype, ntype]
    per, ws_eff, ct = run(wfm, ax, ay, at)
    alone, _, _ = run(wfm, nx, ny, ntype)
    own = per[:9]
    doc = base(f'{key}: 9 V80 beside 8 neighbouring turbines (V80 and SWT23)', call + '; neighbours simulated as extra turbines', spec)
    doc['layout'] = {'x': fl(fx), 'y': fl(fy), 'type': [int(v) for v in ftype]}
    doc['neighbours'] = {'x': fl(nx), 'y': fl(ny), 'type': [int(v) for v in ntype]}
    doc['expected'] = {'aep_mwh': float(own.sum()), 'aep_per_turbine_mwh': fl(own),
                       'neighbour_aep_per_turbine_mwh': fl(per[9:]), 'neighbour_alone_aep_per_turbine_mwh': fl(alone),
                       'check_condition': {'wind_direction': CHECK[0], 'wind_speed': CHECK[1], 'ws_eff': ws_eff, 'ct': ct,
                                           'note': 'own turbines first, then the neighbours'}}
    write(f'neighbours-{key}', doc)

# The ground as a mirror (PyWake's Mirror ground model) on the mixed farm: hub heights 70 and 65 m,
# so the image of a source is 2 h_source below it and the direct offset is h_target - h_source.
GROUND = {
    'niayifar2016': (lambda wt: Niayifar_PorteAgel_2016(site, wt, rotorAvgModel=None, groundModel=Mirror()),
                     'Niayifar_PorteAgel_2016(site, wts, rotorAvgModel=None, groundModel=Mirror())'),
    'turbopark2022-cgi4': (lambda wt: turbopark(site, wt, CGIRotorAvg(4), Mirror()),
                           'PropagateDownwind(site, wts, TurboGaussianDeficit(ct2a=ct2a_mom1d, groundModel=Mirror(), rotorAvgModel=CGIRotorAvg(4)) '
                           'with WS_key=WS_jlk, SquaredSum())'),
}
for key, (make, call) in GROUND.items():
    spec = dict(MODELS[key][2], ground='Mirror')
    per, ws_eff, ct = run(make(wts), mx, my, mtype)
    doc = base(f'{key} with the ground mirror on a mixed farm of 16 (V80 and SWT23)', call, spec)
    doc['layout'] = {'x': fl(mx), 'y': fl(my), 'type': [int(v) for v in mtype]}
    doc['expected'] = {'aep_mwh': float(per.sum()), 'aep_per_turbine_mwh': fl(per),
                       'check_condition': {'wind_direction': CHECK[0], 'wind_speed': CHECK[1], 'ws_eff': ws_eff, 'ct': ct}}
    write(f'mixed-{key}-ground', doc)
