"""Fixtures for the real-SDK tests (sdk_harness.py): rendered workspaces and the cached 3.12 environment."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

import sdk_harness as h
from generator.cli import app


@pytest.fixture(autouse=True)
def _git_identity(monkeypatch):
    for role in ("AUTHOR", "COMMITTER"):
        monkeypatch.setenv(f"GIT_{role}_NAME", "SDK Tests")
        monkeypatch.setenv(f"GIT_{role}_EMAIL", "sdk-tests@example.invalid")


def osmosis(*args: str | Path) -> None:
    result = CliRunner().invoke(app, [str(a) for a in args])
    assert result.exit_code == 0, f"osmosis {' '.join(map(str, args))}\n{result.output}"


def render(target: Path, scenarios: list[h.Scenario]) -> Path:
    """`osmosis init` with the first scenario's template, `osmosis rollout new` for the others."""
    first, *rest = scenarios
    env = {"GIT_AUTHOR_NAME": "SDK Tests", "GIT_AUTHOR_EMAIL": "sdk-tests@example.invalid",
           "GIT_COMMITTER_NAME": "SDK Tests", "GIT_COMMITTER_EMAIL": "sdk-tests@example.invalid"}
    saved = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    try:
        osmosis("init", target, "--template", first.template, "--defaults", "--data", "workspace_name=sdk-real",
                "--data", f"rollout_name={first.rollout}", *[a for d in first.data for a in ("--data", d)])
        for s in rest:
            osmosis("rollout", "new", s.rollout, "--template", s.template, "--defaults", "--workspace", target,
                    *[a for d in s.data for a in ("--data", d)])
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    return target


@pytest.fixture(scope="session")
def workspaces(tmp_path_factory) -> dict[str, Path]:
    """One fresh workspace per scenario, keyed by scenario id."""
    root = tmp_path_factory.mktemp("sdk-real")
    return {s.id: render(root / s.id, [s]) for s in h.SCENARIOS}


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
