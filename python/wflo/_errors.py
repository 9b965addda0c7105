"""``wflo.WfloError`` and the check of a layout's coordinate arrays: what every module of the
package raises and uses, with no dependence on the engine (so that ``_engine`` and ``_results``
import it without importing each other)."""
from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ._frames import FloatArray


class WfloError(ValueError):
    """An error the engine reported (a ``ValueError``: ``except ValueError`` catches it, as SciPy
    and NumPy callers expect of bad input): ``str(err)`` is the one line the ``wflo`` CLI prints (without
    its ``wflo: `` prefix); ``exit_code`` the CLI's exit code (2 bad input, 1 runtime failure)."""

    def __init__(self, message: str, exit_code: int = 1) -> None:
        super().__init__(message)
        self.message = message
        self.exit_code = exit_code


def _coordinates(name: str, values: npt.ArrayLike, n: int) -> FloatArray:
    a = np.ascontiguousarray(values, dtype="<f8")  # the wire's byte order (native on little-endian machines)
    if a.ndim != 1 or a.shape[0] != n:
        raise WfloError(f"{name}: expected {n} values (one per turbine), got shape {a.shape}", 2)
    return a
