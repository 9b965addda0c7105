"""``wflo.Engine`` (one ``wflo serve --stdio`` process) and ``wflo.Farm`` (an open case on it)."""
from __future__ import annotations

import os
import subprocess
import threading
import weakref
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
        self._engine._close_farm(self.handle)

    def __repr__(self) -> str:
        return f"<wflo.Farm {self.name!r}: {self.n} turbines, {self.turbine}, {self.wake_model}>"


class Engine:
    """One wflo engine process (``node …/main.js serve --stdio``), started at construction.

    The process reads requests on its stdin and ends when that closes or when this Python process
    ends, even in the middle of a long call and even when Python is killed with SIGKILL. Use as a
    context manager or call ``close()``.

    Every reply is matched to its request by id. A call interrupted in Python (KeyboardInterrupt,
    a notebook's interrupt) stops the engine process at once, so an interrupted ``optimize`` does
    not run on, and re-raises; the next call starts a new engine process and opens again every
    farm still in use (same ``Farm`` objects, same cases), so no call ever gets another call's
    answer.

    Args:
        command: the engine's command line (default: ``default_command()``: ``$WFLO_CLI`` or the
            repository around this package).
        cwd: the engine's working directory (relative case file paths are read from it; default:
            Python's current directory).
    """

    def __init__(self, command: Optional[Sequence[str]] = None, cwd: Optional[str] = None) -> None:
        self._argv = [*(command or default_command()), "serve", "--stdio"]
        self._cwd = cwd
        self._lock = threading.Lock()
        self._next_id = 1
        self._closed = False
        #: Farms open on this engine by their handle (the one Farm.handle shows): how each was
        #: opened (to open it again in a new engine process), the Farm (weakly), and its handle in
        #: the current engine process (the same number unless the process was restarted).
        self._farms: Dict[int, Tuple[Dict[str, Any], Optional[Dict[str, FloatArray]], "weakref.ref[Farm]"]] = {}
        self._server_handle: Dict[int, int] = {}
        self._lost: Dict[int, str] = {}
        self._next_farm = 1
        #: Engine processes started (1 + restarts after an interrupted call).
        self.starts = 0
        self._process: Optional[subprocess.Popen[bytes]] = None
        self._start()
        #: The last response's header (its engine_us is what bench/python.ts subtracts).
        self.last_header: Dict[str, Any] = {}

    def _start(self) -> None:
        p = subprocess.Popen(self._argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=self._cwd)
        # Frames go straight to and from the pipes' descriptors (one system call each way, mostly).
        assert p.stdin is not None and p.stdout is not None
        self._in_fd = p.stdin.fileno()
        self._reader = FrameReader(p.stdout.fileno())
        self._process = p
        self.starts += 1

    def _stop_process(self) -> None:
        """End the engine process now (SIGKILL: whatever it computes is abandoned) and reap it."""
        p, self._process = self._process, None
        if p is None:
            return
        try:
            p.kill()
        except OSError:
            pass
        for stream in (p.stdin, p.stdout):
            try:
                if stream:
                    stream.close()
            except OSError:
                pass
        try:
            p.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pass

    def _restart(self) -> None:
        """A new engine process after an interrupted call, with every farm still in use opened
        again in the order it was first opened (a farm whose Farm object is gone is dropped)."""
        self._start()
        self._server_handle, self._lost = {}, {}
        for handle in sorted(self._farms):
            header, arrays, ref = self._farms[handle]
            if ref() is None:
                del self._farms[handle]
                continue
            try:
                reply, _ = self._exchange_checked(self._process, header, arrays)  # type: ignore[arg-type]
            except WfloError as err:  # the case file changed or went away: this farm's calls say so
                self._lost[handle] = str(err)
                continue
            self._server_handle[handle] = int(reply["handle"])

    def _live(self) -> "subprocess.Popen[bytes]":
        """The engine process for the next request (held lock): a new one after an interrupted call."""
        if self._closed:
            raise WfloError("the wflo engine is closed")
        if self._process is None:
            self._restart()
        assert self._process is not None
        return self._process

    def _handle(self, handle: int) -> int:
        """A farm's handle in the current engine process."""
        server = self._server_handle.get(handle)
        if server is None:
            lost = self._lost.get(handle)
            if lost is not None:
                raise WfloError(f"this farm could not be opened again in the engine process started after an interrupted call: {lost}")
            return -1  # closed: the engine's own message for an unknown handle
        return server

    def _open(self, header: Dict[str, Any], arrays: Optional[Dict[str, FloatArray]] = None) -> Tuple[int, Dict[str, Any], Dict[str, FloatArray]]:
        with self._lock:
            p = self._live()
            reply, reply_arrays = self._exchange_checked(p, header, arrays)
            handle = self._next_farm if self.starts > 1 else int(reply["handle"])
            self._next_farm = max(self._next_farm, handle) + 1
            self._server_handle[handle] = int(reply["handle"])
            return handle, reply, reply_arrays

    def _register(self, farm: Farm, header: Dict[str, Any], arrays: Optional[Dict[str, FloatArray]]) -> Farm:
        self._farms[farm.handle] = (header, arrays, weakref.ref(farm))
        return farm

    def _close_farm(self, handle: int) -> None:
        with self._lock:
            self._farms.pop(handle, None)
            self._lost.pop(handle, None)
            server = self._server_handle.pop(handle, None)
            if self._process is None or server is None:
                return  # closed, or not open in the current process (it is not opened again)
            self._exchange_checked(self._process, {"kind": "close", "handle": server}, None)

    def farm(self, case: str | os.PathLike[str]) -> Farm:
        """Open a case: a built-in case name (``wflo cases``) or a case file (IEA37 layout, wflo
        case YAML, windIO plant file), read exactly as ``wflo aep CASE`` reads it."""
        request = {"kind": "open", "case": os.fspath(case)}
        handle, header, arrays = self._open(request)
        baseline = (arrays["x"], arrays["y"]) if "x" in arrays else None
        return self._register(Farm(self, handle, header, baseline), request, None)

    def farm_from_values(self, document: Optional[Dict[str, Any]] = None, *, source: str = "<python>", **fields: Any) -> Farm:
        """Open a farm from Python values: a case document (the fields of a case file, docs/inputs.md),
        given whole or as keyword arguments (``turbine=wflo.turbine(...)``, ``wind=wflo.wind_rose(...)``,
        ``boundary=``, ``layout=(x, y)``, ``n_turbines=``, ``wake_model=``, …; see ``wflo.case_document``).
        It is read as a case file is; its errors name ``source`` where a file's name its path and line."""
        doc = _farm_values.case_document(**fields) if document is None else {**document, **_farm_values.case_document(**fields)}
        packed, arrays = _farm_values.pack_document(doc)
        request = {"kind": "open_document", "document": packed, "source": source}
        handle, header, reply_arrays = self._open(request, arrays)
        baseline = (reply_arrays["x"], reply_arrays["y"]) if "x" in reply_arrays else None
        return self._register(Farm(self, handle, header, baseline), request, arrays)

    def _request(self, header: Dict[str, Any], arrays: Optional[Dict[str, FloatArray]] = None) -> Tuple[Dict[str, Any], Dict[str, FloatArray]]:
        with self._lock:
            p = self._live()
            kind = header.get("kind")
            if "handle" in header and isinstance(kind, str) and not kind.startswith("layouts_"):
                # A farm's handle in the current engine process (the farm may have been opened again).
                header = {**header, "handle": self._handle(header["handle"])}
            return self._exchange_checked(p, header, arrays)

    def _streamed_request(self, header: Dict[str, Any], arrays: Optional[Dict[str, FloatArray]], on_progress: Any) -> Tuple[Dict[str, Any], Dict[str, FloatArray]]:
        """A request whose reply follows ``progress`` frames (optimize with progress; python/wflo/_history.py)."""
        with self._lock:
            p = self._live()
            if "handle" in header:
                header = {**header, "handle": self._handle(header["handle"])}
            request_id = self._next_id
            self._next_id += 1
            return self._exchange(p, encode_frame({**header, "id": request_id}, arrays), request_id,
                                  lambda: _history.read_reply(self._reader.read, on_progress, request_id))

    def _xy_request(self, kind: str, handle: int, x: FloatArray, y: FloatArray) -> Tuple[Dict[str, Any], Dict[str, FloatArray]]:
        """An aep/aep_and_gradient request, framed without json.dumps (the hot path of an optimizer)."""
        with self._lock:
            p = self._live()
            request_id = self._next_id
            self._next_id += 1
            frame = encode_xy_frame(kind, self._handle(handle), request_id, x, y)
            return self._exchange(p, frame, request_id)

    def _exchange_checked(self, p: "subprocess.Popen[bytes]", header: Dict[str, Any], arrays: Optional[Dict[str, FloatArray]]) -> Tuple[Dict[str, Any], Dict[str, FloatArray]]:
        request_id = self._next_id
        self._next_id += 1
        return self._exchange(p, encode_frame({**header, "id": request_id}, arrays), request_id)

    def _exchange(self, p: "subprocess.Popen[bytes]", frame: bytes, request_id: int, read: Any = None) -> Tuple[Dict[str, Any], Dict[str, FloatArray]]:
        try:
            write_all(self._in_fd, frame)
            reply, reply_arrays = (read or self._reader.read)()
        except (BrokenPipeError, EOFError, OSError) as err:
            raise WfloError(f"the wflo engine ended (exit code {p.poll()}): {err}") from err
        except BaseException:
            # Interrupted (KeyboardInterrupt) or failed between the request and its whole reply:
            # the stream is out of step. The engine process is stopped now and replaced on the
            # next call; the interrupt goes on to the caller.
            self._stop_process()
            raise
        if reply.get("id") != request_id:
            self._stop_process()
            if not reply.get("ok") and reply.get("id") is None:
                raise WfloError(f"the wflo engine could not read request {request_id}: {reply.get('error')}", int(reply.get("exit_code", 1)))
            raise WfloError(f"the wflo engine answered request {reply.get('id')!r} where {request_id} was expected; the engine process was stopped and the next call starts a new one")
        self.last_header = reply
        if not reply.get("ok"):
            raise WfloError(str(reply.get("error")), int(reply.get("exit_code", 1)))
        return reply, reply_arrays

    def close(self) -> None:
        """Stop the engine process (closing its stdin ends it) and wait for it."""
        self._closed = True
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
