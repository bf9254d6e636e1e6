"""`osmosis update` for a rollout made from a local template folder that has since moved or gone:
one line naming the rollout that needs it and where it was, exit 2, nothing changed."""

from __future__ import annotations

import shutil

from osmosis_workspace.core import resources
from lifecycle_helpers import cli, git


def test_update_names_the_rollout_whose_template_is_gone(tmp_path):
    template = tmp_path / "my-template"
    shutil.copytree(resources.templates_dir() / "multiply", template, ignore=shutil.ignore_patterns("__pycache__"))
    ws = tmp_path / "ws"
    result = cli("init", ws, "--template", template, "--defaults", "--data", "rollout_name=mine")
    assert result.exit_code == 0, result.output
    assert cli("update", ws, "--check").exit_code == 0
    head = git(ws, "rev-parse", "HEAD")

    template.rename(tmp_path / "moved")
    for args in (["--check"], []):
        result = cli("update", ws, *args)
        assert result.exit_code == 2, result.output
        line = result.output.splitlines()[0]
        assert line.startswith("error: rollouts/mine/.copier-answers.yml")
        assert str(template) in line and "Traceback" not in result.output
    assert git(ws, "status", "--porcelain") == "" and git(ws, "rev-parse", "HEAD") == head
