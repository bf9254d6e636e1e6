"""What `osmosis init` / `osmosis rollout new` tell a new user, and re-running init on a workspace."""

from __future__ import annotations

import importlib.util

from typer.testing import CliRunner

from generator.cli import app

RUNNER = CliRunner()


def without_pytest(monkeypatch) -> None:
    """As in the virtualenv of the README's first command: osmosis-workspace installed, pytest not."""
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a, **k: None if name == "pytest" else real(name, *a, **k))


def steps(output: str) -> list[str]:
    return [line.strip() for line in output.split("Next steps:", 1)[1].splitlines() if line.strip()]


def test_next_steps_say_to_install_pytest_before_running_the_tests_when_it_is_missing(tmp_path, monkeypatch):
    without_pytest(monkeypatch)
    ws = tmp_path / "ws"
    result = RUNNER.invoke(app, ["init", str(ws), "--defaults", "--no-git"])
    assert result.exit_code == 0, result.output
    listed = steps(result.output)
    install = listed.index("pip install pytest")
    assert listed[install + 1] == "(cd rollouts/multiply && python -m pytest)"

    result = RUNNER.invoke(app, ["rollout", "new", "adder", "--defaults", "--workspace", str(ws)])
    assert result.exit_code == 0, result.output
    listed = steps(result.output)
    assert listed[:2] == ["pip install pytest", "(cd rollouts/adder && python -m pytest)"]


def test_next_steps_do_not_ask_for_pytest_when_it_is_installed(tmp_path):
    result = RUNNER.invoke(app, ["init", str(tmp_path / "ws"), "--defaults", "--no-git"])
    assert result.exit_code == 0, result.output
    assert "pip install pytest" not in result.output
    assert "(cd rollouts/multiply && python -m pytest)" in steps(result.output)


def test_init_force_on_an_existing_workspace_is_refused_and_points_to_rollout_new(tmp_path):
    ws = tmp_path / "ws"
    assert RUNNER.invoke(app, ["init", str(ws), "--defaults", "--no-git"]).exit_code == 0
    before = {p.relative_to(ws).as_posix(): p.read_bytes() for p in sorted(ws.rglob("*")) if p.is_file()}

    result = RUNNER.invoke(app, ["init", str(ws), "--force", "--template", "llm-judge", "--defaults", "--no-git"])
    assert result.exit_code == 2, result.output
    assert "already an Osmosis workspace" in result.output
    assert "osmosis rollout new" in result.output and "Traceback" not in result.output
    after = {p.relative_to(ws).as_posix(): p.read_bytes() for p in sorted(ws.rglob("*")) if p.is_file()}
    assert after == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ws"]  # no staging folder left beside it
