"""Writes time-series and per-bin-turbulence reference cases computed with DTU's PyWake, in the
format of test/data/reference/ (README there), and times PyWake on a large time series.

usage:
  PYTHONPATH=<PyWake source>:<autograd source>[:<folder with an import guard>] python3 pywake_timeseries.py write OUT_DIR
  ... python3 pywake_timeseries.py time SERIES.csv MODEL SIDE      (one JSON line: seconds, peak RSS; bench/realFarms.ts runs it)

Time series (`write`): 300 samples drawn from a seeded generator (directions a random walk with
two decimals, speeds Weibull(9, 2) with two decimals, some below cut-in, none above 24.9 m/s (the
V80 table ends at 25 m/s and PyWake clamps beyond it instead of cutting out),
turbulence intensity 0.03-0.25, weights = durations of 10 or 20 minutes), evaluated by PyWake
sample by sample: `wfm(x, y, wd=wd_t, ws=ws_t, TI=ti_t, time=True)`. PyWake weighs every time
stamp 1/n; the expected AEP here weighs PyWake's per-sample powers by the samples' weights:
AEP = 8760 h * sum_t w_t sum_i P_i(t) / 1e6 MWh (with equal weights this is PyWake's own
sim_res.aep(), stated beside it). Rose with a turbulence intensity per bin: the 72 x 23 table of the
existing cases with TI(wd, ws) = 0.05 + 0.6 / ws + 0.02 sin(wd), PyWake called with TI of shape
(wd, ws) (directions ascending, as PyWake sorts them).

The turbine (V80), wind table and layouts come from test/data/reference/bastankhah2014-*.yaml.
Never needed by the tests (they read the files written here).
"""
import os, sys, json, time, resource, yaml, numpy as np
from reference_common import HERE, REF, site, wt, fl  # first: PyWake's import guard
from py_wake.literature.gaussian_models import Niayifar_PorteAgel_2016, Bastankhah_PorteAgel_2014
from py_wake.wind_farm_models.engineering_models import PropagateDownwind
from py_wake.deficit_models.gaussian import TurboGaussianDeficit
from py_wake.deficit_models.utils import ct2a_mom1d
from py_wake.superposition_models import SquaredSum



def turbopark():
    d = TurboGaussianDeficit(ct2a=ct2a_mom1d, groundModel=None, rotorAvgModel=None)
    d.WS_key = 'WS_jlk'
    return PropagateDownwind(site, wt, wake_deficitModel=d, superpositionModel=SquaredSum())


MODELS = {
    'niayifar2016': (lambda: Niayifar_PorteAgel_2016(site, wt, rotorAvgModel=None),
                     'Niayifar_PorteAgel_2016(site, V80(), rotorAvgModel=None)',
                     {'deficit': 'Niayifar & Porte-Agel 2016 Gaussian (k from local TI)', 'ct2a': 'mom1d', 'turbulence': 'Crespo-Hernandez',
                      'a': [0.3837, 0.003678], 'ceps': 0.2, 'use_effective_ws': True, 'use_effective_ti': True,
                      'crespo_hernandez_c': [0.73, 0.8325, 0.0325, -0.32], 'added_turbulence_superposition': 'sqrt of max of squares (SqrMaxSum)',
                      'superposition': 'linear sum', 'rotor_average': 'rotor centre'}),
    'turbopark2022': (turbopark,
                      "PropagateDownwind(site, V80(), TurboGaussianDeficit(ct2a=ct2a_mom1d, groundModel=None, rotorAvgModel=None) with WS_key='WS_jlk', SquaredSum())",
                      {'deficit': 'TurbOPark (Nygaard et al. 2022)', 'A': 0.04, 'cTI': [1.5, 0.8], 'ceps': 0.25, 'ctlim': 0.999, 'ct2a': 'mom1d',
                       'ground': None, 'rotor_average': 'rotor centre', 'superposition': 'squared sum',
                       'deficit_scaled_by': 'ambient speed at the downstream turbine'}),
    'bastankhah2014': (lambda: Bastankhah_PorteAgel_2014(site, wt, k=0.0324555),
                       'Bastankhah_PorteAgel_2014(site, V80(), k=0.0324555)',
                       {'deficit': 'Bastankhah & Porte-Agel 2014 Gaussian', 'k': 0.0324555, 'ceps': 0.2, 'ct2a': 'mom1d', 'use_effective_ws': True,
                        'rotor_average': 'rotor centre', 'superposition': 'linear sum', 'turbulence': None}),
}
PD = 'PropagateDownwind (turbines solved in downstream order; Ct and power at the waked inflow)'


def series(n, seed):
    rng = np.random.RandomState(seed)
    wd = np.round(np.mod(200 + np.cumsum(rng.normal(0, 25, n)), 360), 2)
    # Below 24.9 m/s: PyWake's V80 table ends at 25 m/s and clamps beyond it (2 MW, no cut-out).
    ws = np.round(np.minimum(9 * rng.weibull(2, n), 24.9), 2)
    ti = np.round(0.03 + 0.22 * rng.rand(n), 4)
    minutes = np.where(rng.rand(n) < 0.2, 20.0, 10.0)
    stamps = np.concatenate([[0.0], np.cumsum(minutes[:-1])])
    t0 = np.datetime64('2024-01-01T00:00')
    times = [str(t0 + np.timedelta64(int(m), 'm')) for m in stamps]
    return times, wd, ws, ti, minutes


def write(out_dir):
    n = 300
    times, wd, ws, ti, minutes = series(n, 20)
    w = minutes / minutes.sum()
    for layout in ('random16', 'grid5x5'):
        base = yaml.safe_load(open(os.path.join(REF, f'bastankhah2014-{layout}.yaml')))
        x = np.asarray(base['layout']['x']); y = np.asarray(base['layout']['y'])
        for name in (('niayifar2016', 'turbopark2022', 'bastankhah2014') if layout == 'random16' else ('niayifar2016',)):
            make, call, spec = MODELS[name]
            wfm = make()
            sim = wfm(x, y, wd=wd, ws=ws, TI=ti, time=True)
            pw = np.asarray(sim.Power).reshape(len(x), n)
            per = 8760.0 * (pw * w[None, :]).sum(1) / 1e6
            equal = float(sim.aep().sum()) * 1000  # PyWake's own AEP (GWh -> MWh), every time stamp 1/n
            k = int(np.argmax(ws * (ws < 15)))
            doc = {
                'name': f'{name} time series on {layout}',
                'source': {'computed_with': 'PyWake (DTU Wind Energy) source at commit b81c149, PropagateDownwind engineering model',
                           'call': f'{call}; sim = wfm(x, y, wd=wd_t, ws=ws_t, TI=ti_t, time=True) (every sample one flow case, its own TI)',
                           'site': 'UniformSite(p_wd=[1], ti=0.1), ambient speed, direction and TI per sample from the series',
                           'aep': 'AEP = 8760 h * sum_t weight_t * sum_i Power_i(t) / 1e6, Power from PyWake, weights = duration / total duration',
                           'note': 'Reference values computed with PyWake; they are facts about that tool, not about the physical truth.',
                           'generator': 'bench/peers/pywake_timeseries.py (seed 20)'},
                'turbine': base['turbine'],
                'wind': {'time_series': {'time': times, 'wind_direction': fl(wd), 'wind_speed': fl(ws), 'turbulence_intensity': fl(ti),
                                         'weight': fl(minutes)},
                         'weight_unit': 'minutes (normalised to sum to 1)', 'hours_per_year': 8760},
                'layout': base['layout'],
                'model': dict(spec, wind_farm_model=PD),
                'expected': {'aep_mwh': float(per.sum()), 'aep_per_turbine_mwh': fl(per),
                             'aep_equal_weights_mwh': equal,
                             'check_sample': {'index': k, 'ws_eff': fl(np.asarray(sim.WS_eff)[:, k]), 'ti_eff': fl(np.asarray(sim.TI_eff)[:, k]),
                                              'ct': fl(np.asarray(sim.CT)[:, k])}},
            }
            path = os.path.join(out_dir, f'timeseries-{name}-{layout}.yaml')
            yaml.safe_dump(doc, open(path, 'w'), sort_keys=False, width=120, default_flow_style=None)
            print(path, doc['expected']['aep_mwh'], equal)
    # A rose with a turbulence intensity per (direction, speed) bin.
    for layout in ('random16',):
        base = yaml.safe_load(open(os.path.join(REF, f'niayifar2016-{layout}.yaml')))
        wdr = np.asarray(base['wind']['wind_direction']); wsr = np.asarray(base['wind']['wind_speed'])
        assert np.all(np.diff(wdr) > 0)
        P = np.asarray(base['wind']['probability'])
        TI = 0.05 + 0.6 / wsr[None, :] + 0.02 * np.sin(np.radians(wdr))[:, None]
        x = np.asarray(base['layout']['x']); y = np.asarray(base['layout']['y'])
        make, call, spec = MODELS['niayifar2016']
        wfm = make()
        sim = wfm(x, y, wd=wdr, ws=wsr, TI=TI)
        pw = np.asarray(sim.Power).reshape(len(x), len(wdr), len(wsr))
        per = 8760.0 * np.einsum('ilk,lk->i', pw, P) / 1e6
        l, kk = int(np.where(wdr == 270)[0][0]), int(np.where(wsr == 8)[0][0])
        wind = dict(base['wind'])
        wind['turbulence_intensity'] = [fl(r) for r in TI]
        wind['turbulence_intensity_formula'] = '0.05 + 0.6 / wind_speed + 0.02 sin(wind_direction)'
        doc = {
            'name': f'niayifar2016 on {layout}, turbulence intensity per bin',
            'source': {'computed_with': 'PyWake (DTU Wind Energy) source at commit b81c149, PropagateDownwind engineering model',
                       'call': f'{call}; sim = wfm(x, y, wd=wd, ws=ws, TI=TI) with TI of shape (wd, ws), directions ascending',
                       'site': 'UniformSite(p_wd=[1], ti=0.1) for the flow; TI per bin as given; the AEP weighs each bin by the probability table',
                       'note': 'Reference values computed with PyWake; they are facts about that tool, not about the physical truth.',
                       'generator': 'bench/peers/pywake_timeseries.py'},
            'turbine': base['turbine'], 'wind': wind, 'layout': base['layout'],
            'model': dict(spec, wind_farm_model=PD),
            'expected': {'aep_mwh': float(per.sum()), 'aep_per_turbine_mwh': fl(per),
                         'check_condition': {'wind_direction': 270.0, 'wind_speed': 8.0, 'turbulence_intensity': float(TI[l, kk]),
                                             'ws_eff': fl(np.asarray(sim.WS_eff)[:, l, kk]), 'ct': fl(np.asarray(sim.CT)[:, l, kk])}},
        }
        path = os.path.join(out_dir, f'tibins-niayifar2016-{layout}.yaml')
        yaml.safe_dump(doc, open(path, 'w'), sort_keys=False, width=120, default_flow_style=None)
        print(path, doc['expected']['aep_mwh'])


def timing(csv_path, model, side):
    """PyWake on the bench's time series (a CSV: wind_direction, wind_speed, turbulence_intensity; equal weights),
    V80 on a side x side grid at 5D (400 m), PropagateDownwind with the reference options of `model`.
    Samples go to PyWake in chunks (PYWAKE_CHUNK, default 10000) to bound its memory; one JSON line."""
    data = np.genfromtxt(csv_path, delimiter=',', names=True)
    wd, ws, ti = data['wind_direction'], data['wind_speed'], data['turbulence_intensity']
    n = len(wd)
    gx, gy = np.meshgrid(np.arange(side) * 400.0, np.arange(side) * 400.0, indexing='ij')
    x, y = gx.ravel(), gy.ravel()
    wfm = MODELS[model][0]()
    chunk = int(os.environ.get('PYWAKE_CHUNK', '10000'))
    t, c = time.perf_counter(), time.process_time()
    total = 0.0
    for a in range(0, n, chunk):
        sl = slice(a, min(n, a + chunk))
        sim = wfm(x, y, wd=wd[sl], ws=ws[sl], TI=ti[sl], time=True)
        total += float(np.asarray(sim.Power).sum())
    secs, cpu = time.perf_counter() - t, time.process_time() - c
    print(json.dumps({'peer': 'pywake', 'case': f'time series {n} samples x {len(x)} V80, {model}', 'aep_mwh': 8760.0 * total / n / 1e6, 'chunk': chunk,
                      'seconds': secs, 'cpu_s': cpu, 'peak_rss_mb': resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                      'load': open('/proc/loadavg').read().split()[:3]}))


if __name__ == '__main__':
    if sys.argv[1] == 'write':
        write(sys.argv[2])
    else:
        timing(sys.argv[2], sys.argv[3], int(sys.argv[4]))
