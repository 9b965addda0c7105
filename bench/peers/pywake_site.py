"""Writes the PyWake reference cases for sites that are not uniform (test/data/reference/site-*.yaml;
SOURCE.md there): a speed-up map, a TI map, a direction-dependent speed-up, vertical shear and a
per-point sector Weibull grid, each as PyWake's XRSite (linear interpolation, bounds checked)
under PropagateDownwind.

usage (PyWake and autograd on PYTHONPATH, as the other generators of this folder):
    PYTHONPATH=<PyWake source>:<autograd source>[:<folder with an import guard>] python3 bench/peers/pywake_site.py OUT_DIR [NC_DIR]

Turbine, wind table and layout: those of test/data/reference/<model>-random16.yaml (PyWake's V80,
72 directions x 23 speeds, 16 random turbines). The site's fields are written into each document's
`site:` block in wflo's inline form (values nested x, y[, wd]); with NC_DIR, each site's dataset is
also written there as netCDF by xarray (`ds.to_netcdf`), as PyWake's XRSite.save does. The AEP
weights each (direction, speed) by the file's probability table (the dataset's `P` only satisfies
XRSite; it does not enter the AEP), except on the per-point Weibull sites (site-weibull-*), whose
AEP weights each turbine's power by its own P_ilk (XRSite's, from Weibull_A, Weibull_k and
Sector_frequency at the turbine; the file's probability table is not used). This script is a generator for facts about PyWake; wflo does
not need Python or PyWake.
"""
import os
import sys

from reference_common import REF, fl  # noqa: F401  (imports the lfs guard first)
import numpy as np  # noqa: E402
import xarray as xr  # noqa: E402
import yaml  # noqa: E402
from py_wake.site import XRSite  # noqa: E402
from py_wake.site.shear import PowerShear, LogShear  # noqa: E402
from py_wake.wind_turbines import WindTurbines  # noqa: E402
from py_wake.examples.data.hornsrev1 import V80  # noqa: E402
from py_wake.examples.data.lillgrund import SWT23  # noqa: E402
from py_wake.examples.data import lillgrund  # noqa: E402
from py_wake.literature.gaussian_models import Bastankhah_PorteAgel_2014, Niayifar_PorteAgel_2016  # noqa: E402
from py_wake.literature.noj import Jensen_1983  # noqa: E402

out_dir = sys.argv[1] if len(sys.argv) > 1 else 'cases'
nc_dir = sys.argv[2] if len(sys.argv) > 2 else None
os.makedirs(out_dir, exist_ok=True)
if nc_dir:
    os.makedirs(nc_dir, exist_ok=True)

NOTE = 'Reference values computed with PyWake; they are facts about that tool, not about the physical truth.'

# The grid: x regular, y irregular (PyWake searches an irregular axis), covering the layouts (80..1925 m).
GX = np.arange(-500.0, 2501.0, 500.0)
GY = np.array([-400.0, 300.0, 700.0, 1200.0, 2000.0, 2600.0])
XX, YY = np.meshgrid(GX, GY, indexing='ij')
# A hill of speed-up centred at (1000, 900) and a TI that rises to the east; values rounded so the YAML holds them exactly.
SPEEDUP = np.round(1.0 + 0.18 * np.exp(-((XX - 1000.0) ** 2 + (YY - 900.0) ** 2) / 700.0 ** 2), 4)
TI = np.round(0.06 + 0.05 * (XX - GX[0]) / (GX[-1] - GX[0]) + 0.01 * (YY > 1000), 4)
# Direction-dependent speed-up: four sectors (0, 90, 180, 270), which XRSite closes at 360.
GWD = np.array([0.0, 90.0, 180.0, 270.0])
SPEEDUP_WD = np.round(SPEEDUP[:, :, None] * np.array([1.0, 1.06, 0.95, 1.1])[None, None, :]
                      + 0.02 * np.cos(np.radians(GWD))[None, None, :] * (XX[:, :, None] / 2500.0), 4)


def dataset(speedup=None, ti=None, speedup_dims=('x', 'y')):
    """The XRSite dataset: the fields, plus a P that only satisfies XRSite (the AEP uses the table)."""
    ds = xr.Dataset(coords={'x': GX, 'y': GY})
    if speedup is not None:
        if 'wd' in speedup_dims:
            ds = ds.assign_coords(wd=GWD)
        ds['Speedup'] = (speedup_dims, speedup)
    ds['TI'] = (('x', 'y'), ti) if ti is not None else 0.1
    if 'wd' in ds.coords:
        ds['P'] = ('wd', np.full(len(GWD), 1.0 / len(GWD)))
    else:
        ds['P'] = 1.0
    return ds


def field_block(values, dims):
    out = {'x': fl(GX), 'y': fl(GY)}
    if 'wd' in dims:
        out['wd'] = fl(GWD)
    out['values'] = np.asarray(values).tolist()
    return out


def run(wfm, x, y, wd, ws, P, t=None):
    kw = {} if t is None else {'type': t}
    sim = wfm(x, y, wd=wd, ws=ws, **kw)
    pw = np.asarray(sim.Power).reshape(len(x), len(wd), len(ws))
    per = 8760.0 * np.einsum('ilk,lk->i', pw, P) / 1e6
    chk = wfm(x, y, wd=[270.0], ws=[8.0], **kw)
    return per, chk


MODELS = {
    'bastankhah2014': (lambda s, wt: Bastankhah_PorteAgel_2014(s, wt, k=0.0324555), 'Bastankhah_PorteAgel_2014(site, wt, k=0.0324555)'),
    'jensen1983': (lambda s, wt: Jensen_1983(s, wt), 'Jensen_1983(site, wt)'),
    'niayifar2016': (lambda s, wt: Niayifar_PorteAgel_2016(s, wt, rotorAvgModel=None), 'Niayifar_PorteAgel_2016(site, wt, rotorAvgModel=None)'),
}

CASES = [
    # name, model, site call, dataset, site block
    ('site-speedup-bastankhah2014', 'bastankhah2014', dataset(SPEEDUP), {'speedup': field_block(SPEEDUP, 'xy')}),
    ('site-speedup-jensen1983', 'jensen1983', dataset(SPEEDUP), {'speedup': field_block(SPEEDUP, 'xy')}),
    ('site-ti-niayifar2016', 'niayifar2016', dataset(SPEEDUP, TI), {'speedup': field_block(SPEEDUP, 'xy'), 'ti': field_block(TI, 'xy')}),
    ('site-wd-niayifar2016', 'niayifar2016', dataset(SPEEDUP_WD, speedup_dims=('x', 'y', 'wd')), {'speedup': field_block(SPEEDUP_WD, ('x', 'y', 'wd'))}),
]


# PyWake's tabulated turbines hold their end values beyond the table (checked below): with a speed-up,
# local speeds pass 25 m/s, where the uniform references never went.
HOLD = 'linear between table points; beyond the table the end values are held (PyWake PowerCtTabular without ws_cutin/ws_cutout)'
assert V80().power([30.0])[0] == V80().power([25.0])[0] > 0 and SWT23().power([30.0])[0] == SWT23().power([25.0])[0] > 0


def held(t):
    return dict(t, interpolation=HOLD)


def write(name, doc):
    path = os.path.join(out_dir, name + '.yaml')
    with open(path, 'w') as f:
        yaml.safe_dump(doc, f, sort_keys=False, width=120, default_flow_style=None)
    print(path, doc['expected']['aep_mwh'])


for name, key, ds, block in CASES:
    base = yaml.safe_load(open(os.path.join(REF, f'{key}-random16.yaml')))
    wd = np.asarray(base['wind']['wind_direction']); ws = np.asarray(base['wind']['wind_speed'])
    P = np.asarray(base['wind']['probability'])
    x = np.asarray(base['layout']['x']); y = np.asarray(base['layout']['y'])
    make, call = MODELS[key]
    site = XRSite(ds.copy(), interp_method='linear')
    per, chk = run(make(site, V80()), x, y, wd, ws, P)
    if nc_dir:
        ds.to_netcdf(os.path.join(nc_dir, name + '.nc'))
    doc = {'name': f'{key} on a site that is not uniform ({", ".join(block)})',
           'source': {'computed_with': 'PyWake (DTU Wind Energy) source at commit b81c149, PropagateDownwind engineering model, by bench/peers/pywake_site.py',
                      'call': call,
                      'site': "XRSite(ds, interp_method='linear') with the fields of `site` below (Speedup, TI; TI 0.1 where no TI field); the AEP weights each (direction, speed) by the probability table in `wind`",
                      'note': NOTE},
           'turbine': held(base['turbine']), 'wind': base['wind'], 'layout': base['layout'], 'model': base['model'],
           'site': block,
           'expected': {'aep_mwh': float(per.sum()), 'aep_per_turbine_mwh': fl(per),
                        'check_condition': {'wind_direction': 270.0, 'wind_speed': 8.0,
                                            'ws_eff': fl(np.asarray(chk.WS_eff).ravel()), 'ct': fl(np.asarray(chk.CT).ravel())}}}
    if 'TI' in ds and ds['TI'].ndim == 0:
        doc['wind'] = dict(doc['wind'], turbulence_intensity=0.1)
    write(name, doc)

# Vertical shear on a farm of two hub heights (V80 at 70 m, SWT-2.3-93 at 65 m): power law and log
# law about h_ref = 100 m, on the speed-up map; Bastankhah 2014.
mixed = yaml.safe_load(open(os.path.join(REF, 'mixed-bastankhah2014.yaml')))
wts = WindTurbines.from_WindTurbine_lst([V80(), SWT23()])
assert lillgrund.power_curve is not None
for law, shear, block in [('power', PowerShear(h_ref=100.0, alpha=0.2), {'power': {'h_ref': 100.0, 'alpha': 0.2}}),
                          ('log', LogShear(h_ref=100.0, z0=0.03), {'log': {'h_ref': 100.0, 'z0': 0.03}})]:
    wd = np.asarray(mixed['wind']['wind_direction']); ws = np.asarray(mixed['wind']['wind_speed'])
    P = np.asarray(mixed['wind']['probability'])
    x = np.asarray(mixed['layout']['x']); y = np.asarray(mixed['layout']['y']); t = np.asarray(mixed['layout']['type'])
    site = XRSite(dataset(SPEEDUP), interp_method='linear', shear=shear)
    per, chk = run(Bastankhah_PorteAgel_2014(site, wts, k=0.0324555), x, y, wd, ws, P, t)
    doc = {'name': f'bastankhah2014, {law}-law shear on the speed-up map, mixed hub heights (V80 70 m, SWT23 65 m)',
           'source': dict(mixed['source'], computed_with='PyWake (DTU Wind Energy) source at commit b81c149, PropagateDownwind engineering model, by bench/peers/pywake_site.py',
                          site=f"XRSite(ds, interp_method='linear', shear={type(shear).__name__}(h_ref=100, {'alpha=0.2' if law == 'power' else 'z0=0.03'})) with the Speedup of `site`, TI 0.1"),
           'turbines': [held(t) for t in mixed['turbines']], 'wind': mixed['wind'], 'layout': mixed['layout'], 'model': mixed['model'],
           'site': {'speedup': field_block(SPEEDUP, 'xy'), 'shear': block},
           'expected': {'aep_mwh': float(per.sum()), 'aep_per_turbine_mwh': fl(per),
                        'check_condition': {'wind_direction': 270.0, 'wind_speed': 8.0,
                                            'ws_eff': fl(np.asarray(chk.WS_eff).ravel()), 'ct': fl(np.asarray(chk.CT).ravel())}}}
    write(f'mixed-shear-{law}-bastankhah2014', doc)


# A per-point sector Weibull grid (XRSite with Weibull_A, Weibull_k, Sector_frequency over x, y, wd;
# 12 sectors closed at 360): each turbine's probability of each (direction, speed) is its own, and so
# is the AEP's weight of its power (PyWake's aep: P_ilk * power_ilk).
GWD12 = np.arange(0.0, 360.0, 30.0)
W3 = np.radians(GWD12)[None, None, :]


def weibull_resource(gx, gy, a_digits, k_digits, f_digits):
    """A, k and sector frequencies on gx × gy × GWD12, rounded to the digits given: A with a hill, a
    westerly peak and a rise to the east; k rising to the north; a rose veering with y; the last
    sector's frequency closes the sum at 1."""
    xx, yy = np.meshgrid(gx, gy, indexing='ij')
    x3, y3 = xx[:, :, None], yy[:, :, None]
    hill = np.exp(-((x3 - 1000.0) ** 2 + (y3 - 900.0) ** 2) / 700.0 ** 2)
    A = np.round(8.5 + 1.2 * hill + 0.7 * np.cos(W3 - np.radians(270.0)) + 0.4 * (x3 - gx[0]) / (gx[-1] - gx[0]), a_digits)
    K = np.round(2.0 + 0.25 * (y3 - gy[0]) / (gy[-1] - gy[0]) + 0.1 * np.sin(W3) + 0.0 * x3, k_digits)
    raw = np.exp(1.2 * np.cos(W3 - np.radians(255.0 + 20.0 * (y3 - gy[0]) / (gy[-1] - gy[0])))) * (1.0 + 0.0 * x3)
    F = np.round(raw / raw.sum(axis=2, keepdims=True), f_digits)
    F[:, :, -1] = np.round(1.0 - F[:, :, :-1].sum(axis=2), f_digits)
    assert np.all(np.abs(F.sum(axis=2) - 1.0) < 1e-9) and np.all(F > 0)
    return A, K, F


# A per-point sector Weibull grid (XRSite with Weibull_A, Weibull_k, Sector_frequency over x, y, wd;
# 12 sectors closed at 360): each turbine's probability of each (direction, speed) is its own, and so
# is the AEP's weight of its power (PyWake's aep: P_ilk * power_ilk).
WEIB_A, WEIB_K, FREQ = weibull_resource(GX, GY, 4, 4, 4)

# The same resource on a regular 500 m grid, its values at a WAsP .wrg file's precision (A to 0.1 m/s,
# k to 0.01, frequencies to 0.001), so a .wrg file holds them exactly (test/io/siteWeibullFiles.test.ts
# writes one from this file's block).
RX = np.arange(-500.0, 2501.0, 500.0)
RY = np.arange(-500.0, 2501.0, 500.0)
WRG_A, WRG_K, WRG_F = weibull_resource(RX, RY, 1, 2, 3)


def weibull_case(name, key, gx, gy, A, K, F, speedup=None):
    base = yaml.safe_load(open(os.path.join(REF, f'{key}-random16.yaml')))
    wd = np.asarray(base['wind']['wind_direction']); ws = np.asarray(base['wind']['wind_speed'])
    x = np.asarray(base['layout']['x']); y = np.asarray(base['layout']['y'])
    make, call = MODELS[key]
    ds = xr.Dataset(coords={'x': gx, 'y': gy, 'wd': GWD12})
    for var, values in [('Weibull_A', A), ('Weibull_k', K), ('Sector_frequency', F)]:
        ds[var] = (('x', 'y', 'wd'), values)
    if speedup is not None:
        ds['Speedup'] = (('x', 'y'), speedup)
    ds['TI'] = 0.1
    sim = make(XRSite(ds.copy(), interp_method='linear'), V80())(x, y, wd=wd, ws=ws)
    pw = np.asarray(sim.Power).reshape(len(x), len(wd), len(ws))
    P_ilk = np.broadcast_to(np.asarray(sim.P), (len(x), len(wd), len(ws)))
    per = 8760.0 * np.einsum('ilk,ilk->i', pw, P_ilk) / 1e6
    # PyWake's own AEP (GWh) agrees: the per-turbine weights are each turbine's P.
    assert abs(float(sim.aep().sum()) * 1e3 - per.sum()) <= 1e-9 * per.sum(), (float(sim.aep().sum()) * 1e3, per.sum())
    assert np.ptp(P_ilk, axis=0).max() > 0  # the probabilities differ by turbine
    chk = make(XRSite(ds.copy(), interp_method='linear'), V80())(x, y, wd=[270.0], ws=[8.0])
    if nc_dir:
        ds.to_netcdf(os.path.join(nc_dir, name + '.nc'))
    block = {'weibull': {'x': fl(gx), 'y': fl(gy), 'wd': fl(GWD12), 'A': A.tolist(), 'k': K.tolist(), 'frequency': F.tolist()}}
    if speedup is not None:
        block = {'speedup': field_block(speedup, 'xy'), **block}
    doc = {'name': f'{key} on a per-point sector Weibull grid{" with a speed-up map" if speedup is not None else ""}',
           'source': {'computed_with': 'PyWake (DTU Wind Energy) source at commit b81c149, PropagateDownwind engineering model, by bench/peers/pywake_site.py',
                      'call': call,
                      'site': "XRSite(ds, interp_method='linear') with Weibull_A, Weibull_k, Sector_frequency (x, y, wd; 12 sectors) of `site.weibull`"
                              + (", Speedup of `site.speedup`" if speedup is not None else "") + ", TI 0.1; wd and ws of `wind`; the AEP weights each turbine's power by its own P_ilk (sim.P), so the probability table of `wind` is not used",
                      'note': NOTE},
           'turbine': held(base['turbine']), 'wind': dict(base['wind'], turbulence_intensity=0.1), 'layout': base['layout'], 'model': base['model'],
           'site': block,
           'expected': {'aep_mwh': float(per.sum()), 'aep_per_turbine_mwh': fl(per),
                        'check_condition': {'wind_direction': 270.0, 'wind_speed': 8.0,
                                            'ws_eff': fl(np.asarray(chk.WS_eff).ravel()), 'ct': fl(np.asarray(chk.CT).ravel())}}}
    write(name, doc)


weibull_case('site-weibull-bastankhah2014', 'bastankhah2014', GX, GY, WEIB_A, WEIB_K, FREQ)
weibull_case('site-weibull-speedup-niayifar2016', 'niayifar2016', GX, GY, WEIB_A, WEIB_K, FREQ, SPEEDUP)
weibull_case('site-weibull-wrg-jensen1983', 'jensen1983', RX, RY, WRG_A, WRG_K, WRG_F)
