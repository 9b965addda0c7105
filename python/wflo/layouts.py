"""``read_layouts(path)``: a wflo ``layouts.h5`` into xarray (or NumPy arrays), without h5py.

The file is read by wflo itself (the ``layouts_*`` requests of ``wflo serve --stdio``, wflo's own
HDF5 reader and its checks) and handed over as binary float64 columns, so only NumPy is needed;
the values are the file's, bit for bit (``test/python/layouts.test.ts`` compares them with h5py's).

Dataset (docs/python.md): dimensions ``task`` (one per row), ``turbine`` (``max_turbines``),
``coordinate`` (``"x"``, ``"y"``), ``metric`` (the ``/metrics/<name>`` columns, when any) — the
dimension names ``xarray.open_dataset(path, engine="h5netcdf")`` gives the same file.
"""
from __future__ import annotations

import json
import os
from typing import Any, Dict, Optional, Union

import numpy as np

from ._engine import Engine, WfloError

__all__ = ["read_layouts", "LayoutsArrays"]

_INT32 = {"int32", "per-turbine"}
_TEXT = {"task_id", "spec_hash", "source"}


class LayoutsArrays(Dict[str, np.ndarray]):
    """The columns of a layouts file by their HDF5 names (``"aep"``, ``"layout"``,
    ``"metrics/cable_km"``…) as NumPy arrays of the file's dtypes (text columns as ``str``),
    with ``attrs`` (the root attributes), ``farms`` and ``types`` (the definitions, by id),
    ``units`` and ``descriptions`` (by column name)."""

    attrs: Dict[str, Any]
    farms: Dict[str, Any]
    types: Dict[str, Any]
    units: Dict[str, str]
    descriptions: Dict[str, str]


def _read(engine: Engine, path: str) -> LayoutsArrays:
    info, _ = engine._request({"kind": "layouts_open", "file": path})
    handle, started = info["handle"], engine.starts
    try:
        rows, tmax = int(info["rows"]), int(info["max_turbines"])
        columns = info["columns"]
        metric_names = list(info["metric_names"])
        numeric: Dict[str, list] = {c["name"]: [] for c in columns if c["name"] not in _TEXT and not c["name"].startswith("metrics/")}
        text: Dict[str, list] = {c["name"]: [] for c in columns if c["name"] in _TEXT}
        metrics = []
        start = 0
        while start < rows:
            header, arrays = engine._request({"kind": "layouts_rows", "handle": handle, "start": start})
            count = int(header["count"])
            if count <= 0:
                raise WfloError(f"{path}: the wflo engine returned no rows at row {start} of {rows}")
            for name in numeric:
                numeric[name].append(arrays[name])
            for name in text:
                text[name].extend(header["text"][name])
            if metric_names:
                metrics.append(arrays["metrics"].reshape(count, len(metric_names)))
            start += count
        pieces, offset, total = [], 0, None
        while total is None or offset < total:
            header, _ = engine._request({"kind": "layouts_definitions", "handle": handle, "offset": offset})
            total = int(header["total_chars"])
            pieces.append(header["text"])
            offset += len(header["text"])
            if not header["text"] and offset < total:
                raise WfloError(f"{path}: the wflo engine returned no definitions at character {offset} of {total}")
    finally:
        # Not after an interrupted request: its engine process is gone, and the handle with it.
        if engine._process is not None and engine.starts == started:
            engine._request({"kind": "layouts_close", "handle": handle})
    out = LayoutsArrays()
    kinds = {c["name"]: c["kind"] for c in columns}
    for c in columns:
        name = c["name"]
        if name in text:
            out[name] = np.array(text[name], dtype=str) if rows else np.zeros(0, dtype=str)
        elif name.startswith("metrics/"):
            m = metric_names.index(name[len("metrics/"):])
            out[name] = np.concatenate(metrics)[:, m].copy() if rows else np.zeros(0)
        else:
            values = np.concatenate(numeric[name]) if rows else np.zeros(0)
            shape = (rows, tmax, 2) if kinds[name] == "xy" else (rows, tmax) if kinds[name] == "per-turbine" else (rows,)
            dtype = np.int32 if kinds[name] in _INT32 else np.int64 if kinds[name] == "int64" else np.float64
            out[name] = values.reshape(shape).astype(dtype)
    definitions = json.loads("".join(pieces))
    out.attrs = dict(info["attributes"])
    out.farms = definitions["farms"]
    out.types = definitions["types"]
    out.units = {c["name"]: c["units"] for c in columns if "units" in c}
    out.descriptions = {c["name"]: c["description"] for c in columns}
    return out


def _dataset(a: LayoutsArrays) -> Any:
    import xarray as xr

    n = len(a["task_id"])
    tmax = int(a.attrs["max_turbines"])
    variables = {}
    metric_names = [k[len("metrics/"):] for k in a if k.startswith("metrics/")]
    for name, values in a.items():
        if name.startswith("metrics/"):
            continue
        dims = ("task", "turbine", "coordinate")[: values.ndim]
        attrs = {"description": a.descriptions[name], **({"units": a.units[name]} if name in a.units else {})}
        variables[name] = xr.Variable(dims, values, attrs)
    if metric_names:
        side = np.stack([a[f"metrics/{m}"] for m in metric_names], axis=1) if n else np.zeros((0, len(metric_names)))
        variables["metrics"] = xr.Variable(("task", "metric"), side, {"description": "metrics the tasks' program reported (/metrics/<name>; NaN where a row has none)"})
    coords = {"task": a["task_id"], "turbine": np.arange(tmax, dtype=np.int32), "coordinate": np.array(["x", "y"])}
    if metric_names:
        coords["metric"] = np.array(metric_names)
    attrs = {**a.attrs, "farms": json.dumps(a.farms), "types": json.dumps(a.types)}
    return xr.Dataset(variables, coords=coords, attrs=attrs)


def read_layouts(path: "str | os.PathLike[str]", *, engine: Optional[Engine] = None, xarray: Optional[bool] = None) -> Union[Any, LayoutsArrays]:
    """Read a wflo ``layouts.h5`` (a campaign's output, ``wflo export``'s, a merged rescue file).

    Returns an ``xarray.Dataset`` when xarray is importable (``xarray=False``: always the arrays,
    ``xarray=True``: ImportError without it), else :class:`LayoutsArrays`. A file that is not a
    wflo layouts file raises WfloError with wflo's one line (``PATH: not a wflo layouts file: …``,
    exit_code 2).

    Args:
        engine: an :class:`wflo.Engine` to read through (relative paths are then its working
            directory's). Default: a new engine process for this call, ended before it returns,
            so a damaged file cannot upset an engine that is used for anything else.
    """
    want_xarray = xarray
    if want_xarray is None:
        try:
            import xarray as _  # noqa: F401
            want_xarray = True
        except ImportError:
            want_xarray = False
    if engine is None:
        with Engine() as own:
            arrays = _read(own, os.fspath(path))
    else:
        arrays = _read(engine, os.fspath(path))
    return _dataset(arrays) if want_xarray else arrays
