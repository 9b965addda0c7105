"""Writes reference cases with the ground as a mirror, computed with DTU's PyWake (its `Mirror`
ground model: an image turbine below the ground whose deficit is combined with the real one's by
the wind farm model's superposition), in the format of test/data/reference/ (README there).

usage: PYTHONPATH=<PyWake source>:<autograd source>[:<folder with an import guard>] python3 pywake_ground.py OUT_DIR
The turbine (V80, hub 70 m), wind table and layouts are taken from the grid5x5 / random16 cases of
this repository's test/data/reference/; each model is the one of the PropagateDownwind file of the
same name there, with `groundModel=Mirror()` added. Never needed by the tests (they read the files it wrote).
"""
import os, sys, yaml, numpy as np
try:
    import pywake_lfs_guard  # noqa: F401  (a mirror without git-lfs data needs it; not needed otherwise)
except ImportError:
    pass
from py_wake.site import UniformSite
from py_wake.examples.data.hornsrev1 import V80
from py_wake.literature.gaussian_models import Bastankhah_PorteAgel_2014, Niayifar_PorteAgel_2016
from py_wake.literature.noj import Jensen_1983
from py_wake.wind_farm_models.engineering_models import PropagateDownwind
from py_wake.deficit_models.gaussian import TurboGaussianDeficit
from py_wake.deficit_models.utils import ct2a_mom1d
from py_wake.superposition_models import SquaredSum, MaxSum
from py_wake.ground_models import Mirror
from py_wake.rotor_avg_models import CGIRotorAvg

HERE = os.path.dirname(os.path.abspath(__file__))
REF = os.path.join(HERE, '..', '..', 'test', 'data', 'reference')
out_dir = sys.argv[1]
site = UniformSite(p_wd=[1.0], ti=0.1)
wt = V80()


def turbopark():
    d = TurboGaussianDeficit(ct2a=ct2a_mom1d, groundModel=Mirror(), rotorAvgModel=None)
    d.WS_key = 'WS_jlk'
    return PropagateDownwind(site, wt, wake_deficitModel=d, superpositionModel=SquaredSum())


# name: (base file, wind farm model, the call in words, model fields beyond the base file's)
models = {
    'bastankhah2014': ('bastankhah2014', lambda: Bastankhah_PorteAgel_2014(site, wt, k=0.0324555, groundModel=Mirror()),
                       'Bastankhah_PorteAgel_2014(site, V80(), k=0.0324555, groundModel=Mirror())', {}),
    'bastankhah2014-cgi4': ('bastankhah2014', lambda: Bastankhah_PorteAgel_2014(site, wt, k=0.0324555, rotorAvgModel=CGIRotorAvg(4), groundModel=Mirror()),
                            'Bastankhah_PorteAgel_2014(site, V80(), k=0.0324555, rotorAvgModel=CGIRotorAvg(4), groundModel=Mirror())', {'rotor_average': 'CGI 4 points'}),
    'bastankhah2014-max': ('bastankhah2014', lambda: Bastankhah_PorteAgel_2014(site, wt, k=0.0324555, superpositionModel=MaxSum(), groundModel=Mirror()),
                           'Bastankhah_PorteAgel_2014(site, V80(), k=0.0324555, superpositionModel=MaxSum(), groundModel=Mirror())', {'superposition': 'max'}),
    'niayifar2016': ('niayifar2016', lambda: Niayifar_PorteAgel_2016(site, wt, rotorAvgModel=None, groundModel=Mirror()),
                     'Niayifar_PorteAgel_2016(site, V80(), rotorAvgModel=None, groundModel=Mirror())', {}),
    'turbopark2022': ('turbopark2022', turbopark,
                      'PropagateDownwind(site, V80(), TurboGaussianDeficit(ct2a=ct2a_mom1d, groundModel=Mirror(), rotorAvgModel=None) with WS_key WS_jlk, SquaredSum())', {}),
    'jensen1983': ('jensen1983', lambda: Jensen_1983(site, wt, groundModel=Mirror()), 'Jensen_1983(site, V80(), groundModel=Mirror())', {}),
}
fl = lambda a: [float(v) for v in np.asarray(a).ravel()]
for layout in ('grid5x5', 'random16'):
    for name, (base_name, make, call, extra) in models.items():
        base = yaml.safe_load(open(os.path.join(REF, f'{base_name}-{layout}.yaml')))
        wd = np.asarray(base['wind']['wind_direction']); ws = np.asarray(base['wind']['wind_speed'])
        P = np.asarray(base['wind']['probability'])
        x = np.asarray(base['layout']['x']); y = np.asarray(base['layout']['y'])
        wfm = make()
        sim = wfm(x, y, wd=wd, ws=ws)
        pw = np.asarray(sim.Power).reshape(len(x), len(wd), len(ws))
        per = 8760.0 * np.einsum('ilk,lk->i', pw, P) / 1e6
        chk = wfm(x, y, wd=[270.0], ws=[8.0])
        model = {k: v for k, v in base['model'].items() if k != 'wind_farm_model'}
        model.update(extra)
        model['ground'] = 'Mirror'
        model['wind_farm_model'] = base['model']['wind_farm_model']
        doc = {
            'name': f'{name} with the ground mirror on {layout}',
            'source': {'computed_with': "PyWake (DTU Wind Energy) source at commit b81c149, PropagateDownwind engineering model",
                       'call': f'{call} (wd and ws of the table in one call)',
                       'site': "UniformSite(p_wd=[1], ti=0.1) for the flow solution; the AEP below weights each (direction, speed) by the probability table in `wind`",
                       'note': 'Reference values computed with PyWake; they are facts about that tool, not about the physical truth.',
                       'generator': 'bench/peers/pywake_ground.py'},
            'turbine': base['turbine'], 'wind': base['wind'], 'layout': base['layout'],
            'model': model,
            'expected': {'aep_mwh': float(per.sum()), 'aep_per_turbine_mwh': fl(per),
                         'check_condition': {'wind_direction': 270.0, 'wind_speed': 8.0,
                                             'ws_eff': fl(np.asarray(chk.WS_eff).reshape(len(x))), 'ct': fl(np.asarray(chk.CT).reshape(len(x)))}},
        }
        path = os.path.join(out_dir, f'ground-{name}-{layout}.yaml')
        yaml.safe_dump(doc, open(path, 'w'), sort_keys=False, width=120, default_flow_style=None)
        print(path, doc['expected']['aep_mwh'])
