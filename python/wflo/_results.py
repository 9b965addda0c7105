"""Results beyond the AEP and its gradient: energy per direction and per turbine, flow maps,
feasibility, constraint values with their Jacobian, and optimizations. Each function is a
``Farm`` method (``farm.aep_details(x, y)``, …) and one request of ``wflo serve --stdio``
(docs/python.md); the figures are the engine's as ``wflo aep``, ``wflo plot --flow`` and
``wflo optimize`` compute them."""
from __future__ import annotations

from typing import Any, Callable, Dict, List, NamedTuple, Optional, Protocol, Sequence, Tuple

import numpy as np
import numpy.typing as npt

from ._errors import _coordinates
from ._frames import FloatArray
from ._history import History, history_of


class Farm(Protocol):
    """What these functions use of a ``wflo.Farm`` (an open case on an engine): its handle, its
    turbine count and the engine it is open on."""

    handle: int
    n: int
    _engine: Any


class AepDetails(NamedTuple):
    """AEP (MWh) with its energy per turbine and per wind direction (``directions_deg``), as
    ``wflo aep --json`` gives them (under a direction treatment: per listed bin, and
    ``aep_bins_mwh`` the AEP on the bins as listed; None otherwise)."""

    aep_mwh: float
    per_turbine_mwh: FloatArray
    per_direction_mwh: FloatArray
    directions_deg: FloatArray
    aep_bins_mwh: Optional[float]


class FlowMap(NamedTuple):
    """Hub-height wind speed (m/s) over a grid for one direction, as ``wflo plot --flow`` draws it:
    ``speed_ms[iy, ix]`` at (``x_m[ix]``, ``y_m[iy]``), cell centres, row 0 the largest y."""

    x_m: FloatArray
    y_m: FloatArray
    speed_ms: FloatArray
    direction_deg: float
    free_stream_ms: float


class Feasibility(NamedTuple):
    """The optimizers' verdict on a layout: feasible within 1e-6 m, the largest violation in
    metres, the worst one in words (None when nothing is violated) and its turbines."""

    feasible: bool
    max_violation_m: float
    worst: Optional[str]
    worst_turbines: List[int]


class Constraints(NamedTuple):
    """The optimizers' constraints g ≤ 0 in metres, in their order: ``n_boundary`` boundary rows
    (n for the site, then n per exclusion zone), then the ``n_pairs`` pairs i < j; the Jacobian
    with respect to (x_0 … x_{n−1}, y_0 … y_{n−1}) as COO triplets ``jac_row``, ``jac_col``,
    ``jac_value`` (``jacobian()`` makes it dense)."""

    values: FloatArray
    jac_row: npt.NDArray[np.int64]
    jac_col: npt.NDArray[np.int64]
    jac_value: FloatArray
    n_boundary: int
    n_pairs: int
    n: int

    def jacobian(self) -> FloatArray:
        """The dense Jacobian, shape (len(values), 2n)."""
        out = np.zeros((len(self.values), 2 * self.n))
        out[self.jac_row, self.jac_col] = self.jac_value
        return out


class OptimizeResult(NamedTuple):
    """One optimization, as ``wflo optimize --json`` reports it: the layout (``x``, ``y``), its AEP
    and the initial layout's, feasibility, work, and ``info`` (every other field of the CLI's
    JSON: seed, method, wall_s, economics, type_choice, …); ``history`` its rows, as
    ``wflo optimize --history`` writes them (python/wflo/_history.py)."""

    x: FloatArray
    y: FloatArray
    aep_mwh: float
    aep_initial_mwh: float
    x_initial: FloatArray
    y_initial: FloatArray
    per_direction_mwh: FloatArray
    feasible: bool
    max_violation_m: float
    iterations: int
    evaluations: int
    turbine_types: Optional[npt.NDArray[np.int64]]
    info: Dict[str, Any]
    history: Optional[History] = None


def _xy(farm: "Farm", x: npt.ArrayLike, y: npt.ArrayLike) -> Dict[str, FloatArray]:
    return {"x": _coordinates("x", x, farm.n), "y": _coordinates("y", y, farm.n)}


def aep_details(farm: "Farm", x: npt.ArrayLike, y: npt.ArrayLike) -> AepDetails:
    h, a = farm._engine._request({"kind": "aep_details", "handle": farm.handle}, _xy(farm, x, y))
    return AepDetails(float(h["aep_mwh"]), a["per_turbine_mwh"], a["per_direction_mwh"], a["directions_deg"],
                      float(h["aep_bins_mwh"]) if "aep_bins_mwh" in h else None)


def flow_map(farm: "Farm", x: npt.ArrayLike, y: npt.ArrayLike, direction_deg: float, *, x_range: Optional[Tuple[float, float]] = None,
             y_range: Optional[Tuple[float, float]] = None, nx: int = 200, ny: int = 200) -> FlowMap:
    xa, ya = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
    if x_range is None or y_range is None:
        # Default: the layout's extent with a margin of a quarter of it (at least 500 m) on every side.
        pad = max(500.0, 0.25 * float(max(np.ptp(xa), np.ptp(ya))))
        x_range = x_range or (float(xa.min()) - pad, float(xa.max()) + pad)
        y_range = y_range or (float(ya.min()) - pad, float(ya.max()) + pad)
    h, a = farm._engine._request({"kind": "flow_map", "handle": farm.handle, "direction_deg": float(direction_deg),
                                  "min_x": float(x_range[0]), "max_x": float(x_range[1]), "min_y": float(y_range[0]), "max_y": float(y_range[1]),
                                  "nx": int(nx), "ny": int(ny)}, _xy(farm, x, y))
    return FlowMap(a["x_m"], a["y_m"], a["speed_ms"].reshape(int(h["ny"]), int(h["nx"])), float(h["direction_deg"]), float(h["free_stream_ms"]))


def feasibility(farm: "Farm", x: npt.ArrayLike, y: npt.ArrayLike) -> Feasibility:
    h, _ = farm._engine._request({"kind": "feasibility", "handle": farm.handle}, _xy(farm, x, y))
    return Feasibility(bool(h["feasible"]), float(h["max_violation_m"]), h.get("worst"), [int(t) for t in h["worst_turbines"]])


def constraints(farm: "Farm", x: npt.ArrayLike, y: npt.ArrayLike, margin_m: float = 0.0) -> Constraints:
    h, a = farm._engine._request({"kind": "constraints", "handle": farm.handle, "margin_m": float(margin_m)}, _xy(farm, x, y))
    return Constraints(a["values"], a["jac_row"].astype(np.int64), a["jac_col"].astype(np.int64), a["jac_value"],
                       int(h["n_boundary"]), int(h["n_pairs"]), farm.n)


def optimize(farm: "Farm", method: str = "global", seed: int = 0, *, initial: Optional[str] = None, wec: Optional[Sequence[float]] = None,
             hops: Optional[int] = None, hop_wec: Optional[Sequence[float]] = None, max_iterations: Optional[int] = None,
             random_iterations: Optional[int] = None, starts: int = 1, directions: Optional[str] = None, objective: Optional[str] = None,
             x0: Optional[npt.ArrayLike] = None, y0: Optional[npt.ArrayLike] = None, progress: Optional[Callable[[Any], Any]] = None) -> OptimizeResult:
    header: Dict[str, Any] = {"kind": "optimize", "handle": farm.handle, "method": method, "seed": seed, "starts": starts}
    for key, value in (("initial", initial), ("hops", hops), ("max_iterations", max_iterations), ("random_iterations", random_iterations),
                       ("directions", directions), ("objective", objective)):
        if value is not None:
            header[key] = value
    for key, values in (("wec", wec), ("hop_wec", hop_wec)):
        if values is not None:
            header[key] = [float(v) for v in values]
    arrays = _xy(farm, x0, y0) if x0 is not None or y0 is not None else None
    if progress is not None:
        h, a = farm._engine._streamed_request({**header, "progress": True}, arrays, progress)
    else:
        h, a = farm._engine._request(header, arrays)
    info = {k: v for k, v in h.items() if k not in ("protocol", "ok", "kind", "id")}
    types = a["turbine_types"].astype(np.int64) if "turbine_types" in a else None
    return OptimizeResult(a["x"], a["y"], float(h["aep_mwh"]), float(h["aep_initial_mwh"]), a["x_initial"], a["y_initial"],
                          a["per_direction_mwh"], bool(h["feasible"]), float(h["max_violation_m"]), int(h["iterations"]),
                          int(h["evaluations"]), types, info, history_of(a))
