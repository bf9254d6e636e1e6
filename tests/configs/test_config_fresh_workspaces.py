"""Workspaces fresh from `osmosis init` give no config or secret findings, for every bundled template."""

from __future__ import annotations

import pytest

from osmosis_workspace.check.families import run_workspace_checks
from osmosis_workspace.core.resources import templates_dir
from osmosis_workspace.core.workspace import Workspace

TEMPLATES = sorted(p.name for p in templates_dir().iterdir() if (p / "copier.yml").is_file() and p.name != "workspace")


def test_the_multiply_template_is_bundled():
    assert "multiply" in TEMPLATES


@pytest.mark.parametrize("template", TEMPLATES)
def test_fresh_workspace_has_no_config_or_secret_findings(make_workspace, template, monkeypatch):
    for var in ("GIT_AUTHOR_NAME", "GIT_COMMITTER_NAME"):
        monkeypatch.setenv(var, "Test")
    for var in ("GIT_AUTHOR_EMAIL", "GIT_COMMITTER_EMAIL"):
        monkeypatch.setenv(var, "test@example.com")
    root = make_workspace(template=template, name="fresh")
    ws = Workspace(root)
    assert ws.config_files("eval") and ws.config_files("training")
    found = run_workspace_checks(ws, {"configs", "secrets"})
    assert found == [], "\n".join(f"{d.code} {d.path}:{d.line}:{d.column} {d.message}" for d in found)
