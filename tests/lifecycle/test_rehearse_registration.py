"""A rollout whose label is not an answer (the `code` template's tests) declares its rehearse columns in
its own pyproject.toml; `init` and `rollout new` copy them into the root's
`[tool.osmosis.rehearse.rollout.<name>]`, which `osmosis rehearse` reads, and `update` sees no change."""

from __future__ import annotations

import shutil
import tomllib
from pathlib import Path

import pytest

from lifecycle_helpers import cli, commit_all

from osmosis_workspace.core.rehearse_settings import load

CASES = Path(__file__).resolve().parents[1] / "cases" / "workspace_template"


@pytest.fixture
def ws(tmp_path):
    target = tmp_path / "ws"
    result = cli("init", target, "--defaults")
    assert result.exit_code == 0, result.output
    return target


def _columns(ws: Path, rollout: str) -> tuple[str | None, str | None]:
    settings, problems = load(ws)
    assert problems == []
    rules = settings.for_rollout(rollout)
    return rules.gold_column, rules.partial_column


def test_each_code_rollout_gets_its_own_table_and_update_sees_no_change(ws):
    before = (ws / "pyproject.toml").read_text()
    for name in ("tasks", "more-tasks"):
        result = cli("rollout", "new", name, "--template", "code", "--defaults", "--workspace", ws)
        assert result.exit_code == 0, result.output
        assert "updated pyproject.toml" in result.output
        assert _columns(ws, name) == ("reference", "partial")
    after = (ws / "pyproject.toml").read_text()
    assert after.startswith(before)  # appended; nothing of the user's text moves
    assert _columns(ws, "multiply") == (None, None)  # the workspace's own rollout declares nothing
    commit_all(ws)
    check = cli("update", ws, "--check")
    assert check.exit_code == 0, check.output


def test_other_templates_leave_the_root_pyproject_alone(ws):
    before = (ws / "pyproject.toml").read_text()
    assert cli("rollout", "new", "judge", "--template", "llm-judge", "--defaults", "--workspace", ws).exit_code == 0
    assert (ws / "pyproject.toml").read_text() == before


def test_a_declaration_already_there_is_kept(ws):
    path = ws / "pyproject.toml"
    path.write_text(path.read_text() + '\n[tool.osmosis.rehearse.rollout.tasks]\ngold-column = "solution"\n')
    commit_all(ws)
    before = path.read_text()
    assert cli("rollout", "new", "tasks", "--template", "code", "--defaults", "--workspace", ws).exit_code == 0
    assert path.read_text() == before
    assert _columns(ws, "tasks") == ("solution", None)


def test_a_root_whose_shape_a_new_table_would_break_is_left_alone(ws):
    path = ws / "pyproject.toml"
    path.write_text(path.read_text() + '\n[tool.osmosis]\nrehearse = { stochastic = false }\n')
    commit_all(ws)
    before = path.read_text()
    result = cli("rollout", "new", "tasks", "--template", "code", "--defaults", "--workspace", ws)
    assert result.exit_code == 0, result.output
    assert path.read_text() == before
    tomllib.loads(path.read_text())


def test_a_workspace_that_does_not_follow_our_conventions_is_not_opted_in(tmp_path):
    """The platform's own template has no .copier-answers.yml and no [tool.osmosis]: a table there would opt
    the workspace into our conventions (doctor's `#:schema` lines and more), so the README's lines are the way."""
    ws = tmp_path / "platform"
    shutil.copytree(CASES, ws)
    before = (ws / "pyproject.toml").read_text()
    result = cli("rollout", "new", "tasks", "--template", "code", "--defaults", "--workspace", ws)
    assert result.exit_code == 0, result.output
    assert (ws / "pyproject.toml").read_text() == before
    assert "[tool.osmosis.rehearse.rollout.tasks]" in (ws / "rollouts" / "tasks" / "README.md").read_text()
