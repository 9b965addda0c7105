"""Writes the PyWake references of the combinations issue 41 lifted (test/data/reference/lifted/;
SOURCE.md there): blockage on sites that are not uniform, TurbOPark on such sites, the weighted sum
on them. Each case is PyWake's XRSite (linear interpolation, bounds checked) under the wind farm
model named in its `source.call`.

usage (PyWake and autograd on PYTHONPATH, as the other generators of this folder):
    PYTHONPATH=<PyWake source>:<autograd source>[:<folder with an import guard>] python3 bench/peers/pywake_lift.py OUT_DIR [CASE ...]

Turbine, layout and wind table: those of test/data/reference/<model>-random16.yaml (PyWake's V80,
16 random turbines), every 4th of its 72 directions (18) and the speeds 3-20 m/s, the table
renormalised; the turbine's end values held beyond its table (PyWake's PowerCtTabular), as in the
site references (bench/peers/pywake_site.py, whose fields these are: a speed-up hill on a 7 x 6
grid with an irregular y, a TI rising to the east, a per-point 12-sector Weibull). Blockage:
All2AllIterative with SelfSimilarityDeficit2020 converged to 1e-12 m/s. The AEP weights each
(direction, speed) by the table, or on a per-point Weibull site each turbine's power by its own
P_ilk (sim.P). This script is a generator for facts about PyWake; wflo does not need Python or PyWake.
"""
import os
import sys

from reference_common import REF, fl  # noqa: F401  (imports the lfs guard first)
import numpy as np  # noqa: E402
import xarray as xr  # noqa: E402
import yaml  # noqa: E402
from py_wake.site import XRSite  # noqa: E402
from py_wake.site.shear import PowerShear  # noqa: E402
from py_wake.examples.data.hornsrev1 import V80  # noqa: E402
from py_wake.wind_farm_models.engineering_models import All2AllIterative, PropagateDownwind  # noqa: E402
from py_wake.deficit_models.gaussian import BastankhahGaussianDeficit, NiayifarGaussianDeficit, TurboGaussianDeficit  # noqa: E402
from py_wake.deficit_models.noj import NOJDeficit  # noqa: E402
from py_wake.deficit_models.selfsimilarity import SelfSimilarityDeficit2020  # noqa: E402
from py_wake.deficit_models.utils import ct2a_mom1d, ct2a_madsen  # noqa: E402
from py_wake.rotor_avg_models.area_overlap_model import AreaOverlapAvgModel  # noqa: E402
from py_wake.turbulence_models.crespo import CrespoHernandez  # noqa: E402
from py_wake.superposition_models import LinearSum, SquaredSum, SqrMaxSum, WeightedSum  # noqa: E402
from py_wake.literature.gaussian_models import Zong_PorteAgel_2020  # noqa: E402

out_dir = sys.argv[1] if len(sys.argv) > 1 else 'cases'
only = set(sys.argv[2:])
os.makedirs(out_dir, exist_ok=True)
NOTE = 'Reference values computed with PyWake; they are facts about that tool, not about the physical truth.'
HOLD = 'linear between table points; beyond the table the end values are held (PyWake PowerCtTabular without ws_cutin/ws_cutout)'

# The fields of bench/peers/pywake_site.py (the same grid and values).
GX = np.arange(-500.0, 2501.0, 500.0)
GY = np.array([-400.0, 300.0, 700.0, 1200.0, 2000.0, 2600.0])
XX, YY = np.meshgrid(GX, GY, indexing='ij')
SPEEDUP = np.round(1.0 + 0.18 * np.exp(-((XX - 1000.0) ** 2 + (YY - 900.0) ** 2) / 700.0 ** 2), 4)
TI = np.round(0.06 + 0.05 * (XX - GX[0]) / (GX[-1] - GX[0]) + 0.01 * (YY > 1000), 4)
GWD12 = np.arange(0.0, 360.0, 30.0)


def weibull_resource():
    x3, y3 = XX[:, :, None], YY[:, :, None]
    w3 = np.radians(GWD12)[None, None, :]
    hill = np.exp(-((x3 - 1000.0) ** 2 + (y3 - 900.0) ** 2) / 700.0 ** 2)
    A = np.round(8.5 + 1.2 * hill + 0.7 * np.cos(w3 - np.radians(270.0)) + 0.4 * (x3 - GX[0]) / (GX[-1] - GX[0]), 4)
    K = np.round(2.0 + 0.25 * (y3 - GY[0]) / (GY[-1] - GY[0]) + 0.1 * np.sin(w3) + 0.0 * x3, 4)
    raw = np.exp(1.2 * np.cos(w3 - np.radians(255.0 + 20.0 * (y3 - GY[0]) / (GY[-1] - GY[0])))) * (1.0 + 0.0 * x3)
    F = np.round(raw / raw.sum(axis=2, keepdims=True), 4)
    F[:, :, -1] = np.round(1.0 - F[:, :, :-1].sum(axis=2), 4)
    return A, K, F


WEIB_A, WEIB_K, FREQ = weibull_resource()


def field_block(values, dims='xy'):
    return {'x': fl(GX), 'y': fl(GY), 'values': np.asarray(values).tolist()}


def site_of(kind):
    """(XRSite, the `site:` block) for a site kind: speedup, speedup+ti, weibull, shear (speed-up and a power law about 100 m)."""
    ds = xr.Dataset(coords={'x': GX, 'y': GY})
    block, shear = {}, None
    if kind in ('speedup', 'speedup+ti', 'shear'):
        ds['Speedup'] = (('x', 'y'), SPEEDUP)
        block['speedup'] = field_block(SPEEDUP)
    if kind == 'speedup+ti':
        ds['TI'] = (('x', 'y'), TI)
        block['ti'] = field_block(TI)
    else:
        ds['TI'] = 0.1
    if kind == 'weibull':
        ds = ds.assign_coords(wd=GWD12)
        for var, values in [('Weibull_A', WEIB_A), ('Weibull_k', WEIB_K), ('Sector_frequency', FREQ)]:
            ds[var] = (('x', 'y', 'wd'), values)
        block['weibull'] = {'x': fl(GX), 'y': fl(GY), 'wd': fl(GWD12), 'A': WEIB_A.tolist(), 'k': WEIB_K.tolist(), 'frequency': FREQ.tolist()}
    else:
        ds['P'] = 1.0
    if kind == 'shear':
        shear = PowerShear(h_ref=100.0, alpha=0.2)
        block['shear'] = {'power': {'h_ref': 100.0, 'alpha': 0.2}}
    return XRSite(ds, interp_method='linear', shear=shear), block


BLOCKAGE = 'SelfSimilarityDeficit2020(superpositionModel=LinearSum()) (defaults: ct2a_madsen, limiter=1e-10, exclude_wake=True, WS_ref = the source\'s free-stream speed WS_ilk)'


def turbopark_deficit():
    d = TurboGaussianDeficit(ct2a=ct2a_mom1d, groundModel=None, rotorAvgModel=None)
    d.WS_key = 'WS_jlk'
    return d


# name: (base model file, site kind, wind farm model, what it is made of, description of the call, model fields beside the base's)
WAKES = {
    'bastankhah2014': (lambda: dict(wake_deficitModel=BastankhahGaussianDeficit(k=0.0324555, ceps=0.2, ct2a=ct2a_mom1d, use_effective_ws=True), superpositionModel=LinearSum()),
                       'wake_deficitModel=BastankhahGaussianDeficit(k=0.0324555, ceps=0.2, ct2a=ct2a_mom1d, use_effective_ws=True), superpositionModel=LinearSum()'),
    'niayifar2016': (lambda: dict(wake_deficitModel=NiayifarGaussianDeficit(a=[0.3837, 0.003678], ceps=0.2, ct2a=ct2a_mom1d, use_effective_ws=True, use_effective_ti=True),
                                  superpositionModel=LinearSum(),
                                  turbulenceModel=CrespoHernandez(ct2a=ct2a_mom1d, c=[0.73, 0.8325, 0.0325, -0.32], addedTurbulenceSuperpositionModel=SqrMaxSum())),
                     'wake_deficitModel=NiayifarGaussianDeficit(a=[0.3837, 0.003678], ceps=0.2, ct2a=ct2a_mom1d, use_effective_ws=True, use_effective_ti=True), superpositionModel=LinearSum(), '
                     'turbulenceModel=CrespoHernandez(ct2a=ct2a_mom1d, c=[0.73, 0.8325, 0.0325, -0.32], addedTurbulenceSuperpositionModel=SqrMaxSum())'),
    'jensen1983': (lambda: dict(wake_deficitModel=NOJDeficit(k=0.1, ct2a=ct2a_madsen, rotorAvgModel=AreaOverlapAvgModel()), superpositionModel=SquaredSum()),
                   'wake_deficitModel=NOJDeficit(k=0.1, ct2a=ct2a_madsen, rotorAvgModel=AreaOverlapAvgModel()), superpositionModel=SquaredSum()'),
    'turbopark2022': (lambda: dict(wake_deficitModel=turbopark_deficit(), superpositionModel=SquaredSum()),
                      "wake_deficitModel=TurboGaussianDeficit(ct2a=ct2a_mom1d, groundModel=None, rotorAvgModel=None) with WS_key='WS_jlk', superpositionModel=SquaredSum()"),
}

CASES = [
    # name, wake, site kind, blockage
    ('blockage-speedup-ti-niayifar2016', 'niayifar2016', 'speedup+ti', True),
    ('blockage-speedup-jensen1983', 'jensen1983', 'speedup', True),
    ('blockage-weibull-bastankhah2014', 'bastankhah2014', 'weibull', True),
    ('blockage-shear-bastankhah2014', 'bastankhah2014', 'shear', True),
    ('blockage-speedup-ti-turbopark2022', 'turbopark2022', 'speedup+ti', True),
    # TurbOPark: PyWake scales its deficit by the target's free stream (WS_jlk), which a site tells apart from the source's.
    ('turbopark-speedup-ti-turbopark2022', 'turbopark2022', 'speedup+ti', False),
    ('turbopark-shear-turbopark2022', 'turbopark2022', 'shear', False),
    ('turbopark-weibull-turbopark2022', 'turbopark2022', 'weibull', False),
    # The weighted sum (Zong & Porte-Agel 2020, PyWake's WeightedSum): the target's free stream is its WS_xxx.
    ('weighted-speedup-ti-zong2020', 'zong2020', 'speedup+ti', False),
    ('weighted-shear-niayifar2016', 'niayifar2016', 'shear', 'weighted'),
    ('weighted-weibull-bastankhah2014', 'bastankhah2014', 'weibull', 'weighted'),
    # The weighted sum with a constant-Ct turbine (IEA37's 3.35 MW: Ct 8/9, cubic power), which wflo's free-stream engine took before.
    ('weighted-constantct-speedup-bastankhah2014', 'bastankhah2014', 'speedup', 'weighted-iea37'),
]


def write(name, doc):
    path = os.path.join(out_dir, name + '.yaml')
    with open(path, 'w') as f:
        yaml.safe_dump(doc, f, sort_keys=False, width=120, default_flow_style=None)
    print(path, doc['expected']['aep_mwh'])


def case(name, wake, kind, blockage):
    base = yaml.safe_load(open(os.path.join(REF, f'{wake}-random16.yaml')))
    wd_all = np.asarray(base['wind']['wind_direction']); ws_all = np.asarray(base['wind']['wind_speed'])
    dsel = np.arange(0, len(wd_all), 4); ssel = np.nonzero(ws_all <= 20.0)[0]
    wd, ws = wd_all[dsel], ws_all[ssel]
    P = np.asarray(base['wind']['probability'])[np.ix_(dsel, ssel)]
    P = P / P.sum()
    wind = {'wind_direction': fl(wd), 'wind_speed': fl(ws), 'dims': ['wind_direction', 'wind_speed'], 'probability': [fl(r) for r in P],
            'turbulence_intensity': 0.1, 'hours_per_year': base['wind']['hours_per_year'],
            'note': f'every 4th direction and the speeds up to 20 m/s of {wake}-random16.yaml, renormalised to sum to 1'}
    x = np.asarray(base['layout']['x']); y = np.asarray(base['layout']['y'])
    site, block = site_of(kind)
    if wake == 'zong2020':
        parts, call = (lambda: None), 'Zong_PorteAgel_2020(site, V80()) with every default (ZongGaussianDeficit, WeightedSum, CrespoHernandez)'
    else:
        parts, call = WAKES[wake]
    turbine_block = dict(base['turbine'], interpolation=HOLD)
    wt_obj = V80()
    if blockage == 'weighted-iea37':
        from py_wake.examples.data.iea37 import IEA37_WindTurbines
        wt_obj = IEA37_WindTurbines()
        grid = np.arange(0.0, 30.01, 0.25)
        turbine_block = {'name': 'IEA37 3.35 MW', 'rotor_diameter': 130.0, 'hub_height': 110.0,
                         'power_curve': {'wind_speed': fl(grid), 'power_w': fl(wt_obj.power(grid))},
                         'ct_curve': {'wind_speed': fl(grid), 'ct': fl(wt_obj.ct(grid))},
                         'interpolation': "PyWake's IEA37_WindTurbines() sampled every 0.25 m/s for the file's format: the test evaluates wflo's built-in iea37-3.35mw (Ct 8/9 in [4, 25) m/s, power cubic to 9.8 m/s), the turbine PyWake computed with"}
        blockage = 'weighted'
    if blockage == 'weighted':
        # The wake model of the base file with PyWake's WeightedSum() (its defaults: delta 0.01, max_err 1e-3, max_iter 5).
        blockage = False
        plain = parts
        parts = lambda: dict(plain(), superpositionModel=WeightedSum())
        call = call.replace('superpositionModel=LinearSum()', 'superpositionModel=WeightedSum()')
        base['model'] = dict(base['model'], superposition='weighted sum (WeightedSum, Zong & Porte-Agel 2020; delta 0.01, max_err 1e-3, max_iter 5)')
    if wake == 'zong2020':
        wfm = Zong_PorteAgel_2020(site, V80())
        call = f'{call}'
        model = base['model']
    elif blockage:
        wfm = All2AllIterative(site, V80(), blockage_deficitModel=SelfSimilarityDeficit2020(superpositionModel=LinearSum()), convergence_tolerance=1e-12, **parts())
        call = f'All2AllIterative(site, V80(), {call}, blockage_deficitModel={BLOCKAGE}, convergence_tolerance=1e-12)'
        model = dict(base['model'], blockage='self-similarity 2020 (SelfSimilarityDeficit2020, linear sum, not inside the wake radius downstream)',
                     wind_farm_model='All2AllIterative (wakes and blockage iterated to a fixed point; Ct and power at the converged inflow)', convergence_tolerance_ms=1e-12)
    else:
        wfm = PropagateDownwind(site, wt_obj, **parts())
        call = f'PropagateDownwind(site, {type(wt_obj).__name__}(), {call})'
        model = base['model']
    sim = wfm(x, y, wd=wd, ws=ws)
    pw = np.asarray(sim.Power).reshape(len(x), len(wd), len(ws))
    if kind == 'weibull':
        P_ilk = np.broadcast_to(np.asarray(sim.P), (len(x), len(wd), len(ws)))
        per = 8760.0 * np.einsum('ilk,ilk->i', pw, P_ilk) / 1e6
        weights = "each turbine's power by its own P_ilk (sim.P; the probability table of `wind` is not used)"
    else:
        per = 8760.0 * np.einsum('ilk,lk->i', pw, P) / 1e6
        weights = 'each (direction, speed) by the probability table in `wind`'
    chk = wfm(x, y, wd=[270.0], ws=[8.0])
    doc = {'name': f'{wake} {"with self-similarity blockage " if blockage else ""}on a site that is not uniform ({", ".join(block)})',
           'source': {'computed_with': 'PyWake (DTU Wind Energy) source at commit b81c149, by bench/peers/pywake_lift.py',
                      'call': call + '; wd and ws of `wind` in one call',
                      'site': f"XRSite(ds, interp_method='linear'{', shear=PowerShear(h_ref=100, alpha=0.2)' if kind == 'shear' else ''}) with the fields of `site` below (TI 0.1 where no TI field); the AEP weights {weights}",
                      'note': NOTE},
           'turbine': turbine_block, 'wind': wind, 'layout': base['layout'], 'model': model, 'site': block,
           'expected': {'aep_mwh': float(per.sum()), 'aep_per_turbine_mwh': fl(per),
                        'check_condition': {'wind_direction': 270.0, 'wind_speed': 8.0,
                                            'ws_eff': fl(np.asarray(chk.WS_eff).ravel()), 'ct': fl(np.asarray(chk.CT).ravel())}}}
    write(name, doc)


def weighted_tibins(name='weighted-tibins-niayifar2016'):
    """The weighted sum over a rose with a turbulence intensity per (direction, speed) bin: the table, layout and
    per-bin TI of ../tibins-niayifar2016-random16.yaml (PyWake's `TI=` of shape (wd, ws)), Niayifar 2016 with WeightedSum(), a uniform site."""
    from reference_common import site as uniform
    base = yaml.safe_load(open(os.path.join(REF, 'tibins-niayifar2016-random16.yaml')))
    wd = np.asarray(base['wind']['wind_direction']); ws = np.asarray(base['wind']['wind_speed'])
    P = np.asarray(base['wind']['probability']); TIb = np.asarray(base['wind']['turbulence_intensity'])
    x = np.asarray(base['layout']['x']); y = np.asarray(base['layout']['y'])
    parts, call = WAKES['niayifar2016']
    wfm = PropagateDownwind(uniform, V80(), **dict(parts(), superpositionModel=WeightedSum()))
    sim = wfm(x, y, wd=wd, ws=ws, TI=TIb)
    pw = np.asarray(sim.Power).reshape(len(x), len(wd), len(ws))
    per = 8760.0 * np.einsum('ilk,lk->i', pw, P) / 1e6
    chk = wfm(x, y, wd=[270.0], ws=[8.0])
    doc = {'name': 'niayifar2016 with the weighted sum over a rose with a turbulence intensity per bin',
           'source': {'computed_with': 'PyWake (DTU Wind Energy) source at commit b81c149, by bench/peers/pywake_lift.py',
                      'call': 'PropagateDownwind(UniformSite(p_wd=[1], ti=0.1), V80(), ' + call.replace('superpositionModel=LinearSum()', 'superpositionModel=WeightedSum()') + '); sim = wfm(x, y, wd=wd, ws=ws, TI=TI) with TI of shape (wd, ws)',
                      'site': 'uniform; the TI of each (direction, speed) bin as given in `wind`; the AEP weighs each bin by the probability table', 'note': NOTE},
           'turbine': base['turbine'], 'wind': base['wind'], 'layout': base['layout'],
           'model': dict(base['model'], superposition='weighted sum (WeightedSum, Zong & Porte-Agel 2020; delta 0.01, max_err 1e-3, max_iter 5)'),
           'expected': {'aep_mwh': float(per.sum()), 'aep_per_turbine_mwh': fl(per),
                        'check_condition': {'wind_direction': 270.0, 'wind_speed': 8.0, 'turbulence_intensity': 0.1,
                                            'ws_eff': fl(np.asarray(chk.WS_eff).ravel()), 'ct': fl(np.asarray(chk.CT).ravel())}}}
    write(name, doc)


def weighted_series(name='weighted-timeseries-niayifar2016'):
    """The weighted sum over a time series: the samples, weights and layout of ../timeseries-niayifar2016-random16.yaml
    (PyWake's `time=True`, every sample its own TI), Niayifar 2016 with WeightedSum(), on the speed-up and TI fields."""
    base = yaml.safe_load(open(os.path.join(REF, 'timeseries-niayifar2016-random16.yaml')))
    ts = base['wind']['time_series']
    wd = np.asarray(ts['wind_direction']); ws = np.asarray(ts['wind_speed']); ti = np.asarray(ts['turbulence_intensity'])
    w = np.asarray(ts['weight'], dtype=float); w = w / w.sum()
    x = np.asarray(base['layout']['x']); y = np.asarray(base['layout']['y'])
    site, block = site_of('speedup')
    parts, call = WAKES['niayifar2016']
    wfm = PropagateDownwind(site, V80(), **dict(parts(), superpositionModel=WeightedSum()))
    sim = wfm(x, y, wd=wd, ws=ws, TI=ti, time=True)
    pw = np.asarray(sim.Power).reshape(len(x), len(wd))
    per = 8760.0 * (pw * w[None, :]).sum(axis=1) / 1e6
    chk = wfm(x, y, wd=[270.0], ws=[8.0])
    doc = {'name': 'niayifar2016 with the weighted sum over a time series on a speed-up map',
           'source': {'computed_with': 'PyWake (DTU Wind Energy) source at commit b81c149, by bench/peers/pywake_lift.py',
                      'call': 'PropagateDownwind(site, V80(), ' + call.replace('superpositionModel=LinearSum()', 'superpositionModel=WeightedSum()') + '); sim = wfm(x, y, wd=wd_t, ws=ws_t, TI=ti_t, time=True)',
                      'site': "XRSite(ds, interp_method='linear') with the Speedup of `site` (TI 0.1 in the dataset; each sample's TI passed as TI=)",
                      'aep': 'AEP = 8760 h * sum_t weight_t * sum_i Power_i(t) / 1e6, weights normalised to sum to 1', 'note': NOTE},
           'turbine': dict(base['turbine'], interpolation=HOLD), 'wind': base['wind'], 'layout': base['layout'],
           'model': dict(base['model'], superposition='weighted sum (WeightedSum, Zong & Porte-Agel 2020; delta 0.01, max_err 1e-3, max_iter 5)'),
           'site': block,
           'expected': {'aep_mwh': float(per.sum()), 'aep_per_turbine_mwh': fl(per),
                        'check_condition': {'wind_direction': 270.0, 'wind_speed': 8.0, 'turbulence_intensity': 0.1,
                                            'ws_eff': fl(np.asarray(chk.WS_eff).ravel()), 'ct': fl(np.asarray(chk.CT).ravel())}}}
    write(name, doc)


for c in CASES:
    if not only or c[0] in only:
        case(*c)
if not only or 'weighted-tibins-niayifar2016' in only:
    weighted_tibins()
if not only or 'weighted-timeseries-niayifar2016' in only:
    weighted_series()
