"""Where the wflo engine is: the command ``wflo.Engine()`` starts (``<command> serve --stdio``).

Tried in this order (docs/python.md "Finding the engine"):

1. ``$WFLO_CLI``: a path to wflo's ``dist/src/cli/main.js`` (run with ``node``), or to an
   executable taking ``serve --stdio`` (an installed ``wflo``, a clone's ``./wflo`` launcher), or
   the name of one on ``PATH``;
2. the clone around this package, when it is imported from one (``<clone>/python/wflo`` →
   ``<clone>/dist/src/cli/main.js``): the engine of the same checkout;
3. a ``wflo`` on ``PATH`` (``npm install -g .`` in a clone puts one there, as does a symlink to a
   clone's ``./wflo``).

When none is there, the error says what was tried, in that order, and the ways out.
"""
from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import List, Optional

from ._errors import WfloError

#: The clone's compiled CLI, relative to the clone (the package lives in ``<clone>/python/wflo``).
_CLONE_CLI = ("dist", "src", "cli", "main.js")


def clone_cli() -> Path:
    """Where the clone around this package would have its compiled CLI."""
    return Path(__file__).resolve().parents[2].joinpath(*_CLONE_CLI)


def _node() -> str:
    node = shutil.which("node")
    if node is None:
        raise WfloError("node is not on PATH: the wflo engine (dist/src/cli/main.js) runs on Node.js 20 or later; install it, or set WFLO_CLI to an executable `wflo`")
    return node


def _command_of(target: str) -> List[str]:
    return [_node(), target] if target.endswith(".js") else [target]


def _from_setting(value: str) -> List[str]:
    if os.sep in value or (os.altsep and os.altsep in value) or value.endswith(".js"):
        path = os.path.abspath(os.path.expanduser(value))
        if not os.path.isfile(path):
            raise WfloError(f"WFLO_CLI={value}: no such file (expected wflo's dist/src/cli/main.js or an executable `wflo`)")
        if not path.endswith(".js") and not os.access(path, os.X_OK):
            raise WfloError(f"WFLO_CLI={value}: not executable (expected wflo's dist/src/cli/main.js or an executable `wflo`)")
        return _command_of(path)
    found = shutil.which(value)
    if found is None:
        raise WfloError(f"WFLO_CLI={value}: not found on PATH (expected a path to wflo's dist/src/cli/main.js or to an executable `wflo`)")
    return [found]


def engine_command(environ: Optional[dict] = None) -> List[str]:
    """The engine's command line (without ``serve --stdio``), found as the module comment says;
    a ``WfloError`` naming everything tried when there is none."""
    env = os.environ if environ is None else environ
    setting = env.get("WFLO_CLI", "")
    if setting:
        return _from_setting(setting)
    clone = clone_cli()
    if clone.is_file():
        return _command_of(str(clone))
    on_path = shutil.which("wflo", path=env.get("PATH"))
    if on_path is not None:
        return [on_path]
    raise WfloError(
        "the wflo engine was not found: WFLO_CLI is not set; "
        f"{clone} is not there (this package is not in a built wflo clone); no `wflo` on PATH. "
        "Install the engine (`npm ci && npm install -g .` in a wflo clone puts `wflo` on PATH), "
        "or set WFLO_CLI to a clone's dist/src/cli/main.js or its ./wflo")
