"""Campaigns from Python: validate, run, status, through the ``wflo`` CLI (one process per call).

Every fact comes from the CLI's own JSON output (``wflo validate --kind campaign --json``,
``wflo run --json``, ``wflo status --json``), so Python sees what ``wflo`` prints, with the CLI's
field names; every error is a :class:`wflo.WfloError` carrying the CLI's one line and exit code.

>>> import wflo
>>> c = wflo.load_campaign("examples/demo.yaml", out="out/demo")   # checked; raises WfloError
>>> summary = c.run(workers=2, on_progress=print)                  # blocks; progress as it comes
>>> c.status()["done"], c.read_layouts()
"""
from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
from typing import Any, Callable, Dict, List, NamedTuple, Optional, Sequence

from ._engine import WfloError, default_command

__all__ = ["Campaign", "CampaignRun", "Progress", "RunFailed", "load_campaign", "validate_campaign", "run_campaign", "start_run", "campaign_status"]


class Progress(NamedTuple):
    """One progress line of a run (``wflo: 7/16 done, 0 failed, 1 running, 8 pending, 207 tasks/min,
    ETA 3s``), as numbers: tasks this run is responsible for, and the ETA as the CLI wrote it."""

    done: int
    total: int
    failed: int
    running: int
    pending: int
    rate_per_min: float
    eta: str


# The line runner/progress.ts progressLine writes (after `wflo: `), when stderr is not a terminal.
_PROGRESS = re.compile(r"^wflo: (\d+)/(\d+) done, (\d+) failed, (\d+) running, (\d+) pending, ([0-9.]+) tasks/min, ETA (\S+)$")


def parse_progress(line: str) -> Optional[Progress]:
    """The :class:`Progress` of one stderr line of ``wflo run``, or None for any other line."""
    m = _PROGRESS.match(line)
    if not m:
        return None
    done, total, failed, running, pending = (int(m.group(i)) for i in range(1, 6))
    return Progress(done, total, failed, running, pending, float(m.group(6)), m.group(7))


class RunFailed(WfloError):
    """A run that ended without every task done (exit code 1: tasks failed, ``max_failures``) or was
    interrupted (130). ``str(err)`` is the CLI's last line; ``summary`` the ``wflo run --json``
    summary when the run got that far (else None); ``log`` every stderr line of the run."""

    def __init__(self, message: str, exit_code: int, summary: Optional[Dict[str, Any]], log: List[str]) -> None:
        super().__init__(message, exit_code)
        self.summary = summary
        self.log = log


def _error_line(stderr_lines: Sequence[str], exit_code: int) -> str:
    """The CLI's error: its last ``wflo: `` line that is not progress (else its last line)."""
    for line in reversed(stderr_lines):
        if line.startswith("wflo: ") and parse_progress(line) is None:
            return line[len("wflo: "):]
    tail = [line for line in stderr_lines if line.strip()]
    return tail[-1] if tail else f"wflo exited with code {exit_code}"


def cli(args: Sequence[str], cwd: Optional[str] = None) -> Dict[str, Any]:
    """Run ``wflo ARGS`` (a command with ``--json``) and return its JSON; WfloError with the CLI's
    one line and exit code when it fails."""
    p = subprocess.run([*default_command(), *args], cwd=cwd, stdin=subprocess.DEVNULL, capture_output=True, text=True)
    if p.returncode != 0:
        raise WfloError(_error_line(p.stderr.splitlines(), p.returncode), p.returncode)
    return json.loads(p.stdout)


def validate_campaign(path: "str | os.PathLike[str]", out: "Optional[str | os.PathLike[str]]" = None) -> Dict[str, Any]:
    """Check a campaign file as ``wflo validate FILE --kind campaign --json`` does, running nothing:
    the dry-run report (``campaign``, ``outputDir``, ``tasks``, ``done``, ``stale``, ``failed``,
    ``missing``, ``groups`` per farm x type, …). Bad input raises WfloError (exit_code 2) whose
    message is the CLI's ``file:line: field: what is wrong`` line."""
    args = ["validate", os.fspath(path), "--kind", "campaign", "--json"]
    if out is not None:
        args += ["--out", os.fspath(out)]
    return cli(args)


def campaign_status(folder: "str | os.PathLike[str]") -> Dict[str, Any]:
    """What ``wflo status FOLDER --json`` prints (the folder, or the campaign file: its output):
    ``total``, ``done``, ``failed``, ``running``, ``pending``, ``stale``, ``complete``, ``run``
    (the live or last run), ``groups`` (per farm x type), ``failures`` (task id, message, attempts),
    ``runningTasks``, ``quarantined``. Works during a run."""
    return cli(["status", os.fspath(folder), "--json"])


class CampaignRun:
    """A ``wflo run CAMPAIGN --json`` process started by :func:`start_run`. ``progress`` is the last
    :class:`Progress` seen, ``log`` every stderr line so far; ``wait()`` returns the run's summary or
    raises. The run is an ordinary ``wflo run``: crash-safe, resumable by running it again; it does
    not end when Python does (use ``interrupt()``: the CLI's Ctrl-C, which keeps every result)."""

    def __init__(self, argv: List[str], on_progress: Optional[Callable[[Progress], None]], on_line: Optional[Callable[[str], None]], cwd: Optional[str]) -> None:
        self.argv = argv
        self.progress: Optional[Progress] = None
        self.log: List[str] = []
        self._on_progress = on_progress
        self._on_line = on_line
        self._stdout = b""
        self._callback_error: Optional[BaseException] = None
        # Its own process group: a Ctrl-C at the terminal reaches Python only, and wait() passes on
        # exactly one SIGINT (a second one would make `wflo run` exit at once instead of cleanly).
        group = {"process_group": 0} if sys.version_info >= (3, 11) else {"preexec_fn": os.setpgrp}
        self._process = subprocess.Popen(argv, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, **group)
        self._out_thread = threading.Thread(target=self._read_stdout, daemon=True)
        self._err_thread = threading.Thread(target=self._read_stderr, daemon=True)
        self._out_thread.start()
        self._err_thread.start()

    def _read_stdout(self) -> None:
        assert self._process.stdout is not None
        self._stdout = self._process.stdout.read()

    def _read_stderr(self) -> None:
        assert self._process.stderr is not None
        for raw in self._process.stderr:
            line = raw.decode("utf-8", "replace").rstrip("\n")
            self.log.append(line)
            p = parse_progress(line)
            try:
                if p is not None:
                    self.progress = p
                    if self._on_progress:
                        self._on_progress(p)
                elif self._on_line:
                    self._on_line(line)
            except BaseException as err:  # the caller's callback: reported by wait(), the run goes on
                self._callback_error = self._callback_error or err

    @property
    def pid(self) -> int:
        return self._process.pid

    def running(self) -> bool:
        return self._process.poll() is None

    def interrupt(self) -> None:
        """Stop the run as Ctrl-C does (SIGINT): running tasks end, every result so far is kept;
        ``wait()`` then raises RunFailed with exit code 130. Running the campaign again resumes."""
        if self._process.poll() is None:
            self._process.send_signal(signal.SIGINT)

    def wait(self, timeout: Optional[float] = None) -> Dict[str, Any]:
        """Wait for the run: its ``wflo run --json`` summary (``done``, ``total``, ``failed``,
        ``doneThisRun``, ``stopReason``, ``layoutsFile``, ``seconds``, …). Raises RunFailed when the
        run ended without every task done, WfloError (exit code 2) for bad input."""
        try:
            code = self._process.wait(timeout)
        except KeyboardInterrupt:
            self.interrupt()
            self._process.wait()
            raise
        self._out_thread.join()
        self._err_thread.join()
        if self._callback_error is not None:
            raise self._callback_error
        text = self._stdout.decode("utf-8", "replace").strip()
        summary = json.loads(text) if text.startswith("{") else None
        if code == 0 and summary is not None:
            return summary
        message = _error_line(self.log, code)
        if summary is not None or code == 130:
            raise RunFailed(message, code, summary, list(self.log))
        raise WfloError(message, code)


def _run_argv(path: "str | os.PathLike[str]", out: "Optional[str | os.PathLike[str]]", workers: Optional[int], retry_failed: bool, progress_every_s: float, args: Sequence[str]) -> List[str]:
    argv = [*default_command(), "run", os.fspath(path), "--json", "--log-every", repr(float(progress_every_s))]
    if out is not None:
        argv += ["--out", os.fspath(out)]
    if workers is not None:
        argv += ["--workers", str(int(workers))]
    if retry_failed:
        argv.append("--retry-failed")
    return [*argv, *args]


def start_run(path: "str | os.PathLike[str]", *, out: "Optional[str | os.PathLike[str]]" = None, workers: Optional[int] = None,
              retry_failed: bool = False, progress_every_s: float = 1.0, args: Sequence[str] = (),
              on_progress: Optional[Callable[[Progress], None]] = None, on_line: Optional[Callable[[str], None]] = None,
              cwd: Optional[str] = None) -> CampaignRun:
    """Start ``wflo run CAMPAIGN --json`` and return at once (:class:`CampaignRun`).

    Args:
        out, workers, retry_failed: ``--out``, ``--workers``, ``--retry-failed``.
        progress_every_s: how often the CLI reports progress (``--log-every``).
        args: any further ``wflo run`` options, as on the command line (``["--adopt", "rescued.h5"]``).
        on_progress: called with each :class:`Progress` (from a thread reading the run's output).
        on_line: called with every other stderr line (notices, the final line).
    """
    return CampaignRun(_run_argv(path, out, workers, retry_failed, progress_every_s, args), on_progress, on_line, cwd)


def run_campaign(path: "str | os.PathLike[str]", **options: Any) -> Dict[str, Any]:
    """Run (or resume) a campaign and wait: :func:`start_run` then ``wait()``: the run's summary."""
    return start_run(path, **options).wait()


class Campaign:
    """A campaign file checked by :func:`load_campaign`: ``name``, ``output_dir``, ``report`` (the
    dry-run report at load time), and ``run()``, ``start()``, ``status()``, ``read_layouts()``."""

    def __init__(self, path: "str | os.PathLike[str]", out: "Optional[str | os.PathLike[str]]" = None) -> None:
        self.path = os.path.abspath(os.fspath(path))
        self._out = None if out is None else os.path.abspath(os.fspath(out))
        self.report = validate_campaign(self.path, self._out)
        self.name: str = self.report["campaign"]
        self.output_dir: str = self.report["outputDir"]

    def validate(self) -> Dict[str, Any]:
        """Check the file again (it may have changed): the dry-run report, now."""
        self.report = validate_campaign(self.path, self._out)
        return self.report

    def start(self, **options: Any) -> CampaignRun:
        """:func:`start_run` on this campaign (into its output folder)."""
        return start_run(self.path, out=self._out, **options)

    def run(self, **options: Any) -> Dict[str, Any]:
        """Run or resume it and wait (:func:`run_campaign`): the run's summary."""
        return self.start(**options).wait()

    def status(self) -> Dict[str, Any]:
        """``wflo status --json`` of its output folder."""
        return campaign_status(self.output_dir)

    def read_layouts(self, **options: Any) -> Any:
        """Its ``layouts.h5`` (:func:`wflo.read_layouts`)."""
        from .layouts import read_layouts
        return read_layouts(os.path.join(self.output_dir, "layouts.h5"), **options)

    def __repr__(self) -> str:
        return f"<wflo.Campaign {self.name!r}: {self.report['tasks']} tasks, output {self.output_dir}>"


def load_campaign(path: "str | os.PathLike[str]", out: "Optional[str | os.PathLike[str]]" = None) -> Campaign:
    """Read and check a campaign file (every check ``wflo run`` makes before it runs anything);
    WfloError with the CLI's one line (exit_code 2) when it is not valid."""
    return Campaign(path, out)
