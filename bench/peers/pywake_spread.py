"""Writes a reference case for wflo's direction treatment `directions: {spread: N}`, computed with
DTU's PyWake, in the format of test/data/reference/ (README there): the wind table of
bastankhah2014-random16.yaml with each direction bin spread evenly over its width (5 degrees) in
N = 4 sub-directions at the midpoints theta + ((j + 1/2)/N - 1/2) * 5, each with the bin's
probabilities / N, written out as an ordinary table of 72 x 4 directions (wrapped into [0, 360) and
sorted: PyWake returns results in increasing wd), evaluated by PyWake in one call. `spread_of` keeps the table as listed and the treatment,
so a test can apply wflo's treatment to it and compare with PyWake's evaluation of the written-out
table. The spread here is computed in this script (numpy), not by wflo.

usage: PYTHONPATH=<PyWake source>:<autograd source>[:<folder with an import guard>] python3 pywake_spread.py OUT_DIR
Never needed by the tests (they read the file it wrote).
"""
import copy, os, sys, yaml
import numpy as np
from reference_common import REF, site, wt, rose_case, write_case, fl  # first: the git-lfs guard, PyWake's V80 on a uniform site
from py_wake.literature.gaussian_models import Bastankhah_PorteAgel_2014

N = 4
out_dir = sys.argv[1]
base = yaml.safe_load(open(os.path.join(REF, 'bastankhah2014-random16.yaml')))
wd = np.asarray(base['wind']['wind_direction'], dtype=float)
P = np.asarray(base['wind']['probability'], dtype=float)
width = 360.0 / len(wd)
assert np.allclose(np.diff(wd), width), 'an even rose is expected'
offsets = ((np.arange(N) + 0.5) / N - 0.5) * width
spread_wd = np.mod(wd[:, None] + offsets[None, :], 360.0).ravel()
spread_P = np.repeat(P / N, N, axis=0)
# In increasing direction: PyWake returns its results sorted by wd (rose_case reads them in the table's order).
order = np.argsort(spread_wd, kind='stable')
spread_wd, spread_P = spread_wd[order], spread_P[order]
spread = copy.deepcopy(base)
spread['wind']['wind_direction'] = fl(spread_wd)
spread['wind']['probability'] = [fl(row) for row in spread_P]
spread['wind']['origin'] = (f"{base['wind'].get('origin', 'the wind table of bastankhah2014-random16.yaml')}; then each of its {len(wd)} direction bins "
                            f"spread evenly over its {width:g} degree width in {N} sub-directions (midpoints), each with the bin's probabilities / {N}")
model = dict(base['model'])
doc = rose_case(Bastankhah_PorteAgel_2014(site, wt, k=0.0324555), spread,
                f'bastankhah2014 on random16, every bin spread over {N} sub-directions',
                f'Bastankhah_PorteAgel_2014(site, V80(), k=0.0324555) (defaults as bastankhah2014-random16.yaml; wd and ws of the written-out table in one call)',
                model, 'bench/peers/pywake_spread.py')
doc['spread_of'] = {'wind': base['wind'], 'directions': {'spread': N}}
write_case(out_dir, f'spread{N}-bastankhah2014-random16.yaml', doc)
