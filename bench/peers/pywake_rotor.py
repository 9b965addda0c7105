"""Writes reference cases for PyWake's grid rotor averages (EqGridRotorAvg, GridRotorAvg,
PolarGridRotorAvg), in the format of test/data/reference/ (README there).

usage: PYTHONPATH=<PyWake source>:<autograd source>[:<folder with an import guard>] python3 pywake_rotor.py OUT_DIR
The turbine (V80), wind table and layouts are taken from the grid5x5 / random16 cases of this
repository's test/data/reference/; each model is the one of the PropagateDownwind file of the same
name there with the rotor average replaced. Never needed by the tests (they read the files it wrote).
"""
import os, sys, yaml
from reference_common import REF, site, wt, rose_case, write_case  # first: the git-lfs guard, PyWake's V80 on a uniform site
from py_wake.literature.gaussian_models import Bastankhah_PorteAgel_2014, Niayifar_PorteAgel_2016
from py_wake.rotor_avg_models import EqGridRotorAvg, GridRotorAvg, PolarGridRotorAvg

out_dir = sys.argv[1]
# name: (base file, wind farm model, the call in words, rotor_average as written)
models = {
    'bastankhah2014-eqgrid4': ('bastankhah2014', lambda: Bastankhah_PorteAgel_2014(site, wt, k=0.0324555, rotorAvgModel=EqGridRotorAvg(4)),
                               'Bastankhah_PorteAgel_2014(site, V80(), k=0.0324555, rotorAvgModel=EqGridRotorAvg(4))', 'EqGrid 4 (EqGridRotorAvg(4))'),
    'bastankhah2014-grid': ('bastankhah2014', lambda: Bastankhah_PorteAgel_2014(site, wt, k=0.0324555, rotorAvgModel=GridRotorAvg()),
                            'Bastankhah_PorteAgel_2014(site, V80(), k=0.0324555, rotorAvgModel=GridRotorAvg())', 'Grid (GridRotorAvg())'),
    'bastankhah2014-polargrid': ('bastankhah2014', lambda: Bastankhah_PorteAgel_2014(site, wt, k=0.0324555, rotorAvgModel=PolarGridRotorAvg()),
                                 'Bastankhah_PorteAgel_2014(site, V80(), k=0.0324555, rotorAvgModel=PolarGridRotorAvg())', 'PolarGrid (PolarGridRotorAvg())'),
    'niayifar2016-eqgrid3': ('niayifar2016', lambda: Niayifar_PorteAgel_2016(site, wt, rotorAvgModel=EqGridRotorAvg(3)),
                             'Niayifar_PorteAgel_2016(site, V80(), rotorAvgModel=EqGridRotorAvg(3))', 'EqGrid 3 (EqGridRotorAvg(3))'),
}
for layout in ('grid5x5', 'random16'):
    for name, (base_name, make, call, rotor) in models.items():
        base = yaml.safe_load(open(os.path.join(REF, f'{base_name}-{layout}.yaml')))
        model = dict(base['model'], rotor_average=rotor)
        doc = rose_case(make(), base, f'{name} on {layout}', f'{call} (wd and ws of the table in one call)', model, 'bench/peers/pywake_rotor.py')
        write_case(out_dir, f'rotor-{name}-{layout}.yaml', doc)
