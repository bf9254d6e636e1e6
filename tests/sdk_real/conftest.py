"""Fixtures for the real-SDK tests (sdk_harness.py): rendered workspaces and the cached 3.12 environment."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import sdk_harness as h


@pytest.fixture(autouse=True)
def _git_identity(monkeypatch):
    for role in ("AUTHOR", "COMMITTER"):
        monkeypatch.setenv(f"GIT_{role}_NAME", "SDK Tests")
        monkeypatch.setenv(f"GIT_{role}_EMAIL", "sdk-tests@example.invalid")


@pytest.fixture(scope="session")
def workspaces(tmp_path_factory) -> dict[str, Path]:
    """One fresh workspace per scenario, keyed by scenario id."""
    root = tmp_path_factory.mktemp("sdk-real")
    return {s.id: h.render(root / s.id, [s]) for s in h.SCENARIOS}


@pytest.fixture(scope="session")
def sdk_env(workspaces) -> h.SdkEnv:
    """The cached Python 3.12 environment: the real osmosis-ai plus every rendered rollout's dependencies."""
    if os.environ.get(h.SKIP_VAR) == "1":
        pytest.skip(f"{h.SKIP_VAR}=1: the real-SDK tests were switched off for this run")
    requirements = ["pytest>=8"]
    for ws in workspaces.values():
        requirements += h.rollout_requirements(ws)
    try:
        return h.build_sdk_env(requirements)
    except h.HarnessError as err:
        pytest.fail(str(err), pytrace=False)


@pytest.fixture(scope="session")
def probes(sdk_env, workspaces) -> dict[str, dict]:
    """sdk_probe.py's report for each scenario's rollout."""
    by_id = {s.id: s for s in h.SCENARIOS}
    return {sid: h.probe(sdk_env, ws, [by_id[sid].rollout]) for sid, ws in workspaces.items()}
