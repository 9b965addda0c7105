"""Writes the feature-pair matrix of PyWake reference cases (test/data/reference/matrix/; SOURCE.md
there): one small case for every pair of the ten features below, in the reference-file format wflo
reads (test/data/reference/README.md), with PyWake's AEP in total and per turbine. Issue 41's
acceptance: every pair either runs in wflo equal to PyWake, or is refused with a documented reason
(test/physics/combinationMatrix.test.ts; docs/inputs.md, "Feature pairs").

usage (PyWake and autograd on PYTHONPATH, as the other generators of this folder):
    PYTHONPATH=<PyWake source>:<autograd source>[:<folder with an import guard>] python3 bench/peers/pywake_matrix.py OUT_DIR

The features:
  site        XRSite Speedup and TI fields over (x, y), linear interpolation
  weibull     XRSite Weibull_A, Weibull_k, Sector_frequency over (x, y, wd; 12 sectors): each
              turbine's own P_ilk weights its power (the rose's probability table is not used)
  shear       PowerShear(h_ref=100, alpha=0.2) (hub heights 70 m, and 65 m for the SWT-2.3-93)
  mixed       two turbine types (V80, SWT-2.3-93), WindTurbines.from_WindTurbine_lst, type= per turbine
  neighbours  three fixed turbines upstream, simulated as extra turbines; the AEP is the farm's own
  timeseries  24 samples (wd, ws, TI, weight) evaluated with time=True; AEP weighted by the weights
  blockage    All2AllIterative with SelfSimilarityDeficit2020(superpositionModel=LinearSum()), tolerance 1e-12
              (its cap of one iteration per turbine lifted, below, so the fixed point is reached)
  weighted    WeightedSum superposition (Zong_PorteAgel_2020, its literature defaults)
  turbopark   TurboGaussianDeficit (ct2a_mom1d, WS_key='WS_jlk'), SquaredSum
  rotor       CGIRotorAvg(4) on the wake deficit
The wake model is Niayifar_PorteAgel_2016 (rotor centre) unless the pair names weighted (Zong 2020)
or turbopark (TurbOPark; with weighted, TurbOPark's deficit under WeightedSum). Every case: 6 turbines
on a jittered 2 x 3 grid at ~5 D, 24 directions x 5 speeds (a rose) or 24 samples (a series), TI 0.1.

A pair PyWake cannot compute is written without `expected`, with `pywake_cannot: REASON`, so that
wflo's refusal of it is still checked. This script is a generator for facts about PyWake; wflo does
not need Python or PyWake, and no test runs it.
"""
import itertools
import os
import sys

from reference_common import fl  # noqa: F401  (imports the lfs guard first)
import numpy as np  # noqa: E402
import xarray as xr  # noqa: E402
import yaml  # noqa: E402
from py_wake.site import XRSite, UniformSite  # noqa: E402
from py_wake.site.shear import PowerShear  # noqa: E402
from py_wake.wind_turbines import WindTurbines  # noqa: E402
from py_wake.examples.data.hornsrev1 import V80  # noqa: E402
from py_wake.examples.data import hornsrev1, lillgrund  # noqa: E402
from py_wake.examples.data.lillgrund import SWT23  # noqa: E402
from py_wake.literature.gaussian_models import Niayifar_PorteAgel_2016, Zong_PorteAgel_2020  # noqa: E402
from py_wake.wind_farm_models.engineering_models import PropagateDownwind, All2AllIterative  # noqa: E402
from py_wake.deficit_models.gaussian import TurboGaussianDeficit  # noqa: E402
from py_wake.deficit_models.selfsimilarity import SelfSimilarityDeficit2020  # noqa: E402
from py_wake.deficit_models.utils import ct2a_mom1d  # noqa: E402
from py_wake.superposition_models import SquaredSum, LinearSum, WeightedSum  # noqa: E402
from py_wake.rotor_avg_models import CGIRotorAvg  # noqa: E402
from py_wake.wind_farm_models import engineering_models  # noqa: E402

# All2AllIterative iterates at most once per turbine (engineering_models.py, `for j in tqdm(range(I), ...,
# unit="Iteration")`): on 6 turbines it stops short of 1e-12 m/s (measured: AEP 2e-9 to 7e-9 away from
# the fixed point with rotor averaging and TurbOPark). Its iteration loop alone gets up to 500 rounds here;
# PropagateDownwind's loops (unit "wt") are left as they are. Every blockage case asserts it converged.
_tqdm = engineering_models.tqdm
engineering_models.tqdm = lambda it, *a, **kw: range(500) if kw.get('unit') == 'Iteration' else _tqdm(it, *a, **kw)
MAX_ITERATIONS = 500

out_dir = sys.argv[1] if len(sys.argv) > 1 else 'matrix'
os.makedirs(out_dir, exist_ok=True)

FEATURES = ['site', 'weibull', 'shear', 'mixed', 'neighbours', 'timeseries', 'blockage', 'weighted', 'turbopark', 'rotor']
# Pairs PyWake does not compute, and why (the case is written without `expected`).
PYWAKE_CANNOT = {
    ('weibull', 'timeseries'): "PyWake's XRSite weighs every time stamp 1/n in time mode (py_wake/site/xrsite.py, _local_wind: "
                               "P_ilk = 1/len(time)) and never forms the Weibull probabilities: a per-point Weibull gives each "
                               "turbine's probability of a (direction, speed) bin, and a time series has samples, not bins",
}
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

# The farm, the neighbours, the rose and the series.
X = np.array([0.0, 410.0, 790.0, 30.0, 420.0, 820.0])
Y = np.array([0.0, 40.0, -30.0, 380.0, 430.0, 400.0])
TYPES = np.array([0, 1, 0, 1, 0, 1])
NX = np.array([-1200.0, -1250.0, -1150.0])
NY = np.array([-100.0, 250.0, 550.0])
NTYPES = np.array([0, 1, 0])
WD = np.arange(0.0, 360.0, 15.0)
WS = np.array([5.0, 7.0, 9.0, 11.0, 13.0])
_f = np.exp(1.1 * np.cos(np.radians(WD - 255.0)))
_cdf = lambda u: 1.0 - np.exp(-(u / 9.0) ** 2.0)  # noqa: E731
_edges = np.r_[WS[0] - 1.0, (WS[:-1] + WS[1:]) / 2.0, WS[-1] + 1.0]
PROB = _f[:, None] * np.diff(_cdf(_edges))[None, :]
PROB = PROB / PROB.sum()
rng = np.random.RandomState(41)
N_T = 24
T_WD = np.round(np.mod(240.0 + np.cumsum(rng.normal(0.0, 30.0, N_T)), 360.0), 2)
T_WS = np.round(4.0 + 10.0 * rng.rand(N_T), 2)
T_TI = np.round(0.05 + 0.1 * rng.rand(N_T), 4)
T_MIN = np.where(rng.rand(N_T) < 0.25, 20.0, 10.0)

# The site's grid (covering the farm and the neighbours) and its fields.
GX = np.array([-1600.0, -800.0, 0.0, 600.0, 1200.0])
GY = np.array([-500.0, 200.0, 900.0])
XX, YY = np.meshgrid(GX, GY, indexing='ij')
SPEEDUP = np.round(1.0 + 0.15 * np.exp(-((XX - 400.0) ** 2 + (YY - 300.0) ** 2) / 600.0 ** 2) - 0.03 * (XX < -1000), 4)
TIF = np.round(0.07 + 0.04 * (XX - GX[0]) / (GX[-1] - GX[0]) + 0.01 * (YY > 500), 4)
GWD12 = np.arange(0.0, 360.0, 30.0)
W3 = np.radians(GWD12)[None, None, :]
x3, y3 = XX[:, :, None], YY[:, :, None]
WA = np.round(8.5 + 1.0 * np.exp(-((x3 - 400.0) ** 2 + (y3 - 300.0) ** 2) / 700.0 ** 2) + 0.7 * np.cos(W3 - np.radians(270.0)) + 0.3 * (x3 - GX[0]) / (GX[-1] - GX[0]), 4)
WK = np.round(2.0 + 0.2 * (y3 - GY[0]) / (GY[-1] - GY[0]) + 0.1 * np.sin(W3) + 0.0 * x3, 4)
_raw = np.exp(1.2 * np.cos(W3 - np.radians(250.0 + 20.0 * (y3 - GY[0]) / (GY[-1] - GY[0])))) * (1.0 + 0.0 * x3)
WF = np.round(_raw / _raw.sum(axis=2, keepdims=True), 4)
WF[:, :, -1] = np.round(1.0 - WF[:, :, :-1].sum(axis=2), 4)
assert np.all(np.abs(WF.sum(axis=2) - 1.0) < 1e-9) and np.all(WF > 0)


def grid_block(values):
    return {'x': fl(GX), 'y': fl(GY), 'values': np.asarray(values).tolist()}


def make_site(f):
    """PyWake's site and wflo's `site:` block (None: uniform) for the features f."""
    shear = PowerShear(h_ref=100.0, alpha=0.2) if 'shear' in f else None
    block = {}
    if 'site' not in f and 'weibull' not in f:
        site = UniformSite(p_wd=[1.0], ti=0.1, shear=shear)
    else:
        ds = xr.Dataset(coords={'x': GX, 'y': GY})
        if 'site' in f:
            ds['Speedup'] = (('x', 'y'), SPEEDUP)
            ds['TI'] = (('x', 'y'), TIF)
            block['speedup'] = grid_block(SPEEDUP)
            block['ti'] = grid_block(TIF)
        else:
            ds['TI'] = 0.1
        if 'weibull' in f:
            ds = ds.assign_coords(wd=GWD12)
            for var, values in [('Weibull_A', WA), ('Weibull_k', WK), ('Sector_frequency', WF)]:
                ds[var] = (('x', 'y', 'wd'), values)
            block['weibull'] = {'x': fl(GX), 'y': fl(GY), 'wd': fl(GWD12), 'A': WA.tolist(), 'k': WK.tolist(), 'frequency': WF.tolist()}
        else:
            ds['P'] = 1.0
        site = XRSite(ds, interp_method='linear', shear=shear)
    if shear is not None:
        block['shear'] = {'power': {'h_ref': 100.0, 'alpha': 0.2}}
    return site, (block or None)


NIAYIFAR_MODEL = {'deficit': 'Niayifar & Porte-Agel 2016 Gaussian (k from local TI)', 'ct2a': 'mom1d', 'turbulence': 'Crespo-Hernandez',
                  'a': [0.3837, 0.003678], 'ceps': 0.2, 'use_effective_ws': True, 'use_effective_ti': True,
                  'crespo_hernandez_c': [0.73, 0.8325, 0.0325, -0.32], 'added_turbulence_superposition': 'sqrt of max of squares (SqrMaxSum)',
                  'superposition': 'linear sum', 'rotor_average': 'rotor centre'}
ZONG_MODEL = {'deficit': 'Zong & Porte-Agel 2020 Gaussian', 'superposition': 'library default', 'turbulence': 'library default',
              'rotor_average': 'rotor centre', 'ct2a': 'library default'}
TURBOPARK_MODEL = {'deficit': 'TurbOPark (Nygaard et al. 2022)', 'A': 0.04, 'cTI': [1.5, 0.8], 'ceps': 0.25, 'ctlim': 0.999, 'ct2a': 'mom1d',
                   'ground': None, 'rotor_average': 'rotor centre', 'superposition': 'squared sum',
                   'deficit_scaled_by': 'ambient speed at the downstream turbine'}
PD = 'PropagateDownwind (turbines solved in downstream order; Ct and power at the waked inflow)'
A2A = 'All2AllIterative (wakes and blockage iterated to a fixed point; Ct and power at the converged inflow)'
BLOCKAGE = 'self-similarity 2020 (SelfSimilarityDeficit2020, linear sum, not inside the wake radius downstream)'


def make_model(f, site, wts):
    """PyWake's wind farm model, its call in words, and wflo's `model:` block for the features f."""
    rotor = CGIRotorAvg(4) if 'rotor' in f else None
    rotor_words = 'CGIRotorAvg(4)' if rotor else 'None'
    if 'turbopark' in f:
        d = TurboGaussianDeficit(ct2a=ct2a_mom1d, groundModel=None, rotorAvgModel=rotor)
        d.WS_key = 'WS_jlk'
        sup = WeightedSum() if 'weighted' in f else SquaredSum()
        parts = dict(wake_deficitModel=d, superpositionModel=sup)
        call = (f"TurboGaussianDeficit(ct2a=ct2a_mom1d, groundModel=None, rotorAvgModel={rotor_words}) with WS_key='WS_jlk', "
                f"{type(sup).__name__}()")
        model = dict(TURBOPARK_MODEL, superposition='weighted sum' if 'weighted' in f else 'squared sum')
    elif 'weighted' in f:
        lit = Zong_PorteAgel_2020(site, wts, rotorAvgModel=rotor)
        parts = dict(wake_deficitModel=lit.wake_deficitModel, superpositionModel=lit.superpositionModel, turbulenceModel=lit.turbulenceModel)
        call = f'the parts of Zong_PorteAgel_2020(site, wts, rotorAvgModel={rotor_words}) (WeightedSum, CrespoHernandez(c=[0.73, 0.83, 0.03, -0.32]))'
        model = dict(ZONG_MODEL)
    else:
        lit = Niayifar_PorteAgel_2016(site, wts, rotorAvgModel=rotor)
        parts = dict(wake_deficitModel=lit.wake_deficitModel, superpositionModel=lit.superpositionModel, turbulenceModel=lit.turbulenceModel)
        call = f'the parts of Niayifar_PorteAgel_2016(site, wts, rotorAvgModel={rotor_words})'
        model = dict(NIAYIFAR_MODEL)
    if rotor is not None:
        model['rotor_average'] = 'CGI 4 points'
    if 'blockage' in f:
        wfm = All2AllIterative(site, wts, blockage_deficitModel=SelfSimilarityDeficit2020(superpositionModel=LinearSum()),
                               convergence_tolerance=1e-12, **parts)
        call = f'All2AllIterative(site, wts, {call}, blockage_deficitModel=SelfSimilarityDeficit2020(superpositionModel=LinearSum()), convergence_tolerance=1e-12)'
        model.update(blockage=BLOCKAGE, wind_farm_model=A2A, convergence_tolerance_ms=1e-12)
    else:
        wfm = PropagateDownwind(site, wts, **parts)
        call = f'PropagateDownwind(site, wts, {call})'
        model['wind_farm_model'] = PD
    return wfm, call, model


def case(a, b):
    f = {a, b}
    name = f'{a}+{b}'
    site, site_block = make_site(f)
    several = 'mixed' in f
    wts = WindTurbines.from_WindTurbine_lst([V80(), SWT23()]) if several else V80()
    own_t = TYPES if several else np.zeros(len(X), dtype=int)
    nb = 'neighbours' in f
    ax, ay = (np.r_[X, NX], np.r_[Y, NY]) if nb else (X, Y)
    at = np.r_[own_t, NTYPES if several else np.zeros(len(NX), dtype=int)] if nb else own_t
    doc = {'name': f'feature pair {a} x {b}', 'pair': [a, b],
           'source': {'computed_with': 'PyWake (DTU Wind Energy) source at commit b81c149, by bench/peers/pywake_matrix.py', 'note': NOTE}}
    if several:
        doc['turbines'] = TURBINES
    else:
        doc['turbine'] = TURBINES[0]
    if 'timeseries' in f:
        t0 = np.datetime64('2024-01-01T00:00')
        stamps = np.concatenate([[0.0], np.cumsum(T_MIN[:-1])])
        doc['wind'] = {'time_series': {'time': [str(t0 + np.timedelta64(int(m), 'm')) for m in stamps], 'wind_direction': fl(T_WD),
                                       'wind_speed': fl(T_WS), **({} if 'site' in f else {'turbulence_intensity': fl(T_TI)}), 'weight': fl(T_MIN)},
                       'weight_unit': 'minutes (normalised to sum to 1)', 'hours_per_year': 8760}
    else:
        doc['wind'] = {'wind_direction': fl(WD), 'wind_speed': fl(WS), 'dims': ['wind_direction', 'wind_speed'],
                       'probability': [fl(r) for r in PROB], 'turbulence_intensity': 0.1, 'hours_per_year': 8760}
    doc['layout'] = {'x': fl(X), 'y': fl(Y), **({'type': [int(v) for v in own_t]} if several else {})}
    if nb:
        doc['neighbours'] = {'x': fl(NX), 'y': fl(NY), **({'type': [int(v) for v in NTYPES]} if several else {})}
    wfm, call, model = make_model(f, site, wts)
    doc['model'] = model
    if site_block:
        doc['site'] = site_block
    cannot = PYWAKE_CANNOT.get((a, b))
    if cannot:
        doc['pywake_cannot'] = cannot
        return name, doc
    kw = {'type': at} if several else {}
    n = len(ax)
    if 'timeseries' in f:
        # With a TI field the series carries no TI: PyWake's TI argument replaces the site's local TI
        # (engineering_models.py, lw.add_ilk('TI_ilk', ...)), where wflo's TI field replaces the wind's;
        # without it both take the field.
        ti = {} if 'site' in f else {'TI': T_TI}
        sim = wfm(ax, ay, wd=T_WD, ws=T_WS, time=True, **ti, **kw)
        pw = np.asarray(sim.Power).reshape(n, N_T)
        w = T_MIN / T_MIN.sum()
        per = 8760.0 * (pw * w[None, :]).sum(1) / 1e6
        aep_words = 'AEP = 8760 h * sum_t weight_t * Power_i(t) / 1e6, weights = duration / total duration'
    else:
        sim = wfm(ax, ay, wd=WD, ws=WS, **kw)
        pw = np.asarray(sim.Power).reshape(n, len(WD), len(WS))
        if 'weibull' in f:
            P_ilk = np.broadcast_to(np.asarray(sim.P), (n, len(WD), len(WS)))
            assert np.ptp(P_ilk, axis=0).max() > 0
            per = 8760.0 * np.einsum('ilk,ilk->i', pw, P_ilk) / 1e6
            aep_words = "AEP = 8760 h * sum over (wd, ws) of each turbine's own P_ilk (sim.P) * Power / 1e6; the probability table of `wind` is not used"
        else:
            per = 8760.0 * np.einsum('ilk,lk->i', pw, PROB) / 1e6
            aep_words = 'AEP = 8760 h * sum over (wd, ws) of the probability table of `wind` * Power / 1e6'
    if 'blockage' in f:
        assert wfm.iterations < MAX_ITERATIONS, (name, wfm.iterations)
        doc['source']['iterations'] = int(wfm.iterations)
    own = per[:len(X)]
    doc['source'].update(call=call, site=site_words(f), aep=aep_words + ('; the farm\'s own turbines only (the neighbours are extra turbines of the simulation)' if nb else ''))
    doc['expected'] = {'aep_mwh': float(own.sum()), 'aep_per_turbine_mwh': fl(own)}
    return name, doc


def site_words(f):
    parts = []
    if 'site' in f:
        parts.append('Speedup and TI of `site.speedup`, `site.ti`')
    if 'weibull' in f:
        parts.append('Weibull_A, Weibull_k, Sector_frequency of `site.weibull` (x, y, wd; 12 sectors)')
    if 'shear' in f:
        parts.append('shear=PowerShear(h_ref=100, alpha=0.2)')
    if not parts:
        return 'UniformSite(p_wd=[1], ti=0.1)'
    return ("XRSite(ds, interp_method='linear'" if ('site' in f or 'weibull' in f) else 'UniformSite(p_wd=[1], ti=0.1') + ') with ' + ', '.join(parts)


for a, b in itertools.combinations(FEATURES, 2):
    name, doc = case(a, b)
    path = os.path.join(out_dir, name + '.yaml')
    with open(path, 'w') as fh:
        yaml.safe_dump(doc, fh, sort_keys=False, width=120, default_flow_style=None)
    print(path, doc.get('expected', {}).get('aep_mwh', 'PyWake cannot: ' + doc.get('pywake_cannot', '')[:60]))
