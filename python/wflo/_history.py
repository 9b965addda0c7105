"""An optimization's history and its progress while it runs (docs/python.md "Progress and history").

``farm.optimize(...)`` returns ``result.history``: one row per step the optimizer took, the rows
``wflo optimize --history FILE`` writes for the same seed and options (src/optimize/history.ts):
``event`` ("descent" for every L-BFGS iteration of a gradient descent; "start", "hop",
"generation" for the global, population and basin methods' steps), ``iteration`` (L-BFGS
iterations so far; NaN on other rows), ``stage``, ``wec`` (NaN on other rows), ``objective`` (the
stage's AEP in MWh, or LCOE/NPV under a cost objective; the best AEP so far on start/hop rows),
``max_violation_m`` and ``evaluations`` (so far).

``farm.optimize(..., progress=callable)`` calls ``callable(OptimizeProgress)`` for each such row
and each gradient stage as the engine sends them, before the result.
"""
from __future__ import annotations

import math
from typing import Any, Callable, Dict, List, NamedTuple, Optional, Tuple

import numpy as np
import numpy.typing as npt

from ._frames import FloatArray

#: The engine's event codes (``history_event``), in order.
EVENTS = ("descent", "start", "hop", "generation")
COLUMNS = ("event", "iteration", "stage", "wec", "objective", "max_violation_m", "evaluations")


class History(NamedTuple):
    """An optimization's rows, one array per column (``len(history)`` rows; ``rows()`` as dicts)."""

    event: List[str]
    iteration: FloatArray
    stage: npt.NDArray[np.int64]
    wec: FloatArray
    objective: FloatArray
    max_violation_m: FloatArray
    evaluations: npt.NDArray[np.int64]

    def __len__(self) -> int:  # type: ignore[override]
        return len(self.event)

    def rows(self) -> List[Dict[str, Any]]:
        """The rows as dicts (None where a value does not apply), as the JSON history file holds them."""
        out = []
        for k in range(len(self.event)):
            it, wec = float(self.iteration[k]), float(self.wec[k])
            out.append({"event": self.event[k], "iteration": None if math.isnan(it) else int(it), "stage": int(self.stage[k]),
                        "wec": None if math.isnan(wec) else wec, "objective": float(self.objective[k]),
                        "max_violation_m": float(self.max_violation_m[k]), "evaluations": int(self.evaluations[k])})
        return out


def history_of(arrays: Dict[str, FloatArray]) -> Optional[History]:
    """The history arrays of an ``optimize`` reply, or None when the engine sent none."""
    if "history_event" not in arrays:
        return None
    return History([EVENTS[int(c)] for c in arrays["history_event"]], arrays["history_iteration"],
                   arrays["history_stage"].astype(np.int64), arrays["history_wec"], arrays["history_objective"],
                   arrays["history_max_violation_m"], arrays["history_evaluations"].astype(np.int64))


class OptimizeProgress(NamedTuple):
    """One progress report of a running optimization: ``event`` ("descent", "start", "hop",
    "generation", or "stage" at the end of each gradient continuation stage), the ``seed`` of the
    start it belongs to, and the row's figures (None where they do not apply); ``done`` the share
    of the stages done (stage events only)."""

    event: str
    seed: int
    iteration: Optional[int]
    stage: int
    wec: Optional[float]
    objective: Optional[float]
    max_violation_m: Optional[float]
    evaluations: int
    done: Optional[float]


def progress_of(header: Dict[str, Any]) -> OptimizeProgress:
    return OptimizeProgress(str(header["event"]), int(header.get("seed", 0)), header.get("iteration"), int(header.get("stage", 0)),
                            header.get("wec"), header.get("objective"), header.get("max_violation_m"), int(header.get("evaluations", 0)),
                            header.get("done"))


def read_reply(read: Callable[[], Tuple[Dict[str, Any], Dict[str, FloatArray]]], on_progress: Optional[Callable[[OptimizeProgress], Any]],
               request_id: Optional[int] = None) -> Tuple[Dict[str, Any], Dict[str, FloatArray]]:
    """Frames until the reply: each ``progress`` frame goes to ``on_progress``. A callback that
    raises does not leave the engine's later frames unread: the rest are read (and not passed on)
    and its exception is raised after the reply."""
    error: Optional[BaseException] = None
    while True:
        header, arrays = read()
        if header.get("kind") != "progress" or not header.get("ok"):
            break
        if request_id is not None and header.get("id") != request_id:
            break  # another request's frame: the caller's id check stops the engine and says so
        if on_progress is not None and error is None:
            try:
                on_progress(progress_of(header))
            except Exception as err:  # re-raised below, once the stream is back in step
                error = err
    if error is not None:
        raise error
    return header, arrays
