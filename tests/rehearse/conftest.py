"""Fixtures for the rehearse tests: the cached SDK environment of tests/sdk_real (the same key, so one
build serves both), and a helper that runs `osmosis rehearse` end to end as a user runs it.

Until every rollout is a standalone uv project with its own lock (in flight on main), a workspace's own
root `.venv` cannot serve as the SDK: the SDK's `uv sync --project rollouts/<r>` syncs that same
environment to the rollout's dependencies and removes `uv` from under the running SDK. So these tests
hand the SDK in with `--sdk` (the cached environment), and the lookup of `.venv/bin/osmosis` is tested
on its own (test_cli.py).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

SDK_REAL = Path(__file__).resolve().parents[1] / "sdk_real"
if str(SDK_REAL) not in sys.path:
    sys.path.insert(0, str(SDK_REAL))

import sdk_harness as h  # noqa: E402


@pytest.fixture(autouse=True)
def _git_identity(monkeypatch):
    for key, value in h.GIT_IDENTITY.items():
        monkeypatch.setenv(key, value)


@pytest.fixture(scope="session")
def scenario_workspaces(tmp_path_factory) -> dict[str, Path]:
    """One fresh workspace per bundled template and integration (sdk_harness.SCENARIOS)."""
    root = tmp_path_factory.mktemp("rehearse-templates")
    saved = {k: os.environ.get(k) for k in h.GIT_IDENTITY}
    os.environ.update(h.GIT_IDENTITY)
    try:
        return {s.id: h.render(root / s.id, [s]) for s in h.SCENARIOS}
    finally:
        for k, v in saved.items():
            os.environ.pop(k, None) if v is None else os.environ.__setitem__(k, v)


@pytest.fixture(scope="session")
def sdk_env(scenario_workspaces) -> h.SdkEnv:
    """The same environment tests/sdk_real builds (same requirement set, so the same cache entry)."""
    if os.environ.get(h.SKIP_VAR) == "1":
        pytest.skip(f"{h.SKIP_VAR}=1: the real-SDK tests were switched off for this run")
    requirements = ["pytest>=8"]
    for ws in scenario_workspaces.values():
        requirements += h.rollout_requirements(ws)
    try:
        return h.build_sdk_env(requirements)
    except h.HarnessError as err:
        pytest.fail(str(err), pytrace=False)


def rehearse(sdk_env: h.SdkEnv, workspace: Path, *args: str, env: dict | None = None, timeout: float = 900):
    """`osmosis rehearse --format json ...` in a subprocess, as a user runs it; (exit code, parsed JSON, stderr)."""
    child = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
    # `eval run` calls `uv sync`; pin it to the harness's 3.12 so uv never fetches a Python.
    child.update({"UV_PYTHON": sdk_env.base_python, "UV_PYTHON_DOWNLOADS": "never", **(env or {})})
    argv = [sys.executable, "-m", "generator", "rehearse", "--format", "json", "--sdk", str(sdk_env.bin / "osmosis"), *args]
    done = subprocess.run(argv, cwd=workspace, capture_output=True, text=True, timeout=timeout, env=child)
    try:
        report = json.loads(done.stdout)
    except ValueError:
        report = None
    return done.returncode, report, done.stderr
