"""Every bundled rollout template, rendered by `osmosis init`, passes the layout, entrypoint and
git checks; then each is broken in one way and the right finding appears."""

from __future__ import annotations

import pytest

from osmosis_workspace.scaffold.catalog import rollout_templates
from osmosis_workspace.check.families import run_workspace_checks
from osmosis_workspace.core.workspace import Workspace
from tests.workspace_builder import GIT_ENV

MINE = ("LAY0", "ENT", "GIT")  # LAY1xx (template placeholders) belongs to another module


@pytest.fixture(autouse=True)
def git_identity(monkeypatch):
    for key, value in GIT_ENV.items():
        monkeypatch.setenv(key, value)


def mine(root) -> list[tuple]:
    found = run_workspace_checks(Workspace(root), {"layout", "entrypoints", "git"})
    return [(d.code, d.path, d.line) for d in found if d.code.startswith(MINE)]


TEMPLATES = [t.name for t in rollout_templates()]


def test_there_are_templates_to_check():
    assert {"multiply", "calculator-remote"} <= set(TEMPLATES)


@pytest.mark.parametrize("template", TEMPLATES)
def test_fresh_workspace_has_no_layout_entrypoint_or_git_findings(make_workspace, template):
    root = make_workspace(template=template, name="demo")
    assert mine(root) == []


def test_breaking_a_fresh_workspace_one_way_at_a_time(make_workspace):
    root = make_workspace(template="multiply", name="demo")
    [rollout] = [p for p in (root / "rollouts").iterdir() if p.is_dir()]
    assert (rollout / "main.py").is_file()
    # main.py imports its workflow from the rollout's package, where `run` is defined
    workflow = rollout / f"{rollout.name}_rollout" / "workflow.py"

    (root / "CLAUDE.md").unlink()
    assert mine(root) == [("LAY002", "CLAUDE.md", None)]
    (root / "CLAUDE.md").write_text("@AGENTS.md\n")

    text = workflow.read_text()
    lines = text.splitlines()
    run_line = next(i for i, line in enumerate(lines, 1) if "async def run(" in line)
    workflow.write_text(text.replace("async def run(", "def run(", 1))
    codes = mine(root)
    assert ("ENT006", f"rollouts/{rollout.name}/{rollout.name}_rollout/workflow.py", run_line) in codes
    assert sorted(c for c, *_ in codes) == ["ENT006", "GIT001"]  # the edit is also uncommitted
