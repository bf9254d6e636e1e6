"""Fixtures for the real-SDK tests (sdk_harness.py): rendered workspaces and their locked environments."""

from __future__ import annotations

import os

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


def _or_fail(make):
    """``make`` with a HarnessError (no interpreter, a lock that no longer matches) as a plain test failure."""
    def made(sid):
        try:
            return make(sid)
        except h.HarnessError as err:
            pytest.fail(str(err), pytrace=False)
    return made


@pytest.fixture(scope="session")
def workspaces(tmp_path_factory) -> h.Lazy:
    """Scenario id -> its workspace, rendered on first use (shared with tests/rehearse: sdk_harness.shared_workspaces)."""
    return h.shared_workspaces(tmp_path_factory)


@pytest.fixture(scope="session")
def envs(tmp_path_factory) -> h.Lazy:
    """Each scenario workspace's root environment, from its own uv.lock (`uv sync --locked`), made on first use."""
    _skip_if_switched_off()
    shared = h.shared_envs(tmp_path_factory)
    return h.Lazy(list(shared), _or_fail(shared.__getitem__))


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
def probes(envs, workspaces) -> h.Lazy:
    """sdk_probe.py's report for each scenario's rollout, run in the rollout's locked environment (on first use)."""
    by_id = {s.id: s for s in h.SCENARIOS}
    return h.Lazy(list(by_id), _or_fail(lambda sid: h.probe(envs[sid], workspaces[sid], by_id[sid].rollout)))
