"""Fixtures for the rehearse tests: workspaces rendered by our CLI, with their root environment made the
way a user makes it (`uv sync` at the root, from the workspace's own uv.lock: tests/sdk_real's
`workspace_env`, which uv's cache makes cheap to repeat), and a helper that runs `osmosis rehearse` end
to end in a subprocess. rehearse then finds the SDK's `osmosis` in the workspace's `.venv` itself.
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
def scenario_workspaces(tmp_path_factory) -> h.Lazy:
    """One workspace per bundled template and integration (sdk_harness.SCENARIOS), rendered on first use and
    shared with tests/sdk_real (sdk_harness.shared_workspaces: a test that changes one puts it back)."""
    return h.shared_workspaces(tmp_path_factory)


def _skip_if_switched_off() -> None:
    if os.environ.get(h.SKIP_VAR) == "1":
        pytest.skip(f"{h.SKIP_VAR}=1: the real-SDK tests were switched off for this run")


def synced(workspace: Path, *, rollouts: bool = False) -> h.SdkEnv:
    """`uv sync --locked` at the workspace root: the SDK's CLI into .venv, as `uv sync` does for a user.
    ``rollouts``: every rollout's own environment too (`uv sync --locked --project rollouts/R`, what
    rehearse's preflight then finds in place), so that it starts with the bytecode the store keeps
    (sdk_harness.seed_bytecode) instead of compiling its packages again. test_rehearse_secrets.py and
    the platform-layout test leave theirs for rehearse to make."""
    _skip_if_switched_off()
    try:
        env = h.workspace_env(workspace)
        if rollouts:
            for project in sorted(workspace.glob("rollouts/*/pyproject.toml")):
                h.rollout_python(env, workspace, project.parent.name)
        return env
    except h.HarnessError as err:
        pytest.fail(str(err), pytrace=False)


@pytest.fixture(scope="session")
def synced_scenarios(scenario_workspaces, tmp_path_factory) -> h.Lazy:
    _skip_if_switched_off()
    envs = h.shared_envs(tmp_path_factory)   # the root `uv sync --locked` of each, once per process
    try:
        for scenario in h.SCENARIOS:   # and the rollout's own, seeded with the stored bytecode (`synced`)
            h.rollout_python(envs[scenario.id], scenario_workspaces[scenario.id], scenario.rollout)
    except h.HarnessError as err:
        pytest.fail(str(err), pytrace=False)
    return scenario_workspaces


def rehearse(workspace: Path, *args: str, env: dict | None = None, timeout: float = 900):
    """`osmosis rehearse --format json ...` in a subprocess, as a user runs it; (exit code, parsed JSON, stderr)."""
    child = h.sdk_child_environ("PYTHONPATH")  # (the SDK children write their bytecode: sdk_harness)
    # `eval run` calls `uv sync`; pin it to the harness's 3.12 so uv never fetches a Python.
    child.update({"UV_PYTHON": h.find_python312(), "UV_PYTHON_DOWNLOADS": "never", **(env or {})})
    argv = [sys.executable, "-m", "osmosis_workspace", "rehearse", "--format", "json", *args]
    done = subprocess.run(argv, cwd=workspace, capture_output=True, text=True, timeout=timeout, env=child)
    h.keep_workspace_bytecode(workspace)
    try:
        report = json.loads(done.stdout)
    except ValueError:
        report = None
    return done.returncode, report, done.stderr
