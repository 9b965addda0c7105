"""Writes reference cases with the ground as a mirror, computed with DTU's PyWake (its `Mirror`
ground model: an image turbine below the ground whose deficit is combined with the real one's by
the wind farm model's superposition), in the format of test/data/reference/ (README there).

usage: PYTHONPATH=<PyWake source>:<autograd source>[:<folder with an import guard>] python3 pywake_ground.py OUT_DIR
The turbine (V80, hub 70 m), wind table and layouts are taken from the grid5x5 / random16 cases of
this repository's test/data/reference/; each model is the one of the PropagateDownwind file of the
same name there, with `groundModel=Mirror()` added. Never needed by the tests (they read the files it wrote).
"""
import os, sys, yaml
from reference_common import REF, site, wt, rose_case, write_case  # first: the git-lfs guard, PyWake's V80 on a uniform site
from py_wake.literature.gaussian_models import Bastankhah_PorteAgel_2014, Niayifar_PorteAgel_2016, CarbajoFuertes_etal_2018
from py_wake.literature.noj import Jensen_1983
from py_wake.wind_farm_models.engineering_models import PropagateDownwind
from py_wake.deficit_models.gaussian import TurboGaussianDeficit
from py_wake.deficit_models.utils import ct2a_mom1d
from py_wake.superposition_models import SquaredSum, MaxSum
from py_wake.ground_models import Mirror
from py_wake.rotor_avg_models import CGIRotorAvg

out_dir = sys.argv[1]


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
    'carbajofuertes2018': ('carbajofuertes2018', lambda: CarbajoFuertes_etal_2018(site, wt, rotorAvgModel=None, groundModel=Mirror()),
                           'CarbajoFuertes_etal_2018(site, V80(), rotorAvgModel=None, groundModel=Mirror())', {}),
}
for layout in ('grid5x5', 'random16'):
    for name, (base_name, make, call, extra) in models.items():
        base = yaml.safe_load(open(os.path.join(REF, f'{base_name}-{layout}.yaml')))
        model = {k: v for k, v in base['model'].items() if k != 'wind_farm_model'}
        model.update(extra)
        model['ground'] = 'Mirror'
        model['wind_farm_model'] = base['model']['wind_farm_model']
        doc = rose_case(make(), base, f'{name} with the ground mirror on {layout}', f'{call} (wd and ws of the table in one call)',
                        model, 'bench/peers/pywake_ground.py')
        write_case(out_dir, f'ground-{name}-{layout}.yaml', doc)
