"""``wflo.Engine`` (one ``wflo serve --stdio`` process) and ``wflo.Farm`` (an open case on it)."""
from __future__ import annotations

import os
import subprocess
import threading
from typing import Any, Dict, List, NamedTuple, Optional, Sequence, Tuple

import numpy as np
import numpy.typing as npt

from ._frames import FloatArray, FrameReader, encode_frame, encode_xy_frame, write_all
from . import _batch, _conditions, _economics, _farm_values, _history, _locate, _results
from ._errors import WfloError, _coordinates


class AepResult(NamedTuple):
    """AEP of a layout: the farm's total and each turbine's, MWh."""

    aep_mwh: float
    per_turbine_mwh: FloatArray


class AepGradientResult(NamedTuple):
    """AEP (MWh) and its exact gradient dAEP/dx, dAEP/dy (MWh per metre)."""

    aep_mwh: float
    grad_x: FloatArray
    grad_y: FloatArray
    per_turbine_mwh: FloatArray


def default_command() -> List[str]:
    """The engine's command: ``$WFLO_CLI``, else the clone around this package, else a ``wflo`` on
    PATH (python/wflo/_locate.py; a ``WfloError`` naming what was tried when none is there)."""
    return _locate.engine_command()


class Farm:
    """An open case on an engine: ``n`` turbines, its ``baseline`` layout (or None), its AEP."""

    def __init__(self, engine: "Engine", handle: int, info: Dict[str, Any], baseline: Optional[Tuple[FloatArray, FloatArray]]) -> None:
        self._engine = engine
        self.handle = handle
        #: Number of turbines the layouts given to aep() must have.
        self.n: int = int(info["n"])
        #: The case's name, turbine, wake model and superposition as the engine resolved them.
        self.name: str = info["name"]
        self.turbine: str = info["turbine"]
        self.wake_model: str = info["wake_model"]
        #: The site boundary as wflo reads it ({"kind": "circle", "center", "radius"} or polygons), or None.
        self.boundary: Optional[Dict[str, Any]] = info.get("boundary")
        self.min_spacing_m: float = float(info["min_spacing_m"])
        #: The case's own layout (x, y in metres), or None when the case has none.
        self.baseline = baseline

    def aep(self, x: npt.ArrayLike, y: npt.ArrayLike) -> AepResult:
        """AEP of the layout (x, y) in metres: total and per turbine, MWh (equal to ``wflo aep``'s)."""
        header, arrays = self._engine._xy_request("aep", self.handle, _coordinates("x", x, self.n), _coordinates("y", y, self.n))
        return AepResult(float(header["aep_mwh"]), arrays["per_turbine_mwh"])

    def aep_and_gradient(self, x: npt.ArrayLike, y: npt.ArrayLike) -> AepGradientResult:
        """AEP (MWh) and its exact gradient with respect to x and y (MWh per metre)."""
        header, arrays = self._engine._xy_request("aep_and_gradient", self.handle, _coordinates("x", x, self.n), _coordinates("y", y, self.n))
        return AepGradientResult(float(header["aep_mwh"]), arrays["grad_x"], arrays["grad_y"], arrays["per_turbine_mwh"])

    def aep_batch(self, x: npt.ArrayLike, y: npt.ArrayLike, gradient: bool = False) -> "_batch.AepBatchResult":
        """AEP of k layouts in one request: x, y shape (k, n) → aep_mwh (k,), per_turbine_mwh (k, n),
        and with ``gradient=True`` grad_x, grad_y (k, n); each row the single call's (python/wflo/_batch.py)."""
        return _batch.aep_batch(self, x, y, gradient)

    # Per-direction results, flow maps, constraints, optimize: python/wflo/_results.py.
    def aep_details(self, x: npt.ArrayLike, y: npt.ArrayLike) -> "_results.AepDetails":
        """AEP with its energy per turbine and per direction (``wflo aep --json``'s)."""
        return _results.aep_details(self, x, y)

    def flow_map(self, x: npt.ArrayLike, y: npt.ArrayLike, direction_deg: float, **grid: Any) -> "_results.FlowMap":
        """Hub-height speed over a grid for one direction (``wflo plot --flow``'s field); ``x_range``, ``y_range``, ``nx``, ``ny``."""
        return _results.flow_map(self, x, y, direction_deg, **grid)

    def feasibility(self, x: npt.ArrayLike, y: npt.ArrayLike) -> "_results.Feasibility":
        """Inside the site, outside every exclusion zone, spacing kept (within 1e-6 m)?"""
        return _results.feasibility(self, x, y)

    def constraints(self, x: npt.ArrayLike, y: npt.ArrayLike, margin_m: float = 0.0) -> "_results.Constraints":
        """The optimizers' constraint values (metres, ≤ 0 feasible) and their sparse Jacobian."""
        return _results.constraints(self, x, y, margin_m)

    def optimize(self, method: str = "global", seed: int = 0, **options: Any) -> "_results.OptimizeResult":
        """One optimization as ``wflo optimize CASE --method METHOD --seed SEED`` (same options, same result)."""
        return _results.optimize(self, method, seed, **options)

    def flow_conditions(self, x: npt.ArrayLike, y: npt.ArrayLike) -> Any:
        """Each turbine's WS_eff, TI_eff, CT, Power per wind condition (and P) as an xarray.Dataset (python/wflo/_conditions.py)."""
        return _conditions.flow_conditions(self, x, y)

    def cost(self, x: npt.ArrayLike, y: npt.ArrayLike) -> "_economics.CostResult":
        """LCOE, NPV, IRR of the layout under the case's economics, its network routed for it (``wflo cost``'s; python/wflo/_economics.py)."""
        return _economics.cost(self, x, y)

    def cables(self, x: npt.ArrayLike, y: npt.ArrayLike) -> "_economics.CablesResult":
        """The collection network routed for the layout and its cost (``wflo cables``'s; python/wflo/_economics.py)."""
        return _economics.cables(self, x, y)

    def close(self) -> None:
        """Release the farm on the engine (the engine's close() releases every farm)."""
        if self._engine._process is not None:
            self._engine._request({"kind": "close", "handle": self.handle})

    def __repr__(self) -> str:
        return f"<wflo.Farm {self.name!r}: {self.n} turbines, {self.turbine}, {self.wake_model}>"


class Engine:
    """One wflo engine process (``node …/main.js serve --stdio``), started at construction.

    The process reads requests on its stdin and ends when that closes, so it never outlives this
    Python process, even one killed with SIGKILL. Use as a context manager or call ``close()``.

    Args:
        command: the engine's command line (default: ``default_command()``: ``$WFLO_CLI`` or the
            repository around this package).
        cwd: the engine's working directory (relative case file paths are read from it; default:
            Python's current directory).
    """

    def __init__(self, command: Optional[Sequence[str]] = None, cwd: Optional[str] = None) -> None:
        argv = [*(command or default_command()), "serve", "--stdio"]
        self._lock = threading.Lock()
        self._next_id = 1
        self._process: Optional[subprocess.Popen[bytes]] = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=cwd)
        # Frames go straight to and from the pipes' descriptors (one system call each way, mostly).
        assert self._process.stdin is not None and self._process.stdout is not None
        self._in_fd = self._process.stdin.fileno()
        self._reader = FrameReader(self._process.stdout.fileno())
        #: The last response's header (its engine_us is what bench/python.ts subtracts).
        self.last_header: Dict[str, Any] = {}

    def farm(self, case: str | os.PathLike[str]) -> Farm:
        """Open a case: a built-in case name (``wflo cases``) or a case file (IEA37 layout, wflo
        case YAML, windIO plant file), read exactly as ``wflo aep CASE`` reads it."""
        header, arrays = self._request({"kind": "open", "case": os.fspath(case)})
        baseline = (arrays["x"], arrays["y"]) if "x" in arrays else None
        return Farm(self, int(header["handle"]), header, baseline)

    def farm_from_values(self, document: Optional[Dict[str, Any]] = None, *, source: str = "<python>", **fields: Any) -> Farm:
        """Open a farm from Python values: a case document (the fields of a case file, docs/inputs.md),
        given whole or as keyword arguments (``turbine=wflo.turbine(...)``, ``wind=wflo.wind_rose(...)``,
        ``boundary=``, ``layout=(x, y)``, ``n_turbines=``, ``wake_model=``, …; see ``wflo.case_document``).
        It is read as a case file is; its errors name ``source`` where a file's name its path and line."""
        doc = _farm_values.case_document(**fields) if document is None else {**document, **_farm_values.case_document(**fields)}
        packed, arrays = _farm_values.pack_document(doc)
        header, reply_arrays = self._request({"kind": "open_document", "document": packed, "source": source}, arrays)
        baseline = (reply_arrays["x"], reply_arrays["y"]) if "x" in reply_arrays else None
        return Farm(self, int(header["handle"]), header, baseline)

    def _request(self, header: Dict[str, Any], arrays: Optional[Dict[str, FloatArray]] = None) -> Tuple[Dict[str, Any], Dict[str, FloatArray]]:
        with self._lock:
            p = self._process
            if p is None or p.stdin is None or p.stdout is None:
                raise WfloError("the wflo engine is closed")
            request_id = self._next_id
            self._next_id += 1
            return self._exchange(p, encode_frame({**header, "id": request_id}, arrays))

    def _streamed_request(self, header: Dict[str, Any], arrays: Optional[Dict[str, FloatArray]], on_progress: Any) -> Tuple[Dict[str, Any], Dict[str, FloatArray]]:
        """A request whose reply follows ``progress`` frames (optimize with progress; python/wflo/_history.py)."""
        with self._lock:
            p = self._process
            if p is None:
                raise WfloError("the wflo engine is closed")
            request_id = self._next_id
            self._next_id += 1
            return self._exchange(p, encode_frame({**header, "id": request_id}, arrays), lambda: _history.read_reply(self._reader.read, on_progress))

    def _xy_request(self, kind: str, handle: int, x: FloatArray, y: FloatArray) -> Tuple[Dict[str, Any], Dict[str, FloatArray]]:
        """An aep/aep_and_gradient request, framed without json.dumps (the hot path of an optimizer)."""
        with self._lock:
            p = self._process
            if p is None:
                raise WfloError("the wflo engine is closed")
            request_id = self._next_id
            self._next_id += 1
            return self._exchange(p, encode_xy_frame(kind, handle, request_id, x, y))

    def _exchange(self, p: "subprocess.Popen[bytes]", frame: bytes, read: Any = None) -> Tuple[Dict[str, Any], Dict[str, FloatArray]]:
        try:
            write_all(self._in_fd, frame)
            reply, reply_arrays = (read or self._reader.read)()
        except (BrokenPipeError, EOFError, OSError) as err:
            raise WfloError(f"the wflo engine ended (exit code {p.poll()}): {err}") from err
        self.last_header = reply
        if not reply.get("ok"):
            raise WfloError(str(reply.get("error")), int(reply.get("exit_code", 1)))
        return reply, reply_arrays

    def close(self) -> None:
        """Stop the engine process (closing its stdin ends it) and wait for it."""
        p, self._process = self._process, None
        if p is None:
            return
        try:
            if p.stdin:
                p.stdin.close()
            p.wait(timeout=30)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
        finally:
            if p.stdout:
                p.stdout.close()

    def __enter__(self) -> "Engine":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:
            pass
