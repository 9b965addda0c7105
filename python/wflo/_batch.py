"""``farm.aep_batch(X, Y)``: the AEP of k layouts in one request (``aep_batch``, docs/python.md) —
what a population optimizer, a sampling study or a finite-difference check needs without paying
the per-call cost k times. Each layout's figures are the single ``aep`` (``aep_and_gradient``)
call's bit for bit."""
from __future__ import annotations

from typing import Any, NamedTuple, Optional

import numpy as np
import numpy.typing as npt

from ._errors import WfloError
from ._frames import FloatArray

#: Values of one array of a frame, at most (k·n per array).
_MAX_VALUES = 1_000_000


class AepBatchResult(NamedTuple):
    """AEPs of k layouts: ``aep_mwh`` shape (k,), ``per_turbine_mwh`` (k, n), MWh; with
    ``gradient=True`` the exact ``grad_x``, ``grad_y`` (k, n), MWh per metre (else None)."""

    aep_mwh: FloatArray
    per_turbine_mwh: FloatArray
    grad_x: Optional[FloatArray]
    grad_y: Optional[FloatArray]


def _layouts(name: str, values: npt.ArrayLike, n: int) -> FloatArray:
    a = np.asarray(values, dtype=np.float64)
    if a.ndim == 1 and a.shape[0] == n:
        a = a.reshape(1, n)
    if a.ndim != 2 or a.shape[1] != n or a.shape[0] == 0:
        raise WfloError(f"{name}: expected shape (k, {n}) (k layouts of {n} turbines), got shape {a.shape}", 2)
    return np.ascontiguousarray(a, dtype="<f8")


def aep_batch(farm: Any, x: npt.ArrayLike, y: npt.ArrayLike, gradient: bool = False) -> AepBatchResult:
    n = farm.n
    xs, ys = _layouts("x", x, n), _layouts("y", y, n)
    if xs.shape != ys.shape:
        raise WfloError(f"x, y: shapes {xs.shape} and {ys.shape} differ", 2)
    if xs.size > _MAX_VALUES:
        raise WfloError(f"x: {xs.shape[0]} layouts of {n} turbines are {xs.size} values, more than one request's {_MAX_VALUES}; split the batch", 2)
    k = xs.shape[0]
    header = {"kind": "aep_batch", "handle": farm.handle, **({"gradient": True} if gradient else {})}
    _, a = farm._engine._request(header, {"x": xs.reshape(-1), "y": ys.reshape(-1)})
    grads = (a["grad_x"].reshape(k, n), a["grad_y"].reshape(k, n)) if gradient else (None, None)
    return AepBatchResult(a["aep_mwh"], a["per_turbine_mwh"].reshape(k, n), *grads)
