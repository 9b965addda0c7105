"""Your Python function as a campaign's optimizer (``optimizer: {method: command}``).

``@wflo.program`` turns ``f(task) -> (x, y)`` into a program that speaks wflo's command-task
protocol (docs/own-optimizer.md) in both modes: per-task (the task document in ``$WFLO_TASK``, the
result written to ``$WFLO_RESULT``) and persistent (task lines on descriptor 3, result lines on
descriptor 4, one process for many tasks)::

    import wflo

    @wflo.program
    def optimize(task):                      # task: a wflo.Task (NumPy arrays)
        x, y = task.initial_layout           # a feasible random start, the same for the same seed
        ...
        return x, y                          # or wflo.Result(x, y, aep_mwh=…, metrics={…})

    optimize.main()                          # the campaign: run: [python3, opt.py], inputs: [opt.py]

An exception in the function fails the task (retried up to ``attempts``): the runner's message is
the exception's line (``ZeroDivisionError: division by zero (log: …/attempt-1)``), its traceback
is in the attempt's ``stderr.log``; ``raise wflo.Permanent("why")`` fails it without retries. ``python3 opt.py attempt-1/task.json`` runs the function on a saved task document
by hand and prints the result document.
"""
from __future__ import annotations

import json
import os
import sys
import traceback
from typing import Any, Callable, Dict, List, NamedTuple, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

__all__ = ["program", "Program", "Task", "Result", "Wind", "Permanent"]

FloatArray = npt.NDArray[np.float64]
EXIT_PERMANENT = 65  # the protocol's "fails the same way every time" (sysexits.h EX_DATAERR)


class Permanent(Exception):
    """Raise it when the task can never succeed (a wake model you do not implement, a site too
    small): the runner records the failure at once instead of retrying."""


class Wind(NamedTuple):
    """The farm's wind file (schemas/wind.v1.json) as arrays: bin centres and their probabilities."""

    directions_deg: FloatArray
    speeds_ms: FloatArray
    probability: FloatArray  # [direction, speed], sums to 1
    turbulence_intensity: float
    hours_per_year: float
    as_written: Dict[str, Any]


class Result(NamedTuple):
    """What a program may return besides ``(x, y)``: the optimized layout and what to keep with it."""

    x: npt.ArrayLike
    y: npt.ArrayLike
    aep_mwh: Optional[float] = None
    metrics: Optional[Dict[str, float]] = None
    iterations: Optional[int] = None
    evaluations: Optional[int] = None
    initial: Optional[Tuple[npt.ArrayLike, npt.ArrayLike]] = None


_winds: Dict[str, Wind] = {}


def _wind(path: str) -> Wind:
    """A wind file, read once per process (a persistent program sees the same file many times)."""
    if path not in _winds:
        with open(path, encoding="utf-8") as fh:
            w = json.load(fh)
        _winds[path] = Wind(np.asarray(w["directions_deg"], dtype=float), np.asarray(w["speeds_ms"], dtype=float),
                            np.asarray(w["probability"], dtype=float), float(w["turbulence_intensity"]), float(w["hours_per_year"]),
                            w.get("as_written", {}))
    return _winds[path]


def _inside_polygon(x: FloatArray, y: FloatArray, vertices: FloatArray) -> npt.NDArray[np.bool_]:
    """Even-odd rule: which points lie inside the polygon (an edge point may fall either way)."""
    x0, y0 = vertices[:, 0], vertices[:, 1]
    x1, y1 = np.roll(x0, -1), np.roll(y0, -1)
    px, py = x[:, None], y[:, None]
    with np.errstate(divide="ignore", invalid="ignore"):
        cross = (x1 - x0) * (py - y0) / (y1 - y0) + x0
    return (((y0 > py) != (y1 > py)) & (px < cross)).sum(axis=1) % 2 == 1


class Task:
    """One task of the campaign (the task document, schemas/task.v1.json), as NumPy values.

    Attributes: ``id``, ``farm_id``, ``farm_type``, ``seed``, ``attempt``, ``n`` (turbines),
    ``min_spacing_m``, ``params`` (the merged ``params:``), ``rng`` (NumPy Generator seeded with the
    seed: draw from it and the same seed gives the same layout), ``site`` (the document's site),
    ``circle`` (``(center, radius)`` or None), ``polygons`` (the site's polygons as ``[k, 2]`` arrays,
    empty for a circle), ``exclusions`` (name → ``[k, 2]`` array), ``bounds`` (xmin, ymin, xmax,
    ymax), ``turbine`` (the document's turbine), ``diameter_m``, ``wake_model``, ``wind``
    (:class:`Wind`), ``scratch_dir``, ``deadline_unix_s``, ``metrics`` (a dict to fill: kept with
    the row), ``document`` (the task document as read).
    """

    def __init__(self, document: Dict[str, Any]) -> None:
        self.document = document
        self.id: str = document["task_id"]
        self.farm_id: int = document["farm_id"]
        self.farm_type: int = document["farm_type"]
        self.seed: int = document["seed"]
        self.attempt: int = document.get("attempt", 1)
        self.n: int = document["n_turbines"]
        self.min_spacing_m: float = float(document["min_spacing_m"])
        self.params: Dict[str, Any] = document.get("params", {})
        self.scratch_dir: Optional[str] = document.get("scratch_dir")
        self.deadline_unix_s: Optional[float] = document.get("deadline_unix_s")
        self.turbine: Dict[str, Any] = document["turbine"]
        self.diameter_m = float(self.turbine["diameter_m"])
        self.wake_model: Dict[str, Any] = document["wake_model"]
        self.rng = np.random.default_rng(self.seed)
        self.metrics: Dict[str, float] = {}
        site = document["site"]
        self.site: Dict[str, Any] = site
        self.circle: Optional[Tuple[FloatArray, float]] = (np.asarray(site["center"], dtype=float), float(site["radius"])) if site["kind"] == "circle" else None
        rings = [site["vertices"]] if site["kind"] == "polygon" else site.get("polygons", [])
        self.polygons: List[FloatArray] = [np.asarray(r, dtype=float) for r in rings]
        self.exclusions: Dict[str, FloatArray] = {z["name"]: np.asarray(z["vertices"], dtype=float) for z in site.get("exclusions", [])}
        if self.circle is not None:
            (cx, cy), r = self.circle
            self.bounds = (cx - r, cy - r, cx + r, cy + r)
        else:
            pts = np.concatenate(self.polygons)
            self.bounds = (float(pts[:, 0].min()), float(pts[:, 1].min()), float(pts[:, 0].max()), float(pts[:, 1].max()))
        self._initial: Optional[Tuple[FloatArray, FloatArray]] = None

    @property
    def wind(self) -> Wind:
        return _wind(self.document["wind"]["file"])

    def inside(self, x: npt.ArrayLike, y: npt.ArrayLike) -> npt.NDArray[np.bool_]:
        """Which positions lie in the site and outside every exclusion zone (edges may fall either
        way: keep a margin; wflo's gate decides, to 1e-6 m)."""
        x, y = np.atleast_1d(np.asarray(x, dtype=float)), np.atleast_1d(np.asarray(y, dtype=float))
        if self.circle is not None:
            (cx, cy), r = self.circle
            ok = (x - cx) ** 2 + (y - cy) ** 2 <= r * r
        else:
            ok = np.any([_inside_polygon(x, y, p) for p in self.polygons], axis=0)
        for zone in self.exclusions.values():
            ok &= ~_inside_polygon(x, y, zone)
        return ok

    def spacing_ok(self, x: npt.ArrayLike, y: npt.ArrayLike) -> bool:
        """Whether every pair of turbines is at least ``min_spacing_m`` apart."""
        x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
        d2 = (x[:, None] - x[None, :]) ** 2 + (y[:, None] - y[None, :]) ** 2
        np.fill_diagonal(d2, np.inf)
        return bool(d2.min() >= self.min_spacing_m ** 2) if len(x) > 1 else True

    def feasible(self, x: npt.ArrayLike, y: npt.ArrayLike) -> bool:
        """Inside the site, outside the exclusion zones, spacing kept."""
        return bool(self.inside(x, y).all()) and self.spacing_ok(x, y)

    @property
    def initial_layout(self) -> Tuple[FloatArray, FloatArray]:
        """A feasible random layout (turbines placed one by one, 1 m inside the site), the same for
        the same seed; returned as the row's initial layout unless the result gives another."""
        if self._initial is None:
            rng = np.random.default_rng([self.seed, 0x77666C6F])  # its own stream: self.rng stays the user's
            x0, y0, x1, y1 = self.bounds
            xs: List[float] = []
            ys: List[float] = []
            for _ in range(200_000):
                if len(xs) == self.n:
                    break
                cx, cy = rng.uniform(x0, x1), rng.uniform(y0, y1)
                ring = self.inside(np.array([cx, cx + 1, cx - 1, cx, cx]), np.array([cy, cy, cy, cy + 1, cy - 1]))
                if not ring.all():
                    continue
                if xs and np.min((np.array(xs) - cx) ** 2 + (np.array(ys) - cy) ** 2) < (self.min_spacing_m + 1.0) ** 2:
                    continue
                xs.append(cx)
                ys.append(cy)
            if len(xs) < self.n:
                raise Permanent(f"could not place {self.n} turbines {self.min_spacing_m} m apart in the site by random sampling")
            self._initial = (np.array(xs), np.array(ys))
        return self._initial[0].copy(), self._initial[1].copy()

    def power_w(self, speeds_ms: npt.ArrayLike) -> FloatArray:
        """The turbine's electrical power (W) at hub-height speeds (the document's curve)."""
        t = self.turbine
        v = np.asarray(speeds_ms, dtype=float)
        on = (v >= t["cut_in_ms"]) & ((v < t["cut_out_ms"]) | (bool(t["power_at_cut_out"]) & (v == t["cut_out_ms"])))
        p = t["power"]
        if p["kind"] == "cubic":
            out = t["rated_power_w"] * np.clip((v - t["cut_in_ms"]) / (p["rated_speed_ms"] - t["cut_in_ms"]), 0.0, 1.0) ** 3
        else:
            out = np.interp(v, p["speeds_ms"], p["power_w"])
        return np.where(on, out, 0.0)

    def ct(self, speeds_ms: npt.ArrayLike) -> FloatArray:
        """The turbine's thrust coefficient at hub-height speeds (the document's curve)."""
        c = self.turbine["ct"]
        v = np.asarray(speeds_ms, dtype=float)
        if c["kind"] == "constant":
            return np.full(v.shape, float(c["value"]))
        s = np.asarray(c["speeds_ms"], dtype=float)
        out = np.interp(v, s, c["values"])
        return np.where((v < s[0]) | (v > s[-1]), 0.0, out) if c.get("outside") == "zero" else out

    def __repr__(self) -> str:
        return f"<wflo.Task {self.id}: {self.n} turbines, seed {self.seed}, attempt {self.attempt}>"


def _floats(name: str, values: npt.ArrayLike, n: int) -> List[float]:
    a = np.asarray(values, dtype=float).reshape(-1)
    if a.shape[0] != n:
        raise Permanent(f"{name} has {a.shape[0]} values, the task has {n} turbines")
    return a.tolist()


def result_document(task: Task, returned: Union[Result, Tuple[Any, Any], Dict[str, Any]]) -> Dict[str, Any]:
    """The result document (schemas/result.v1.json) of what the function returned."""
    if isinstance(returned, dict):
        return {"task_id": task.id, **returned}
    r = returned if isinstance(returned, Result) else Result(*returned)
    doc: Dict[str, Any] = {"task_id": task.id, "layout": {"x": _floats("x", r.x, task.n), "y": _floats("y", r.y, task.n)}}
    if r.aep_mwh is not None:
        doc["aep_mwh"] = float(r.aep_mwh)
    initial = r.initial if r.initial is not None else task._initial
    if initial is not None:
        doc["initial_layout"] = {"x": _floats("initial x", initial[0], task.n), "y": _floats("initial y", initial[1], task.n)}
    if r.iterations is not None:
        doc["iterations"] = int(r.iterations)
    if r.evaluations is not None:
        doc["evaluations"] = int(r.evaluations)
    metrics = {**task.metrics, **(r.metrics or {})}
    if metrics:
        doc["metrics"] = {str(k): float(v) for k, v in metrics.items()}
    return doc


def _failure(err: BaseException) -> Dict[str, Any]:
    """An error answer: the exception's last line, and whether retrying can help."""
    line = traceback.format_exception_only(type(err), err)[-1].strip()
    message = str(err) if isinstance(err, Permanent) else line
    return {"error": message or type(err).__name__, "permanent": isinstance(err, Permanent)}


class Program:
    """A function made a wflo program by :func:`program`: call it as before, or ``main()``."""

    def __init__(self, function: Callable[[Task], Any]) -> None:
        self.function = function
        self.__doc__ = function.__doc__
        self.__name__ = getattr(function, "__name__", "program")

    def __call__(self, task: Task) -> Any:
        return self.function(task)

    def solve(self, document: Dict[str, Any]) -> Dict[str, Any]:
        """The result document for one task document (exceptions propagate)."""
        task = Task(document)
        return result_document(task, self.function(task))

    def main(self, argv: Optional[Sequence[str]] = None) -> None:
        """Speak the protocol the runner chose ($WFLO_MODE), then exit; with a task document's
        path as the only argument (and no wflo around), run it once and print the result."""
        argv = list(sys.argv[1:] if argv is None else argv)
        mode = os.environ.get("WFLO_MODE")
        if mode == "persistent":
            sys.exit(self._persistent())
        if mode == "per-task" or "WFLO_TASK" in os.environ:
            sys.exit(self._per_task())
        if len(argv) == 1:
            with open(argv[0], encoding="utf-8") as fh:
                print(json.dumps(self.solve(json.load(fh))))
            sys.exit(0)
        sys.exit(f"{sys.argv[0]}: a wflo program: run it from a campaign (optimizer: {{method: command, run: [python3, {os.path.basename(sys.argv[0])}]}}, docs/python.md), or give it a task document: {os.path.basename(sys.argv[0])} attempt-1/task.json")

    def _per_task(self) -> int:
        with open(os.environ["WFLO_TASK"], encoding="utf-8") as fh:
            document = json.load(fh)
        try:
            answer = self.solve(document)
        except Exception as err:  # the traceback to stderr.log, its last line to the runner (as in persistent mode)
            traceback.print_exc()
            answer = {"task_id": document.get("task_id"), **_failure(err)}
            _write(os.environ["WFLO_RESULT"], answer)
            return EXIT_PERMANENT if isinstance(err, Permanent) else 0
        _write(os.environ["WFLO_RESULT"], answer)
        return 0

    def _persistent(self) -> int:
        tasks = os.fdopen(int(os.environ.get("WFLO_TASKS_FD", "3")), "r", encoding="utf-8")
        results = os.fdopen(int(os.environ.get("WFLO_RESULTS_FD", "4")), "w", encoding="utf-8")
        for line in tasks:  # end of input: exit now
            if not line.strip():
                continue
            document = json.loads(line)
            try:
                answer = self.solve(document)
            except Exception as err:  # one task failed; the process goes on with the next
                traceback.print_exc()
                answer = {"task_id": document.get("task_id"), **_failure(err)}
            sys.stdout.flush()
            sys.stderr.flush()  # so the task's logs get its own lines
            results.write(json.dumps(answer) + "\n")
            results.flush()
        return 0


def _write(path: str, document: Dict[str, Any]) -> None:
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(document, fh)


def program(function: Callable[[Task], Any]) -> Program:
    """Make ``function(task) -> (x, y) | Result | dict`` a wflo program; end the script with
    ``function.main()``. See the module's documentation."""
    return Program(function)
