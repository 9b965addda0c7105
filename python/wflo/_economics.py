"""The economics of a GIVEN layout and its cable network from Python (``farm.cost(x, y)``,
``farm.cables(x, y)``): one ``cost`` or ``cables`` request of ``wflo serve --stdio``
(docs/python.md), answered by the code behind ``wflo cost --json`` and ``wflo cables --json``
(src/views/layoutEconomics.ts), so the figures are the CLI's bit for bit. Every sum of money is
in ``currency`` (the cost model's: EUR for the DTU offshore model)."""
from __future__ import annotations

from typing import Any, Dict, List, NamedTuple, Optional, Protocol, Tuple

import numpy as np
import numpy.typing as npt

from ._errors import _coordinates
from ._frames import FloatArray


class Farm(Protocol):
    """What this module uses of a ``wflo.Farm``: its handle, its turbine count, its engine."""

    handle: int
    n: int
    _engine: Any


class CostResult(NamedTuple):
    """The cost model on the layout (``wflo cost --json``): LCOE in ``currency``/MWh, NPV and the
    cable cost in ``currency``, IRR a fraction per year (None when the cash flows have none), the
    AEP in MWh, the network's length in metres, and the model's ``breakdown`` (names carry units)."""

    lcoe_per_mwh: float
    npv: float
    irr: Optional[float]
    aep_mwh: float
    cable_length_m: float
    cable_cost: float
    breakdown: Dict[str, float]
    cost_model: str
    currency: str


class CablesResult(NamedTuple):
    """The collection network routed for the layout (``wflo cables --json``), per turbine i:
    ``cable_to[i]`` the next turbine toward the substation, or ``-1 - s`` for substation s;
    ``cable_type[i]`` an index into ``by_type`` (the case's cable catalogue, each with its use:
    edges, length_m, cost); ``cable_load[i]`` the turbines its cable carries; its length in metres."""

    cable_length_m: float
    cable_cost: float
    cable_to: npt.NDArray[np.int64]
    cable_type: npt.NDArray[np.int64]
    cable_load: npt.NDArray[np.int64]
    cable_length_each_m: FloatArray
    substations: List[Tuple[float, float]]
    by_type: List[Dict[str, Any]]
    currency: str


def _xy(farm: "Farm", x: npt.ArrayLike, y: npt.ArrayLike) -> Dict[str, FloatArray]:
    return {"x": _coordinates("x", x, farm.n), "y": _coordinates("y", y, farm.n)}


def cost(farm: "Farm", x: npt.ArrayLike, y: npt.ArrayLike) -> CostResult:
    h, _ = farm._engine._request({"kind": "cost", "handle": farm.handle}, _xy(farm, x, y))
    return CostResult(float(h["lcoe_per_mwh"]), float(h["npv"]), None if h["irr"] is None else float(h["irr"]), float(h["aep_mwh"]),
                      float(h["cable_length_m"]), float(h["cable_cost"]), {k: float(v) for k, v in h["cost_breakdown"].items()},
                      str(h["cost_model"]), str(h["currency"]))


def cables(farm: "Farm", x: npt.ArrayLike, y: npt.ArrayLike) -> CablesResult:
    h, a = farm._engine._request({"kind": "cables", "handle": farm.handle}, _xy(farm, x, y))
    return CablesResult(float(h["cable_length_m"]), float(h["cable_cost"]), a["cable_to"].astype(np.int64), a["cable_type"].astype(np.int64),
                        a["cable_load"].astype(np.int64), a["cable_length_each_m"].copy(), [(float(sx), float(sy)) for sx, sy in h["substations"]],
                        [dict(t) for t in h["by_type"]], str(h["currency"]))
