"""Farms from Python values: a case document (the fields of a wflo case file, docs/inputs.md) built
from NumPy arrays and numbers, sent to the engine, which reads it with the case-file reader itself
(same checks, same messages: ``<python>: wind.weibull_a: …``).

Long number lists travel as binary float64 arrays (``{"$array": name}`` in the document, with
``shape`` for a table); short ones and everything else as JSON, which round-trips every float64.
"""
from __future__ import annotations

from typing import Any, Dict, Mapping, Optional, Sequence, Tuple

import numpy as np
import numpy.typing as npt

from ._frames import FloatArray

#: Names the engine accepts for a document's arrays (one frame holds 16 at most).
_ARRAY_NAMES = "abcdefghijklmnop"
#: Lists longer than this go as binary arrays (while names last).
_INLINE_MAX = 64


def _numeric(value: Any) -> Optional[np.ndarray]:
    """A NumPy view of a list/tuple/array of numbers (1-D or 2-D), else None."""
    if isinstance(value, np.ndarray):
        return value if value.dtype.kind in "fiu" and value.ndim in (1, 2) else None
    if isinstance(value, (list, tuple)) and value and all(isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, bool) for v in value):
        return np.asarray(value, dtype=np.float64)
    return None


def pack_document(document: Mapping[str, Any]) -> Tuple[Dict[str, Any], Dict[str, FloatArray]]:
    """The document as JSON-ready values and the binary arrays it refers to by name."""
    arrays: Dict[str, FloatArray] = {}

    def visit(value: Any) -> Any:
        if isinstance(value, Mapping):
            return {str(k): visit(v) for k, v in value.items()}
        a = _numeric(value)
        if a is not None and a.size > _INLINE_MAX and len(arrays) < len(_ARRAY_NAMES):
            name = _ARRAY_NAMES[len(arrays)]
            arrays[name] = np.ascontiguousarray(a, dtype=np.float64).reshape(-1)
            return {"$array": name} if a.ndim == 1 else {"$array": name, "shape": list(a.shape)}
        if isinstance(value, np.ndarray):
            return value.tolist()
        if isinstance(value, (list, tuple)):
            return [visit(v) for v in value]
        if isinstance(value, np.generic):
            return value.item()
        return value

    return visit(document), arrays


def turbine(rotor_diameter: float, hub_height: float, wind_speeds: npt.ArrayLike, power: npt.ArrayLike,
            ct: npt.ArrayLike | float, *, ct_wind_speeds: Optional[npt.ArrayLike] = None, power_unit: str = "kW",
            name: Optional[str] = None, rated_power: Optional[float] = None, cutin_wind_speed: Optional[float] = None,
            cutout_wind_speed: Optional[float] = None, beyond_table: Optional[str] = None) -> Dict[str, Any]:
    """A turbine mapping (a case file's inline ``turbine:``, docs/inputs.md "Turbine files"): power
    and Ct tables over wind speed (``ct`` a table over ``ct_wind_speeds``, default ``wind_speeds``,
    or one constant), ``power_unit`` W, kW (default) or MW."""
    performance: Dict[str, Any] = {"power_unit": power_unit,
                                   "power_curve": {"power_wind_speeds": wind_speeds, "power_values": power}}
    if np.ndim(ct) == 0:
        performance["Ct"] = float(ct)  # type: ignore[arg-type]
    else:
        performance["Ct_curve"] = {"Ct_wind_speeds": wind_speeds if ct_wind_speeds is None else ct_wind_speeds, "Ct_values": ct}
    for key, value in (("rated_power", rated_power), ("cutin_wind_speed", cutin_wind_speed),
                       ("cutout_wind_speed", cutout_wind_speed), ("beyond_table", beyond_table)):
        if value is not None:
            performance[key] = value
    out: Dict[str, Any] = {"rotor_diameter": rotor_diameter, "hub_height": hub_height, "performance": performance}
    if name is not None:
        out["name"] = name
    return out


def wind_rose(wind_direction: npt.ArrayLike, wind_speed: npt.ArrayLike, probability: Optional[npt.ArrayLike] = None, *,
              sector_probability: Optional[npt.ArrayLike] = None, weibull_a: Optional[npt.ArrayLike] = None,
              weibull_k: Optional[npt.ArrayLike] = None, turbulence_intensity: Optional[npt.ArrayLike | float] = None) -> Dict[str, Any]:
    """A wind mapping (a case file's inline ``wind:``): directions (degrees) and speeds (m/s) with a
    ``probability`` table (rows = directions), or Weibull sectors (``sector_probability``,
    ``weibull_a``, ``weibull_k`` per direction); ``turbulence_intensity`` one value or a table."""
    out: Dict[str, Any] = {"wind_direction": wind_direction, "wind_speed": wind_speed}
    for key, value in (("probability", probability), ("sector_probability", sector_probability), ("weibull_a", weibull_a),
                       ("weibull_k", weibull_k), ("turbulence_intensity", turbulence_intensity)):
        if value is not None:
            out[key] = value
    return out


def time_series(wind_direction: npt.ArrayLike, wind_speed: npt.ArrayLike, *, turbulence_intensity: Optional[npt.ArrayLike] = None,
                weight: Optional[npt.ArrayLike] = None, time: Optional[Sequence[Any]] = None,
                default_turbulence_intensity: Optional[float] = None) -> Dict[str, Any]:
    """A wind mapping holding a time series (``time_series:`` inline): one sample per direction and
    speed, optional per-sample turbulence intensity and weight (any non-negative unit, normalised)."""
    series: Dict[str, Any] = {"wind_direction": wind_direction, "wind_speed": wind_speed}
    for key, value in (("turbulence_intensity", turbulence_intensity), ("weight", weight), ("time", time)):
        if value is not None:
            series[key] = value
    out: Dict[str, Any] = {"time_series": series}
    if default_turbulence_intensity is not None:
        out["turbulence_intensity"] = default_turbulence_intensity
    return out


def case_document(turbine: Any = None, wind: Any = None, *, boundary: Any = None, layout: Optional[Tuple[npt.ArrayLike, npt.ArrayLike]] = None,
                  **fields: Any) -> Dict[str, Any]:
    """A case document: ``turbine`` and ``wind`` (mappings from ``turbine()``, ``wind_rose()``,
    ``time_series()``, or built-in names / file paths), ``boundary`` (``{"circle": {...}}``,
    ``{"polygon": [[x, y], ...]}``, …), ``layout`` (x, y), and any other case-file field by its
    name (``n_turbines``, ``min_spacing_m``, ``wake_model``, ``wake_params``, ``superposition``,
    ``blockage``, ``ground``, ``base``, ``name``, ``directions``, ``turbines``, …)."""
    doc: Dict[str, Any] = {}
    if turbine is not None:
        doc["turbine"] = turbine
    if wind is not None:
        doc["wind"] = wind
    if boundary is not None:
        doc["boundary"] = boundary
    if layout is not None:
        doc["layout"] = {"x": layout[0], "y": layout[1]}
    doc.update({k: v for k, v in fields.items() if v is not None})
    return doc
