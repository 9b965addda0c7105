"""Writes blockage reference cases computed with DTU's PyWake (All2AllIterative with
SelfSimilarityDeficit2020), in the format of test/data/reference/ (README there), and times
PyWake's All2AllIterative against its PropagateDownwind on a larger farm.

usage:
  PYTHONPATH=<PyWake source>:<autograd source>[:<folder with an import guard>] python3 pywake_blockage.py write OUT_DIR
  ... python3 pywake_blockage.py time SIDE N_DIRECTIONS BLOCKAGE(1|0)     (one JSON line; bench/realFarms.ts runs it)

Each case: the V80 turbine, wind table and layout of test/data/reference/<model>-<layout>.yaml
(PropagateDownwind cases of the same model), solved with
All2AllIterative(site, V80(), wake_deficitModel=..., superpositionModel=...,
blockage_deficitModel=SelfSimilarityDeficit2020(superpositionModel=LinearSum()), turbulenceModel=...,
convergence_tolerance=...). `expected` comes from a solve converged to 1e-12 m/s (PyWake's loop
stops when no effective speed moved by more than the tolerance, at most one iteration per
turbine); `expected.aep_mwh_default_tolerance` is the same with PyWake's default 1e-6 m/s.
`check_condition` gives each turbine's effective speed and Ct at 270 deg, 8 m/s (tolerance 1e-12).
Never needed by the tests (they read the files written here).
"""
import os, sys, json, time, resource, yaml, numpy as np
from reference_common import HERE, REF, site, wt, fl  # first: PyWake's import guard
from py_wake.wind_farm_models.engineering_models import All2AllIterative, PropagateDownwind
from py_wake.deficit_models.gaussian import BastankhahGaussianDeficit, NiayifarGaussianDeficit
from py_wake.deficit_models.noj import NOJDeficit
from py_wake.deficit_models.selfsimilarity import SelfSimilarityDeficit2020
from py_wake.deficit_models.utils import ct2a_mom1d, ct2a_madsen
from py_wake.rotor_avg_models.area_overlap_model import AreaOverlapAvgModel
from py_wake.turbulence_models.crespo import CrespoHernandez
from py_wake.superposition_models import LinearSum, SquaredSum, SqrMaxSum

BLOCKAGE = 'SelfSimilarityDeficit2020(superpositionModel=LinearSum()) (defaults: ct2a_madsen, ss_alpha=8/9, ss_beta=sqrt(2), r12p=[-0.672, 0.4897], ngp=[-1.381, 2.627, -1.524, 1.336], fgp=[-0.06489, 0.4911, 1.116, -0.1577], limiter=1e-10, exclude_wake=True, WS_ref = free-stream speed)'


def parts(name):
    if name == 'bastankhah2014':
        return (dict(wake_deficitModel=BastankhahGaussianDeficit(k=0.0324555, ceps=0.2, ct2a=ct2a_mom1d, use_effective_ws=True), superpositionModel=LinearSum()),
                'wake_deficitModel=BastankhahGaussianDeficit(k=0.0324555, ceps=0.2, ct2a=ct2a_mom1d, use_effective_ws=True), superpositionModel=LinearSum()')
    if name == 'niayifar2016':
        return (dict(wake_deficitModel=NiayifarGaussianDeficit(a=[0.3837, 0.003678], ceps=0.2, ct2a=ct2a_mom1d, use_effective_ws=True, use_effective_ti=True),
                     superpositionModel=LinearSum(),
                     turbulenceModel=CrespoHernandez(ct2a=ct2a_mom1d, c=[0.73, 0.8325, 0.0325, -0.32], addedTurbulenceSuperpositionModel=SqrMaxSum())),
                'wake_deficitModel=NiayifarGaussianDeficit(a=[0.3837, 0.003678], ceps=0.2, ct2a=ct2a_mom1d, use_effective_ws=True, use_effective_ti=True), '
                'superpositionModel=LinearSum(), turbulenceModel=CrespoHernandez(ct2a=ct2a_mom1d, c=[0.73, 0.8325, 0.0325, -0.32], addedTurbulenceSuperpositionModel=SqrMaxSum())')
    if name == 'jensen1983':
        return (dict(wake_deficitModel=NOJDeficit(k=0.1, ct2a=ct2a_madsen, rotorAvgModel=AreaOverlapAvgModel()), superpositionModel=SquaredSum()),
                'wake_deficitModel=NOJDeficit(k=0.1, ct2a=ct2a_madsen, rotorAvgModel=AreaOverlapAvgModel()), superpositionModel=SquaredSum()')
    raise KeyError(name)


def a2a(name, tol):
    kw, _ = parts(name)
    return All2AllIterative(site, wt, blockage_deficitModel=SelfSimilarityDeficit2020(superpositionModel=LinearSum()), convergence_tolerance=tol, **kw)


def write(out_dir):
    for name, layout in (('bastankhah2014', 'random16'), ('niayifar2016', 'grid5x5'), ('jensen1983', 'random16')):
        base = yaml.safe_load(open(os.path.join(REF, f'{name}-{layout}.yaml')))
        wd = np.asarray(base['wind']['wind_direction']); ws = np.asarray(base['wind']['wind_speed'])
        assert np.all(np.diff(wd) > 0)
        # Speeds up to 24 m/s only: blockage speeds turbines up, and PyWake's V80 table ends at 25 m/s and
        # clamps beyond it (2 MW and Ct 0.053 above 25 m/s, no cut-out), which no real turbine does.
        keep = ws <= 24
        ws = ws[keep]
        P = np.asarray(base['wind']['probability'])[:, keep]
        P = P / P.sum()
        wind = {'wind_direction': fl(wd), 'wind_speed': fl(ws), 'dims': ['wind_direction', 'wind_speed'], 'probability': [fl(r) for r in P],
                'turbulence_intensity': base['wind']['turbulence_intensity'], 'hours_per_year': base['wind']['hours_per_year'],
                'note': 'the table of the PropagateDownwind case without its 25 m/s column, renormalised to sum to 1'}
        x = np.asarray(base['layout']['x']); y = np.asarray(base['layout']['y'])
        aep = {}
        for tol in (1e-12, 1e-6):
            wfm = a2a(name, tol)
            sim = wfm(x, y, wd=wd, ws=ws)
            pw = np.asarray(sim.Power).reshape(len(x), len(wd), len(ws))
            aep[tol] = (8760.0 * np.einsum('ilk,lk->i', pw, P) / 1e6, wfm.iterations)
        wfm = a2a(name, 1e-12)
        chk = wfm(x, y, wd=[270.0], ws=[8.0])
        per = aep[1e-12][0]
        _, call = parts(name)
        doc = {
            'name': f'{name} with self-similarity blockage on {layout}',
            'source': {'computed_with': 'PyWake (DTU Wind Energy) source at commit b81c149, All2AllIterative engineering model',
                       'call': f'All2AllIterative(site, V80(), {call}, blockage_deficitModel={BLOCKAGE}, convergence_tolerance=1e-12); wd and ws of the table in one call',
                       'site': 'UniformSite(p_wd=[1], ti=0.1) for the flow solution; the AEP below weights each (direction, speed) by the probability table in `wind`',
                       'note': 'Reference values computed with PyWake; they are facts about that tool, not about the physical truth.',
                       'generator': 'bench/peers/pywake_blockage.py'},
            'turbine': base['turbine'], 'wind': wind, 'layout': base['layout'],
            'model': dict(base['model'], blockage='self-similarity 2020 (SelfSimilarityDeficit2020, linear sum, not inside the wake radius downstream)',
                          wind_farm_model='All2AllIterative (wakes and blockage iterated to a fixed point; Ct and power at the converged inflow)',
                          convergence_tolerance_ms=1e-12),
            'expected': {'aep_mwh': float(per.sum()), 'aep_per_turbine_mwh': fl(per),
                         'aep_mwh_default_tolerance': float(aep[1e-6][0].sum()),
                         'aep_mwh_without_blockage': float((8760.0 * np.einsum('ilk,lk->i', np.asarray(PropagateDownwind(site, wt, **parts(name)[0])(x, y, wd=wd, ws=ws).Power).reshape(len(x), len(wd), len(ws)), P) / 1e6).sum()),
                         'iterations': {'tolerance_1e-12': int(aep[1e-12][1]), 'tolerance_1e-6': int(aep[1e-6][1])},
                         'check_condition': {'wind_direction': 270.0, 'wind_speed': 8.0,
                                             'ws_eff': fl(np.asarray(chk.WS_eff).reshape(len(x))), 'ct': fl(np.asarray(chk.CT).reshape(len(x)))}},
        }
        path = os.path.join(out_dir, f'blockage-{name}-{layout}.yaml')
        yaml.safe_dump(doc, open(path, 'w'), sort_keys=False, width=120, default_flow_style=None)
        print(path, doc['expected']['aep_mwh'], 'default tol', doc['expected']['aep_mwh_default_tolerance'],
              'without', doc['expected']['aep_mwh_without_blockage'], 'iterations', aep[1e-12][1], aep[1e-6][1])


def timing(side, n_dir, blockage):
    """PyWake on the bench's blockage case: V80 on a side x side grid at 5D (400 m), n_dir directions x 3..24 m/s,
    Bastankhah 2014 (reference options) in All2AllIterative with SelfSimilarityDeficit2020 at PyWake's default
    tolerance (blockage=1), or PropagateDownwind without it (blockage=0); every flow case in one call. One JSON line."""
    gx, gy = np.meshgrid(np.arange(side) * 400.0, np.arange(side) * 400.0, indexing='ij')
    x, y = gx.ravel(), gy.ravel()
    wd = np.arange(n_dir) * 360.0 / n_dir; ws = np.arange(3, 25, 1.0)
    wfm = a2a('bastankhah2014', 1e-6) if blockage else PropagateDownwind(site, wt, **parts('bastankhah2014')[0])
    t, c = time.perf_counter(), time.process_time()
    sim = wfm(x, y, wd=wd, ws=ws)
    power = float(np.asarray(sim.Power).sum())
    secs, cpu = time.perf_counter() - t, time.process_time() - c
    print(json.dumps({'peer': 'pywake', 'case': f'{len(x)} V80, {n_dir}x{len(ws)}, ' + ('All2AllIterative + SelfSimilarityDeficit2020' if blockage else 'PropagateDownwind'),
                      'aep_mwh_uniform': 8760.0 * power / (len(wd) * len(ws)) / 1e6, 'seconds': secs, 'cpu_s': cpu,
                      'iterations': getattr(wfm, 'iterations', None), 'peak_rss_mb': resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                      'load': open('/proc/loadavg').read().split()[:3]}))


if __name__ == '__main__':
    if sys.argv[1] == 'write':
        write(sys.argv[2])
    else:
        timing(int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]))
