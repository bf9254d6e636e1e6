"""Run the SDK's own `osmosis eval run` for one rollout, and stop everything it started on Ctrl-C.

The SDK's `osmosis` comes from the workspace's environment (`uv sync` at the root installs
`osmosis-ai[eval]` into `.venv`) or from ``--sdk PATH``. It syncs the rollout's own environment,
starts the server as the platform does and awaits `/health`; this module only starts it, watches
its run folder for progress, and on a timeout or Ctrl-C asks it to stop (SIGINT, the way a user's
Ctrl-C reaches it), then insists (SIGTERM, SIGKILL), then ends the rollout server the SDK recorded
in `server.json` if the SDK could not.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path

from osmosis_workspace.core.errors import UserError
from osmosis_workspace.core.paths import is_file
from osmosis_workspace.core.records import dataclass
from osmosis_workspace.rehearse import children

STOP_GRACE_S = 20.0      # the SDK stops its server and writes its results on SIGINT
KILL_GRACE_S = 5.0
POLL_S = 0.25
NO_SDK_HINT = ("run `uv sync` at the workspace root (it needs Python 3.12: `uv sync --python 3.12`) "
               "to install the SDK's osmosis into .venv, or pass --sdk PATH")


def _venv_osmosis(venv: Path) -> Path:
    return venv / ("Scripts/osmosis.exe" if os.name == "nt" else "bin/osmosis")


def _has_sdk(osmosis: Path) -> bool:
    """The `osmosis` in a venv is the SDK's when the venv holds osmosis_ai (ours would not)."""
    venv = osmosis.parent.parent
    return any(venv.glob("lib/python3*/site-packages/osmosis_ai/__init__.py")) or \
        is_file(venv / "Lib" / "site-packages" / "osmosis_ai" / "__init__.py")


def find_sdk(root: Path, sdk: Path | None) -> Path:
    """The SDK's `osmosis` executable, or a usage error naming the one command that makes it."""
    if sdk is not None:
        path = sdk if sdk.is_absolute() else Path.cwd() / sdk
        if path.is_dir():
            path = _venv_osmosis(path)
        if not is_file(path) or not os.access(path, os.X_OK):
            raise UserError(f"--sdk {sdk}: not an executable `osmosis` (or a venv holding one)")
        return path
    found = _venv_osmosis(root / ".venv")
    if is_file(found) and _has_sdk(found):
        return found
    raise UserError("no SDK environment: .venv/bin/osmosis (osmosis-ai[eval]) is missing at the workspace root",
                    hint=NO_SDK_HINT)


@dataclass
class EvalProcess:
    returncode: int | None
    stdout: str
    stderr: str
    seconds: float
    timed_out: bool = False
    interrupted: bool = False
    stopped: str | None = None   # why rehearse stopped the run early (a fault it saw in the SDK's log)

    def result(self) -> dict | None:
        """The SDK's `--json` result object (stdout on success, stderr on an error), if it printed one."""
        for text in (self.stdout, self.stderr):
            for line in reversed(text.strip().splitlines()):
                try:
                    value = json.loads(line)
                except ValueError:
                    continue
                if isinstance(value, dict) and ("resource" in value or "error" in value):
                    return value
        return None


def eval_argv(sdk: Path, config_rel: str, dataset: Path, cases: int, output_root: Path, run_name: str,
              prompts: int | None = None) -> list[str]:
    """The SDK's `eval run` command line: every value joined to its option and the config after `--`, so a
    rollout or path that starts with `-` stays a value. At most one row per distinct prompt is in flight
    at first (``prompts``, up to 8): the scripted model tells a prompt's cases apart by the order their
    first requests arrive, and rows dispatched at the same moment would race."""
    in_flight = max(1, min(cases, 8, prompts or 8))
    return [str(sdk), "--json", "eval", "run", f"--dataset-file={dataset}", f"--rows=0-{cases - 1}",
            f"--output={output_root}", f"--name={run_name}", f"--max-in-flight={in_flight}", "--yes", "--", config_rel]


def _end_recorded_server(run_dir: Path) -> None:
    """The rollout server the SDK recorded, if it outlived the SDK: its process group is ended."""
    try:
        state = json.loads((run_dir / "server.json").read_text(encoding="utf-8"))
        pgid = int(state["pgid"])
    except (OSError, ValueError, KeyError, TypeError):
        return
    children.sweep(pgid)


def stop(process: subprocess.Popen, run_dir: Path) -> None:
    """SIGINT as a Ctrl-C would, then SIGTERM, then SIGKILL, then what is left of the group; then the recorded server."""
    children.stop(process, ((signal.SIGINT, STOP_GRACE_S), (signal.SIGTERM, KILL_GRACE_S), (children.KILL, KILL_GRACE_S)))
    _end_recorded_server(run_dir)


def run_eval(argv: list[str], cwd: Path, env: Mapping[str, str], run_dir: Path, timeout: float,
             on_tick: Callable[[], str | None] | None = None, cancel: threading.Event | None = None) -> EvalProcess:
    """Run ``argv`` (the SDK's eval run) in its own process group.

    ``on_tick`` is called while it runs; a reason it returns stops the run early (a fault already
    certain, such as a server listening on the wrong port, need not wait out the SDK's health
    timeout twice). ``cancel`` set by another thread (Ctrl-C) stops it as a Ctrl-C would.
    """
    started = time.monotonic()
    # Unnamed temporary files, outside the workspace: the SDK's output can be larger than a pipe holds.
    with tempfile.TemporaryFile("w+", encoding="utf-8") as out, tempfile.TemporaryFile("w+", encoding="utf-8") as err:
        try:
            process = children.start(argv, cwd, env, out, err)
        except OSError as error:
            raise UserError(f"cannot start {argv[0]}: {error.strerror or error}", hint=NO_SDK_HINT) from None
        timed_out = interrupted = False
        stopped = None
        try:
            while process.poll() is None:
                if time.monotonic() - started > timeout:
                    timed_out = True
                    stop(process, run_dir)
                    break
                if cancel is not None and cancel.is_set():
                    raise KeyboardInterrupt
                stopped = on_tick() if on_tick is not None else None
                if stopped:
                    stop(process, run_dir)
                    break
                time.sleep(POLL_S)
        except KeyboardInterrupt:
            interrupted = True
            stop(process, run_dir)
        else:
            if not (timed_out or stopped):
                stop(process, run_dir)  # it ended by itself: nothing it started stays (the group, the recorded server)
        stdout, stderr = children.read_tail(out), children.read_tail(err)
    if interrupted:
        raise KeyboardInterrupt
    return EvalProcess(process.returncode, stdout, stderr, time.monotonic() - started, timed_out, interrupted, stopped)

