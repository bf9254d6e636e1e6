"""rehearse checks a rollout's environment before it trusts a run: a uv.lock that pins a pair from
core/known_bad.py (doctor's DEP003) fails the preflight verdict with that pair and nothing runs; a
synced .venv holding one fails it too (Harbor's preflight-only verdict included)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest import rehearse, synced
from typer.testing import CliRunner

from osmosis_workspace.cli import app
from osmosis_workspace.rehearse import environment

SHOULD_NOT_RUN = "#!/bin/sh\necho should-not-run >&2\nexit 9\n"


def _break_lock(ws: Path, rollout: str) -> None:
    lock = ws / "rollouts" / rollout / "uv.lock"
    text = lock.read_text()
    pinned = re.search(r'name = "litellm"\nversion = "([^"]+)"', text)
    assert pinned, "the template's lock no longer pins litellm"
    lock.write_text(text.replace(pinned.group(0), 'name = "litellm"\nversion = "1.106.12"'))


def _fake_sdk(tmp_path: Path) -> Path:
    sdk = tmp_path / "osmosis"
    sdk.write_text(SHOULD_NOT_RUN)
    sdk.chmod(0o755)
    return sdk


def _venv_with(venv: Path, *dists: str) -> None:
    site = venv / "lib" / "python3.12" / "site-packages"
    for dist in dists:
        (site / f"{dist}.dist-info").mkdir(parents=True)


@pytest.mark.parametrize("integration", ["strands", "harbor"])
def test_a_known_bad_lock_fails_the_preflight_and_nothing_runs(make_workspace, tmp_path, integration):
    ws = make_workspace("multiply", name=f"ws-{integration}", data=(f"integration={integration}",))
    [rollout] = [p.name for p in (ws / "rollouts").iterdir() if p.is_dir()]
    assert environment.lock_problem(ws, rollout) is None          # the template's own lock is sound
    _break_lock(ws, rollout)
    result = CliRunner().invoke(app, ["rehearse", "-w", str(ws), "--sdk", str(_fake_sdk(tmp_path)), "-f", "json"])
    assert result.exit_code == 1, result.output
    assert "should-not-run" not in result.output
    [report] = json.loads(result.stdout)["rollouts"]
    preflight = report["verdicts"][0]
    assert preflight["name"] == "preflight" and preflight["holds"] is False
    assert f"rollouts/{rollout}/uv.lock pins litellm 1.106.12 with mcp" in preflight["detail"]
    assert '"litellm<1.106"' in preflight["detail"] and report["headline"].startswith("preflight failed:")
    # doctor says the same of the same lock: one table, one reading
    doctor = CliRunner().invoke(app, ["doctor", str(ws), "--select", "DEP", "--format", "json"])
    assert [d["code"] for d in json.loads(doctor.stdout)["diagnostics"]] == ["DEP003"], doctor.stdout


def test_a_synced_environment_holding_the_pair(tmp_path):
    venv = tmp_path / "rollouts" / "r" / ".venv"
    _venv_with(venv, "litellm-1.110.2", "mcp-1.30.0", "strands_agents-1.61.1")
    assert environment.installed(venv)["strands-agents"] == "1.61.1"
    problem = environment.environment_problem(tmp_path, "r")
    assert problem and problem.startswith("rollouts/r/.venv holds litellm 1.110.2 with mcp 1.30.0")


def test_a_synced_environment_with_a_working_pair_is_fine(tmp_path):
    _venv_with(tmp_path / "rollouts" / "r" / ".venv", "litellm-1.110.2", "mcp-2.3.0")
    assert environment.environment_problem(tmp_path, "r") is None
    assert environment.environment_problem(tmp_path, "missing") is None


@pytest.mark.slow
def test_harbor_preflight_names_the_pair_its_sync_installed(scenario_workspaces):
    """Real SDK, real uv: the bundled Harbor rollout without its `litellm<1.106` constraint and without
    its lock, as the platform's template ships it. The preflight's `uv sync` resolves today's newest
    litellm with the mcp strands-agents allows, and the verdict names that pair, not a sandbox."""
    ws = scenario_workspaces["multiply-harbor"]
    synced(ws)
    project = ws / "rollouts" / "mul-harbor"
    pyproject = (project / "pyproject.toml").read_text()
    lock = (project / "uv.lock").read_text()
    loose = pyproject.replace('constraint-dependencies = ["litellm<1.106"]', "")
    assert loose != pyproject, "the Harbor template no longer carries the litellm constraint"
    (project / "pyproject.toml").write_text(loose)
    (project / "uv.lock").unlink()
    try:
        code, report, stderr = rehearse(ws, "--rows", "0")
    finally:
        (project / "pyproject.toml").write_text(pyproject)
        (project / "uv.lock").write_text(lock)
    assert report is not None, stderr[-3000:]
    [result] = report["rollouts"]
    installed = environment.installed(project / ".venv")
    if not environment.environment_problem(ws, "mul-harbor"):
        pytest.fail(f"uv resolved a working pair today (litellm {installed.get('litellm')}, mcp {installed.get('mcp')}): "
                    "the known-bad table or this test needs a look")
    assert code == 1 and result["headline"].startswith("preflight failed: rollouts/mul-harbor/.venv holds litellm"), result
