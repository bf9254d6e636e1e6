"""Fixtures for the real-SDK tests (sdk_harness.py): rendered workspaces and their locked environments."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import sdk_harness as h


def _skip_if_switched_off() -> None:
    if os.environ.get(h.SKIP_VAR) == "1":
        pytest.skip(f"{h.SKIP_VAR}=1: the real-SDK tests were switched off for this run")


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
def envs(workspaces) -> dict[str, h.SdkEnv]:
    """Each scenario workspace's root environment, from its own uv.lock (`uv sync --locked`)."""
    _skip_if_switched_off()
    try:
        return {sid: h.workspace_env(ws) for sid, ws in workspaces.items()}
    except h.HarnessError as err:
        pytest.fail(str(err), pytrace=False)


@pytest.fixture(scope="session")
def full_sdk_env() -> h.SdkEnv:
    """One unlocked environment with every integration of the newest osmosis-ai 0.3 (the generations
    table's check needs them side by side; no workspace runs in it)."""
    _skip_if_switched_off()
    try:
        return h.build_sdk_env(["pytest>=8"])
    except h.HarnessError as err:
        pytest.fail(str(err), pytrace=False)


@pytest.fixture(scope="session")
def probes(envs, workspaces) -> dict[str, dict]:
    """sdk_probe.py's report for each scenario's rollout, run in the rollout's locked environment."""
    by_id = {s.id: s for s in h.SCENARIOS}
    try:
        return {sid: h.probe(envs[sid], ws, by_id[sid].rollout) for sid, ws in workspaces.items()}
    except h.HarnessError as err:
        pytest.fail(str(err), pytrace=False)
