"""What the PyWake reference generators of this folder share (pywake_timeseries.py,
pywake_blockage.py, pywake_reference.py, pywake_ground.py): PyWake's own V80 on a uniform site
(TI 0.1), the folder the references are written to, a float-list helper, and the document of a
PropagateDownwind case on the turbine, wind table and layout of an existing reference file. Imported before any other py_wake module: a PyWake source
mirror without its git-lfs data needs the guard first (see HOWTO in the peer scripts' folder)."""
import os
import numpy as np
import yaml
try:
    import pywake_lfs_guard  # noqa: F401
except ImportError:
    pass
from py_wake.site import UniformSite
from py_wake.examples.data.hornsrev1 import V80

HERE = os.path.dirname(os.path.abspath(__file__))
REF = os.path.join(HERE, '..', '..', 'test', 'data', 'reference')
site = UniformSite(p_wd=[1.0], ti=0.1)
wt = V80()


def fl(a):
    """A flat list of Python floats."""
    return [float(v) for v in np.asarray(a).ravel()]


def rose_case(wfm, base, name, call, model, generator):
    """The reference document of `wfm` (a PyWake wind farm model) on `base`'s turbine, wind table and
    layout: AEP in total and per turbine (every direction and speed in one call, as PyWake's
    default), and the check condition (270 degrees, 8 m/s)."""
    wd = np.asarray(base['wind']['wind_direction']); ws = np.asarray(base['wind']['wind_speed'])
    P = np.asarray(base['wind']['probability'])
    x = np.asarray(base['layout']['x']); y = np.asarray(base['layout']['y'])
    sim = wfm(x, y, wd=wd, ws=ws)
    pw = np.asarray(sim.Power).reshape(len(x), len(wd), len(ws))
    per = 8760.0 * np.einsum('ilk,lk->i', pw, P) / 1e6
    chk = wfm(x, y, wd=[270.0], ws=[8.0])
    return {
        'name': name,
        'source': {'computed_with': "PyWake (DTU Wind Energy) source at commit b81c149, PropagateDownwind engineering model",
                   'call': call,
                   'site': "UniformSite(p_wd=[1], ti=0.1) for the flow solution; the AEP below weights each (direction, speed) by the probability table in `wind`",
                   'note': 'Reference values computed with PyWake; they are facts about that tool, not about the physical truth.',
                   'generator': generator},
        'turbine': base['turbine'], 'wind': base['wind'], 'layout': base['layout'],
        'model': model,
        'expected': {'aep_mwh': float(per.sum()), 'aep_per_turbine_mwh': fl(per),
                     'check_condition': {'wind_direction': 270.0, 'wind_speed': 8.0,
                                         'ws_eff': fl(np.asarray(chk.WS_eff).reshape(len(x))), 'ct': fl(np.asarray(chk.CT).reshape(len(x)))}},
    }


def write_case(out_dir, file_name, doc):
    """Write a reference document as the files of test/data/reference/ are written."""
    path = os.path.join(out_dir, file_name)
    with open(path, 'w') as f:
        yaml.safe_dump(doc, f, sort_keys=False, width=120, default_flow_style=None)
    print(path, doc['expected']['aep_mwh'])
