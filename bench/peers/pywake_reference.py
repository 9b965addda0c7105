"""Writes wake-model reference cases computed with DTU's PyWake, in the format of
test/data/reference/ (README there), for literature models at PyWake's own defaults
("library default" in the model block: the case must be computed with that library's defaults).

usage: PYTHONPATH=<PyWake source>:<autograd source>[:<folder with an import guard>] python3 pywake_reference.py OUT_DIR
The turbine (V80), wind table and layouts are taken from the existing grid5x5 / random16 cases
beside this repository's test/data/reference/. Never needed by the tests (they read the files it wrote).
"""
import os, sys, yaml
from reference_common import REF, site, wt, rose_case, write_case  # first: the git-lfs guard, PyWake's V80 on a uniform site
from py_wake.literature.gaussian_models import Zong_PorteAgel_2020, Blondel_Cathelain_2020, CarbajoFuertes_etal_2018
from py_wake.turbulence_models.crespo import CrespoHernandez

out_dir = sys.argv[1]
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
    # Its literature default rotor average is GaussianOverlapAvgModel (a git-lfs table absent here): the rotor centre instead.
    'carbajofuertes2018': (lambda: CarbajoFuertes_etal_2018(site, wt, rotorAvgModel=None),
                           'CarbajoFuertes_etal_2018(site, V80(), rotorAvgModel=None)',
                           {'deficit': 'Carbajo Fuertes et al. 2018 Gaussian (Niayifar wind farm model)', 'a': 'library default', 'ceps': 'library default',
                            'superposition': 'library default', 'turbulence': 'library default', 'rotor_average': 'rotor centre',
                            'ct2a': 'library default', 'use_effective_ws': 'library default', 'use_effective_ti': 'library default'}),
}
for layout in ('grid5x5', 'random16'):
    base = yaml.safe_load(open(os.path.join(REF, f'bastankhah2014-{layout}.yaml')))
    for name, (make, call, spec) in models.items():
        model = dict(spec, wind_farm_model='PropagateDownwind (turbines solved in downstream order; Ct and power at the waked inflow)')
        doc = rose_case(make(), base, f'{name} on {layout}', f'{call} with every default (wd and ws of the table in one call)',
                        model, 'bench/peers/pywake_reference.py')
        write_case(out_dir, f'{name}-{layout}.yaml', doc)
