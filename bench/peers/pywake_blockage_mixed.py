"""Writes PyWake references of blockage on farms of several turbine types and beside fixed
neighbours (OUT_DIR/blockage-mixed/), and of blockage with the weighted wake sum
(OUT_DIR/blockage-weighted/), in test/data/reference/lifted/ (SOURCE.md in each folder), issue 41:
bigger farms and more directions than the feature-pair matrix's six turbines (bench/peers/pywake_matrix.py).

usage (PyWake and autograd on PYTHONPATH, as the other generators of this folder):
    PYTHONPATH=<PyWake source>:<autograd source>[:<folder with an import guard>] python3 bench/peers/pywake_blockage_mixed.py OUT_DIR [CASE ...]

(OUT_DIR: test/data/reference/lifted.)

Every case: All2AllIterative with SelfSimilarityDeficit2020(superpositionModel=LinearSum()),
converged to 1e-12 m/s (its cap of one iteration per turbine lifted, as in pywake_matrix.py, and
each case asserts it converged), on a uniform site (TI 0.1); 16 own turbines on a jittered 4 x 4
grid at about 5 D; 36 directions (every 10 degrees) x 9 speeds (4-20 m/s), a von Mises direction
distribution times Weibull(9, 2) speed bins. Turbines: PyWake's V80 (80 m, hub 70 m) and Lillgrund
SWT-2.3-93 (93 m, hub 65 m) as WindTurbines.from_WindTurbine_lst, their end values held beyond the
tables (PyWake's PowerCtTabular). Neighbours are extra turbines of the simulation (four to the west,
two to the east, so the farm's induction reaches some of them upstream); the AEP is the farm's own,
and the neighbours' energy beside the farm and alone (a second All2AllIterative call on them alone)
is written too; two mixed farms on the XRSites below (a speed-up under shear, each type sampled
at its own hub height; the speed-up and TI fields). The weighted-sum cases: 16 V80s (one type, as the weighted sum takes), PyWake's
WeightedSum() (delta 0.01, max_err 1e-3, max_iter 5) under Zong 2020 (Zong_PorteAgel_2020's parts),
Niayifar 2016 with Crespo-Hernandez and Bastankhah 2014, on a uniform site and on XRSites that are
not (linear interpolation): the speed-up and TI fields, the per-point 12-sector Weibull and the
power-law shear (h_ref 100 m, alpha 0.2) of bench/peers/pywake_lift.py (the same grid and values,
rounded to 4 decimals so that the `site:` block holds them exactly; TI 0.1 where no TI field). On
the per-point Weibull site each turbine's power weighs by its own P_ilk (sim.P). This script is a generator for facts about PyWake; wflo does not need Python or
PyWake, and no test runs it.
"""
import os
import sys

from reference_common import fl  # noqa: F401  (imports the lfs guard first)
import numpy as np  # noqa: E402
import yaml  # noqa: E402
import xarray as xr  # noqa: E402
from py_wake.site import UniformSite, XRSite  # noqa: E402
from py_wake.site.shear import PowerShear  # noqa: E402
from py_wake.wind_turbines import WindTurbines  # noqa: E402
from py_wake.examples.data.hornsrev1 import V80  # noqa: E402
from py_wake.examples.data import hornsrev1, lillgrund  # noqa: E402
from py_wake.examples.data.lillgrund import SWT23  # noqa: E402
from py_wake.wind_farm_models.engineering_models import All2AllIterative  # noqa: E402
from py_wake.wind_farm_models import engineering_models  # noqa: E402
from py_wake.deficit_models.gaussian import BastankhahGaussianDeficit, NiayifarGaussianDeficit  # noqa: E402
from py_wake.deficit_models.noj import NOJDeficit  # noqa: E402
from py_wake.deficit_models.selfsimilarity import SelfSimilarityDeficit2020  # noqa: E402
from py_wake.deficit_models.utils import ct2a_mom1d, ct2a_madsen  # noqa: E402
from py_wake.rotor_avg_models import CGIRotorAvg  # noqa: E402
from py_wake.rotor_avg_models.area_overlap_model import AreaOverlapAvgModel  # noqa: E402
from py_wake.turbulence_models.crespo import CrespoHernandez  # noqa: E402
from py_wake.superposition_models import LinearSum, SquaredSum, SqrMaxSum, WeightedSum  # noqa: E402
from py_wake.literature.gaussian_models import Zong_PorteAgel_2020  # noqa: E402

MAX_ITERATIONS = 500
_tqdm = engineering_models.tqdm
engineering_models.tqdm = lambda it, *a, **kw: range(MAX_ITERATIONS) if kw.get('unit') == 'Iteration' else _tqdm(it, *a, **kw)

out_dir = sys.argv[1] if len(sys.argv) > 1 else 'lifted'
only = set(sys.argv[2:])
NOTE = 'Reference values computed with PyWake; they are facts about that tool, not about the physical truth.'
HOLD = 'linear between table points; beyond the table the end values are held (PyWake PowerCtTabular without ws_cutin/ws_cutout)'
assert V80().power([30.0])[0] == V80().power([25.0])[0] > 0 and SWT23().power([30.0])[0] == SWT23().power([25.0])[0] > 0

TURBINES = [
    {'name': 'V80', 'rotor_diameter': 80.0, 'hub_height': 70.0,
     'power_curve': {'wind_speed': fl(hornsrev1.power_curve[:, 0]), 'power_w': fl(hornsrev1.power_curve[:, 1])},
     'ct_curve': {'wind_speed': fl(hornsrev1.ct_curve[:, 0]), 'ct': fl(hornsrev1.ct_curve[:, 1])}, 'interpolation': HOLD},
    {'name': 'SWT23', 'rotor_diameter': 93.0, 'hub_height': 65.0,
     'power_curve': {'wind_speed': fl(lillgrund.power_curve[:, 0]), 'power_w': fl(lillgrund.power_curve[:, 1] * 1000.0)},
     'ct_curve': {'wind_speed': fl(lillgrund.ct_curve[:, 0]), 'ct': fl(lillgrund.ct_curve[:, 1])}, 'interpolation': HOLD},
]

rng = np.random.RandomState(4141)
gx, gy = np.meshgrid(np.arange(4) * 430.0, np.arange(4) * 410.0, indexing='ij')
X = np.round(gx.ravel() + rng.uniform(-60.0, 60.0, 16), 1)
Y = np.round(gy.ravel() + rng.uniform(-60.0, 60.0, 16), 1)
CHECKER = np.array([(i + j) % 2 for i in range(4) for j in range(4)])
NX = np.array([-1300.0, -1250.0, -1350.0, -1280.0, 2600.0, 2650.0])
NY = np.array([-150.0, 350.0, 850.0, 1350.0, 300.0, 900.0])
NTYPES = np.array([0, 1, 0, 1, 1, 0])
WD = np.arange(0.0, 360.0, 10.0)
WS = np.arange(4.0, 21.0, 2.0)
_f = np.exp(1.0 * np.cos(np.radians(WD - 260.0)))
_cdf = lambda u: 1.0 - np.exp(-(u / 9.0) ** 2.0)  # noqa: E731
_edges = np.r_[WS[0] - 1.0, (WS[:-1] + WS[1:]) / 2.0, WS[-1] + 1.0]
PROB = _f[:, None] * np.diff(_cdf(_edges))[None, :]
PROB = PROB / PROB.sum()
# A time series (the mixed + neighbours series case): 48 samples of direction, speed, TI and duration.
_rng_t = np.random.RandomState(4242)
N_T = 48
T_WD = np.round(np.mod(250.0 + np.cumsum(_rng_t.normal(0.0, 25.0, N_T)), 360.0), 2)
T_WS = np.round(4.0 + 12.0 * _rng_t.rand(N_T), 2)
T_TI = np.round(0.05 + 0.1 * _rng_t.rand(N_T), 4)
T_MIN = np.where(_rng_t.rand(N_T) < 0.25, 20.0, 10.0)

NIAYIFAR = ({'deficit': 'Niayifar & Porte-Agel 2016 Gaussian (k from local TI)', 'ct2a': 'mom1d', 'turbulence': 'Crespo-Hernandez',
             'a': [0.3837, 0.003678], 'ceps': 0.2, 'use_effective_ws': True, 'use_effective_ti': True,
             'crespo_hernandez_c': [0.73, 0.8325, 0.0325, -0.32], 'added_turbulence_superposition': 'sqrt of max of squares (SqrMaxSum)',
             'superposition': 'linear sum', 'rotor_average': 'rotor centre'},
            lambda: dict(wake_deficitModel=NiayifarGaussianDeficit(a=[0.3837, 0.003678], ceps=0.2, ct2a=ct2a_mom1d, use_effective_ws=True, use_effective_ti=True),
                         superpositionModel=LinearSum(),
                         turbulenceModel=CrespoHernandez(ct2a=ct2a_mom1d, c=[0.73, 0.8325, 0.0325, -0.32], addedTurbulenceSuperpositionModel=SqrMaxSum())),
            'NiayifarGaussianDeficit(a=[0.3837, 0.003678], ceps=0.2, ct2a=ct2a_mom1d, use_effective_ws=True, use_effective_ti=True), LinearSum(), '
            'CrespoHernandez(ct2a=ct2a_mom1d, c=[0.73, 0.8325, 0.0325, -0.32], addedTurbulenceSuperpositionModel=SqrMaxSum())')
BASTANKHAH_CGI4 = ({'deficit': 'Bastankhah & Porte-Agel 2014 Gaussian', 'k': 0.0324555, 'ceps': 0.2, 'ct2a': 'mom1d', 'use_effective_ws': True,
                    'superposition': 'linear sum', 'rotor_average': 'CGI 4 points', 'turbulence': None},
                   lambda: dict(wake_deficitModel=BastankhahGaussianDeficit(k=0.0324555, ceps=0.2, ct2a=ct2a_mom1d, use_effective_ws=True, rotorAvgModel=CGIRotorAvg(4)),
                                superpositionModel=LinearSum()),
                   'BastankhahGaussianDeficit(k=0.0324555, ceps=0.2, ct2a=ct2a_mom1d, use_effective_ws=True, rotorAvgModel=CGIRotorAvg(4)), LinearSum()')
JENSEN = ({'deficit': 'NOJ (Jensen 1983) top-hat', 'k': 0.1, 'ct2a': 'madsen', 'superposition': 'squared sum', 'rotor_average': 'area overlap', 'turbulence': None},
          lambda: dict(wake_deficitModel=NOJDeficit(k=0.1, ct2a=ct2a_madsen, rotorAvgModel=AreaOverlapAvgModel()), superpositionModel=SquaredSum()),
          'NOJDeficit(k=0.1, ct2a=ct2a_madsen, rotorAvgModel=AreaOverlapAvgModel()), SquaredSum()')

# The site fields of bench/peers/pywake_lift.py (the same grid and values).
GX = np.arange(-500.0, 2501.0, 500.0)
GY = np.array([-400.0, 300.0, 700.0, 1200.0, 2000.0, 2600.0])
XX, YY = np.meshgrid(GX, GY, indexing='ij')
SPEEDUP = np.round(1.0 + 0.18 * np.exp(-((XX - 1000.0) ** 2 + (YY - 900.0) ** 2) / 700.0 ** 2), 4)
TIF = np.round(0.06 + 0.05 * (XX - GX[0]) / (GX[-1] - GX[0]) + 0.01 * (YY > 1000), 4)
GWD12 = np.arange(0.0, 360.0, 30.0)
_x3, _y3, _w3 = XX[:, :, None], YY[:, :, None], np.radians(GWD12)[None, None, :]
WEIB_A = np.round(8.5 + 1.2 * np.exp(-((_x3 - 1000.0) ** 2 + (_y3 - 900.0) ** 2) / 700.0 ** 2) + 0.7 * np.cos(_w3 - np.radians(270.0))
                  + 0.4 * (_x3 - GX[0]) / (GX[-1] - GX[0]), 4)
WEIB_K = np.round(2.0 + 0.25 * (_y3 - GY[0]) / (GY[-1] - GY[0]) + 0.1 * np.sin(_w3) + 0.0 * _x3, 4)
_raw = np.exp(1.2 * np.cos(_w3 - np.radians(255.0 + 20.0 * (_y3 - GY[0]) / (GY[-1] - GY[0])))) * (1.0 + 0.0 * _x3)
FREQ = np.round(_raw / _raw.sum(axis=2, keepdims=True), 4)
FREQ[:, :, -1] = np.round(1.0 - FREQ[:, :, :-1].sum(axis=2), 4)


def site_of(kind):
    """(PyWake site, wflo's `site:` block or None) for a site kind: None or 'series' (uniform), speedup+ti, weibull, shear."""
    if kind is None or kind == 'series':
        return UniformSite(p_wd=[1.0], ti=0.1), None
    grid = lambda v: {'x': fl(GX), 'y': fl(GY), 'values': np.asarray(v).tolist()}  # noqa: E731
    ds = xr.Dataset(coords={'x': GX, 'y': GY})
    block, shear = {}, None
    if kind == 'speedup+ti':
        ds['Speedup'] = (('x', 'y'), SPEEDUP); ds['TI'] = (('x', 'y'), TIF)
        block.update(speedup=grid(SPEEDUP), ti=grid(TIF))
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


WEIGHTED_WORDS = 'weighted sum (WeightedSum, Zong & Porte-Agel 2020; delta 0.01, max_err 1e-3, max_iter 5)'


def zong_parts():
    lit = Zong_PorteAgel_2020(UniformSite(p_wd=[1.0], ti=0.1), V80())
    return dict(wake_deficitModel=lit.wake_deficitModel, superpositionModel=lit.superpositionModel, turbulenceModel=lit.turbulenceModel)


ZONG = ({'deficit': 'Zong & Porte-Agel 2020 Gaussian', 'superposition': 'library default', 'turbulence': 'library default',
         'rotor_average': 'rotor centre', 'ct2a': 'library default'},
        zong_parts, 'the parts of Zong_PorteAgel_2020(site, V80()) (ZongGaussianDeficit, WeightedSum(), CrespoHernandez)')
NIAYIFAR_W = (dict(NIAYIFAR[0], superposition=WEIGHTED_WORDS), lambda: dict(NIAYIFAR[1](), superpositionModel=WeightedSum()),
              NIAYIFAR[2].replace('LinearSum()', 'WeightedSum()'))
BASTANKHAH_W = ({'deficit': 'Bastankhah & Porte-Agel 2014 Gaussian', 'k': 0.0324555, 'ceps': 0.2, 'ct2a': 'mom1d', 'use_effective_ws': True,
                 'superposition': WEIGHTED_WORDS, 'rotor_average': 'rotor centre', 'turbulence': None},
                lambda: dict(wake_deficitModel=BastankhahGaussianDeficit(k=0.0324555, ceps=0.2, ct2a=ct2a_mom1d, use_effective_ws=True), superpositionModel=WeightedSum()),
                'BastankhahGaussianDeficit(k=0.0324555, ceps=0.2, ct2a=ct2a_mom1d, use_effective_ws=True), WeightedSum()')

# name: (wake model, own types (None: all V80; 'one': a farm of one V80 model), neighbours)
CASES = {
    'blockage-mixed-niayifar2016': (NIAYIFAR, CHECKER, False),
    'blockage-mixed-cgi4-bastankhah2014': (BASTANKHAH_CGI4, CHECKER, False),
    'blockage-neighbours-niayifar2016': (NIAYIFAR, None, True),
    'blockage-mixed-neighbours-jensen1983': (JENSEN, CHECKER, True),
    'blockage-mixed-shear-niayifar2016': (NIAYIFAR, CHECKER, False, 'shear'),
    'blockage-mixed-speedup-ti-bastankhah2014': (BASTANKHAH_CGI4, CHECKER, False, 'speedup+ti'),
    'blockage-mixed-neighbours-timeseries-niayifar2016': (NIAYIFAR, CHECKER, True, 'series'),
    'blockage-weighted-zong2020': (ZONG, 'one', False),
    'blockage-weighted-niayifar2016': (NIAYIFAR_W, 'one', False),
    'blockage-weighted-bastankhah2014': (BASTANKHAH_W, 'one', False),
    'blockage-weighted-speedup-ti-zong2020': (ZONG, 'one', False, 'speedup+ti'),
    'blockage-weighted-weibull-bastankhah2014': (BASTANKHAH_W, 'one', False, 'weibull'),
    'blockage-weighted-shear-niayifar2016': (NIAYIFAR_W, 'one', False, 'shear'),
}
BLOCKAGE_WORDS = 'self-similarity 2020 (SelfSimilarityDeficit2020, linear sum, not inside the wake radius downstream)'


def run(parts, x, y, types, site=None, series=False):
    wts = V80() if types is None else WindTurbines.from_WindTurbine_lst([V80(), SWT23()])
    wfm = All2AllIterative(site or UniformSite(p_wd=[1.0], ti=0.1), wts, blockage_deficitModel=SelfSimilarityDeficit2020(superpositionModel=LinearSum()),
                           convergence_tolerance=1e-12, **parts())
    kw = {} if types is None else {'type': types}
    if series:
        sim = wfm(x, y, wd=T_WD, ws=T_WS, TI=T_TI, time=True, **kw)
        assert wfm.iterations < MAX_ITERATIONS, wfm.iterations
        pw = np.asarray(sim.Power).reshape(len(x), N_T)
        return 8760.0 * (pw * (T_MIN / T_MIN.sum())[None, :]).sum(1) / 1e6, int(wfm.iterations)
    sim = wfm(x, y, wd=WD, ws=WS, **kw)
    assert wfm.iterations < MAX_ITERATIONS, wfm.iterations
    pw = np.asarray(sim.Power).reshape(len(x), len(WD), len(WS))
    if 'Weibull_A' in getattr(site, 'ds', {}):
        P_ilk = np.broadcast_to(np.asarray(sim.P), (len(x), len(WD), len(WS)))
        return 8760.0 * np.einsum('ilk,ilk->i', pw, P_ilk) / 1e6, int(wfm.iterations)
    return 8760.0 * np.einsum('ilk,lk->i', pw, PROB) / 1e6, int(wfm.iterations)


def case(name, wake, own_types, nb, kind=None):
    words, parts, call = wake
    one = isinstance(own_types, str)
    several = own_types is not None and not one
    own_t = own_types if several else np.zeros(len(X), dtype=int)
    ax, ay, at = (np.r_[X, NX], np.r_[Y, NY], np.r_[own_t, NTYPES]) if nb else (X, Y, None if one else own_t)
    site, block = site_of(kind)
    series = kind == 'series'
    per, iterations = run(parts, ax, ay, at, site, series)
    wts_words = 'V80()' if one else 'WindTurbines.from_WindTurbine_lst([V80(), SWT23()])'

    doc = {'name': name.replace('-', ' '),
           'source': {'computed_with': 'PyWake (DTU Wind Energy) source at commit b81c149, by bench/peers/pywake_blockage_mixed.py', 'note': NOTE,
                      'call': f'All2AllIterative({"UniformSite(p_wd=[1], ti=0.1)" if kind is None else "XRSite(ds, interp_method=linear" + (", shear=PowerShear(h_ref=100, alpha=0.2)" if kind == "shear" else "") + ") with the fields of `site`"}, {wts_words}, {call}, '
                              'blockage_deficitModel=SelfSimilarityDeficit2020(superpositionModel=LinearSum()), convergence_tolerance=1e-12)'
                              f'(x, y, wd, ws{"" if one else ", type=..."}); {iterations} iterations',
                      'aep': ("AEP = 8760 h * sum over (wd, ws) of each turbine's own P_ilk (sim.P) * Power / 1e6; the probability table of `wind` is not used"
                              if kind == 'weibull' else 'AEP = 8760 h * sum_t weight_t * Power_i(t) / 1e6, weights = duration / total duration (time=True, TI per sample)'
                              if series else 'AEP = 8760 h * sum over (wd, ws) of the probability table of `wind` * Power / 1e6')
                             + ("; the farm's own turbines only (the neighbours are extra turbines of the simulation; alone: a call on them only)" if nb else '')}}
    if one:
        doc['turbine'] = TURBINES[0]
    else:
        doc['turbines'] = TURBINES
    if series:
        t0 = np.datetime64('2024-01-01T00:00')
        stamps = np.concatenate([[0.0], np.cumsum(T_MIN[:-1])])
        doc['wind'] = {'time_series': {'time': [str(t0 + np.timedelta64(int(m), 'm')) for m in stamps], 'wind_direction': fl(T_WD),
                                       'wind_speed': fl(T_WS), 'turbulence_intensity': fl(T_TI), 'weight': fl(T_MIN)},
                       'weight_unit': 'minutes (normalised to sum to 1)', 'hours_per_year': 8760}
    else:
        doc['wind'] = {'wind_direction': fl(WD), 'wind_speed': fl(WS), 'dims': ['wind_direction', 'wind_speed'],
                       'probability': [fl(r) for r in PROB], 'turbulence_intensity': 0.1, 'hours_per_year': 8760}
    doc['layout'] = {'x': fl(X), 'y': fl(Y), **({} if one else {'type': [int(v) for v in own_t]})}
    if nb:
        doc['neighbours'] = {'x': fl(NX), 'y': fl(NY), 'type': [int(v) for v in NTYPES]}
    doc['model'] = dict(words, blockage=BLOCKAGE_WORDS, convergence_tolerance_ms=1e-12,
                        wind_farm_model='All2AllIterative (wakes and blockage iterated to a fixed point; Ct and power at the converged inflow)')
    if block:
        doc['site'] = block
    own = per[:len(X)]
    doc['expected'] = {'aep_mwh': float(own.sum()), 'aep_per_turbine_mwh': fl(own)}
    if nb:
        alone, _ = run(parts, NX, NY, NTYPES, None, series)
        doc['expected'].update(neighbour_aep_per_turbine_mwh=fl(per[len(X):]), neighbour_alone_aep_per_turbine_mwh=fl(alone))
    folder = os.path.join(out_dir, 'blockage-weighted' if one else 'blockage-mixed')
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, name + '.yaml')
    with open(path, 'w') as fh:
        yaml.safe_dump(doc, fh, sort_keys=False, width=120, default_flow_style=None)
    print(path, doc['expected']['aep_mwh'], iterations)


for name, spec in CASES.items():
    if not only or name in only:
        case(name, *spec)
