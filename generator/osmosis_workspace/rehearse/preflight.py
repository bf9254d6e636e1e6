"""The SDK's own preflight, for a rollout rehearse cannot run end to end (Harbor: every trial needs a
Docker or Daytona sandbox). It is what `eval run` does before its first row: `uv sync` the rollout's
own environment, then import the entrypoint there with the SDK's loader, so module-level backends are
built and validate their arguments (HarborBackend checks its agent, tasks folder, bundle, queue). A
rollout that fails here would fail the same way on the platform, before any sandbox exists.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Mapping
from pathlib import Path

from osmosis_workspace.core.paths import is_file
from osmosis_workspace.rehearse import children
from osmosis_workspace.rehearse.run_results import first_traceback

# Run in the rollout's environment: the SDK's loader, as submit and eval run import an entrypoint.
_PROBE = (
    "import sys\n"
    "from pathlib import Path\n"
    "from osmosis_ai.platform.cli.rollout_entrypoint import load_rollout_entrypoint\n"
    "module = load_rollout_entrypoint(Path(sys.argv[1]), sys.argv[2])\n"
    "backend = getattr(module, 'backend', None)\n"
    "print('backend:' + (type(backend).__name__ if backend is not None else ''))\n"
)


def find_uv(sdk: Path) -> str | None:
    """uv beside the SDK's interpreter first, then PATH: the order the SDK itself looks in."""
    for name in ("uv", "uv.exe"):
        candidate = sdk.parent / name
        if is_file(candidate) and os.access(candidate, os.X_OK):
            return str(candidate)
    return shutil.which("uv")


def _why(text: str, root: Path) -> str:
    """One line: the exception and the place in the user's code, else the output's last line."""
    lines = text.splitlines()
    failure = first_traceback(lines, root)
    if failure is not None:
        return failure.exception + (f" at {failure.where}" if failure.where else "")
    tail = [line.strip() for line in lines if line.strip()]
    return tail[-1][:300] if tail else "no output"


def run_preflight(root: Path, sdk: Path, rollout: str, entrypoint: str, env: Mapping[str, str],
                  timeout: float) -> tuple[bool, str]:
    """(passed, one-paragraph account). Runs the workspace's code: only `rehearse` calls this."""
    uv = find_uv(sdk)
    if uv is None:
        return False, "uv is not installed beside the SDK or on PATH, and the SDK syncs every rollout with it (pip install uv)"
    project = root / "rollouts" / rollout
    child = {k: v for k, v in env.items() if k != "VIRTUAL_ENV"}
    steps = (("`uv sync` of the rollout's environment", [uv, "sync", f"--project={project}"]),
             ("the SDK's import of the entrypoint",
              [uv, "run", "--no-sync", f"--project={project}", "python", "-c", _PROBE, str(project), entrypoint]))
    for label, argv in steps:
        # Its own process group, ended whole: uv's `python` child must not outlive a timeout (issue 28).
        try:
            done = children.run(argv, root, child, timeout)
        except OSError as err:
            return False, f"{label} could not start: {err.strerror or err}"
        if done.timed_out:
            return False, f"{label} did not finish within {timeout:.0f} s"
        if done.returncode != 0:
            return False, f"{label} failed: {_why(done.stderr or done.stdout, root)}"
    backend = next((line[len("backend:"):] for line in done.stdout.splitlines() if line.startswith("backend:")), "")
    built = f"{backend} built" if backend else "no module-level `backend` found"
    return True, f"the SDK imported rollouts/{rollout}/{entrypoint} in the rollout's own environment ({built})"
