"""Per-turbine × wind-condition results as an ``xarray.Dataset`` (``farm.flow_conditions(x, y)``):
each turbine's effective wind speed, effective turbulence intensity, thrust coefficient and power
in every condition of the farm's wind resource, and the probability each power counts with, as the
engine's AEP uses them (one ``flow_conditions`` request of ``wflo serve --stdio``, docs/python.md).
Names follow PyWake's ``SimulationResult`` (``WS_eff``, ``TI_eff``, ``CT``, ``Power``, ``P`` over
``wt``, ``wd``, ``ws``; a time series over ``wt``, ``time``), so that

    (ds.Power * ds.P).sum() * ds.attrs["hours_per_year"] * 1e-6 == ds.attrs["aep_mwh"]   (to ~1e-13)
"""
from __future__ import annotations

from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from ._errors import WfloError, _coordinates


class Farm(Protocol):
    """What this module uses of a ``wflo.Farm``: its handle, its turbine count, its engine."""

    handle: int
    n: int
    _engine: Any


def flow_conditions(farm: "Farm", x: npt.ArrayLike, y: npt.ArrayLike) -> Any:
    try:
        import xarray as xr
    except ImportError as err:  # pragma: no cover - xarray is a dependency of this one function
        raise WfloError(f"flow_conditions needs xarray (pip install xarray): {err}") from err
    xa, ya = _coordinates("x", x, farm.n), _coordinates("y", y, farm.n)
    h, a = farm._engine._request({"kind": "flow_conditions", "handle": farm.handle}, {"x": xa, "y": ya})
    n, count = farm.n, int(h["n_conditions"])
    per = {k: a[k].reshape(count, n) for k in ("ws_eff", "ti_eff", "ct", "power_w", "weight")}
    uniform = bool(np.all(per["weight"] == per["weight"][:, :1]))  # the same probability for every turbine (not a per-point Weibull site)
    attrs = {"aep_mwh": float(h["aep_mwh"]), "hours_per_year": float(h["hours_per_year"]), "name": getattr(farm, "name", ""),
             "description": "wflo flow_conditions: the flow the engine's AEP is computed from"}
    turbine = {"wt": np.arange(n), "x": ("wt", xa.copy(), {"units": "m"}), "y": ("wt", ya.copy(), {"units": "m"})}
    units = {"WS_eff": ("m/s", "effective hub-height wind speed (rotor average)"), "TI_eff": ("-", "effective turbulence intensity"),
             "CT": ("-", "thrust coefficient"), "Power": ("W", "electrical power")}
    source = {"WS_eff": "ws_eff", "TI_eff": "ti_eff", "CT": "ct", "Power": "power_w"}
    if h["shape"] == "series":
        dims = ("wt", "time")
        data = {name: (dims, per[key].T.copy(), {"units": units[name][0], "long_name": units[name][1]}) for name, key in source.items()}
        p = per["weight"][:, 0].copy() if uniform else per["weight"].T.copy()
        data["P"] = (("time",) if uniform else dims, p, {"units": "-", "long_name": "time share of the sample (sums to 1)"})
        coords = {**turbine, "time": np.arange(count),
                  "wd": ("time", a["direction_deg"].copy(), {"units": "deg", "long_name": "wind direction (from, clockwise from north)"}),
                  "ws": ("time", a["speed_ms"].copy(), {"units": "m/s", "long_name": "free-stream wind speed"}),
                  "TI": ("time", a["ambient_ti"].copy(), {"units": "-", "long_name": "ambient turbulence intensity"})}
        return xr.Dataset(data, coords=coords, attrs=attrs)
    nd, ns = int(h["n_directions"]), int(h["n_speeds"])
    dims = ("wt", "wd", "ws")
    data = {name: (dims, per[key].reshape(nd, ns, n).transpose(2, 0, 1).copy(), {"units": units[name][0], "long_name": units[name][1]})
            for name, key in source.items()}
    w = per["weight"].reshape(nd, ns, n)
    data["P"] = (("wd", "ws"), w[:, :, 0].copy(), {"units": "-", "long_name": "probability of the bin"}) if uniform \
        else (dims, w.transpose(2, 0, 1).copy(), {"units": "-", "long_name": "probability of the bin at the turbine"})
    data["TI"] = (("wd", "ws"), a["ambient_ti"].reshape(nd, ns).copy(), {"units": "-", "long_name": "ambient turbulence intensity"})
    coords = {**turbine, "wd": ("wd", a["directions_deg"].copy(), {"units": "deg", "long_name": "wind direction (from, clockwise from north)"}),
              "ws": ("ws", a["speeds_ms"].copy(), {"units": "m/s", "long_name": "free-stream wind speed"})}
    return xr.Dataset(data, coords=coords, attrs=attrs)
