"""Writes wake-model reference cases computed with DTU's PyWake, in the format of
test/data/reference/ (README there), for literature models at PyWake's own defaults
("library default" in the model block: the case must be computed with that library's defaults).

usage: PYTHONPATH=<PyWake source>:<autograd source>[:<folder with an import guard>] python3 pywake_reference.py OUT_DIR
The turbine (V80), wind table and layouts are taken from the existing grid5x5 / random16 cases
beside this repository's test/data/reference/. Never needed by the tests (they read the files it wrote).
"""
import os, sys, yaml, numpy as np
try:
    import pywake_lfs_guard  # noqa: F401  (a mirror without git-lfs data needs it; not needed otherwise)
except ImportError:
    pass
from py_wake.site import UniformSite
from py_wake.examples.data.hornsrev1 import V80
from py_wake.literature.gaussian_models import Zong_PorteAgel_2020, Blondel_Cathelain_2020
from py_wake.turbulence_models.crespo import CrespoHernandez

HERE = os.path.dirname(os.path.abspath(__file__))
REF = os.path.join(HERE, '..', '..', 'test', 'data', 'reference')
out_dir = sys.argv[1]
site = UniformSite(p_wd=[1.0], ti=0.1)
wt = V80()
models = {
    'zong2020': (lambda: Zong_PorteAgel_2020(site, wt), 'Zong_PorteAgel_2020(site, V80())',
                 {'deficit': 'Zong & Porte-Agel 2020 Gaussian', 'superposition': 'library default', 'turbulence': 'library default',
                  'rotor_average': 'library default', 'ct2a': 'library default'}),
    # With every default PyWake refuses Blondel_Cathelain_2020 (its deficit uses the effective TI and
    # its default turbulence model is None); its own example adds CrespoHernandez() with that class's defaults.
    'blondel2020': (lambda: Blondel_Cathelain_2020(site, wt, turbulenceModel=CrespoHernandez()),
                    'Blondel_Cathelain_2020(site, V80(), turbulenceModel=CrespoHernandez())',
                    {'deficit': 'Blondel & Cathelain 2020 super-Gaussian', 'superposition': 'library default',
                     'rotor_average': 'library default', 'turbulence': 'Crespo-Hernandez',
                     'crespo_hernandez_c': [0.73, 0.8325, -0.0325, -0.32], 'turbulence_ct2a': 'madsen',
                     'added_turbulence_superposition': 'sqrt of max of squares (SqrMaxSum)'}),
}
fl = lambda a: [float(v) for v in np.asarray(a).ravel()]
for layout in ('grid5x5', 'random16'):
    base = yaml.safe_load(open(os.path.join(REF, f'bastankhah2014-{layout}.yaml')))
    wd = np.asarray(base['wind']['wind_direction']); ws = np.asarray(base['wind']['wind_speed'])
    P = np.asarray(base['wind']['probability'])
    x = np.asarray(base['layout']['x']); y = np.asarray(base['layout']['y'])
    for name, (make, call, spec) in models.items():
        wfm = make()
        sim = wfm(x, y, wd=wd, ws=ws)  # every direction and speed in one call (no chunks), as PyWake's default
        pw = np.asarray(sim.Power).reshape(len(x), len(wd), len(ws))
        per = 8760.0 * np.einsum('ilk,lk->i', pw, P) / 1e6
        chk = wfm(x, y, wd=[270.0], ws=[8.0])
        doc = {
            'name': f'{name} on {layout}',
            'source': {'computed_with': "PyWake (DTU Wind Energy) source at commit b81c149, PropagateDownwind engineering model",
                       'call': f'{call} with every default (wd and ws of the table in one call)',
                       'site': "UniformSite(p_wd=[1], ti=0.1) for the flow solution; the AEP below weights each (direction, speed) by the probability table in `wind`",
                       'note': 'Reference values computed with PyWake; they are facts about that tool, not about the physical truth.',
                       'generator': 'bench/peers/pywake_reference.py'},
            'turbine': base['turbine'], 'wind': base['wind'], 'layout': base['layout'],
            'model': dict(spec, wind_farm_model='PropagateDownwind (turbines solved in downstream order; Ct and power at the waked inflow)'),
            'expected': {'aep_mwh': float(per.sum()), 'aep_per_turbine_mwh': fl(per),
                         'check_condition': {'wind_direction': 270.0, 'wind_speed': 8.0,
                                             'ws_eff': fl(np.asarray(chk.WS_eff).reshape(len(x))), 'ct': fl(np.asarray(chk.CT).reshape(len(x)))}},
        }
        path = os.path.join(out_dir, f'{name}-{layout}.yaml')
        yaml.safe_dump(doc, open(path, 'w'), sort_keys=False, width=120, default_flow_style=None)
        print(path, doc['expected']['aep_mwh'])
