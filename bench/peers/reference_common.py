"""What the PyWake reference generators of this folder share (pywake_timeseries.py,
pywake_blockage.py): PyWake's own V80 on a uniform site (TI 0.1), the folder the references are
written to, and a float-list helper. Imported before any other py_wake module: a PyWake source
mirror without its git-lfs data needs the guard first (see HOWTO in the peer scripts' folder)."""
import os
import numpy as np
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
