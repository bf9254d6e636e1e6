"""An update undone with `git checkout .` (as docs/update.md offers) must not lose the template's
changes: the pristine ref has moved on, but the workspace still carries the old render, so the next
update merges from the render the workspace really has."""

from __future__ import annotations

import shutil
from pathlib import Path

from lifecycle_helpers import cli, commit_all, git, merge_rollouts

REPO = Path(__file__).resolve().parents[2]
SOURCE = REPO / "templates" / "multiply"
README = Path("template") / "rollouts" / "{{ rollout_name }}" / "README.md.jinja"
NEW_LINE = "A line the new template release adds."


def test_update_after_an_undone_update_applies_the_template_change_again(tmp_path):
    template = tmp_path / "tmpl"
    shutil.copytree(SOURCE, template, ignore=shutil.ignore_patterns("__pycache__"))
    ws = tmp_path / "ws"
    result = cli("init", ws, "--template", template, "--defaults", "--data", "rollout_name=mult")
    assert result.exit_code == 0, result.output
    merge_rollouts(ws)

    with (template / README).open("a") as f:  # the template's next release
        f.write(f"\n{NEW_LINE}\n")
    assert cli("update", ws, "--check").exit_code == 1
    result = cli("update", ws)
    assert result.exit_code == 0, result.output
    assert NEW_LINE in (ws / "rollouts/mult/README.md").read_text()

    git(ws, "checkout", "--", ".")  # the user looks at the diff and backs out
    assert git(ws, "status", "--porcelain") == ""
    assert cli("update", ws, "--check").exit_code == 1  # still behind, as before the update

    result = cli("update", ws)
    assert result.exit_code == 0, result.output
    assert NEW_LINE in (ws / "rollouts/mult/README.md").read_text()
    commit_all(ws, "take the update")
    assert cli("update", ws, "--check").exit_code == 0
    result = cli("update", ws)
    assert result.exit_code == 0 and "nothing to merge" in result.output, result.output


def test_rollout_new_after_an_undone_update_keeps_the_update_pending(tmp_path):
    template = tmp_path / "tmpl"
    shutil.copytree(SOURCE, template, ignore=shutil.ignore_patterns("__pycache__"))
    ws = tmp_path / "ws"
    assert cli("init", ws, "--template", template, "--defaults", "--data", "rollout_name=mult").exit_code == 0
    merge_rollouts(ws)
    with (template / README).open("a") as f:
        f.write(f"\n{NEW_LINE}\n")
    assert cli("update", ws).exit_code == 0
    git(ws, "checkout", "--", ".")

    result = cli("rollout", "new", "other", "--template", "blank", "--defaults", "--workspace", ws)
    assert result.exit_code == 0, result.output
    commit_all(ws, "add other")
    result = cli("update", ws)
    assert result.exit_code == 0, result.output
    assert NEW_LINE in (ws / "rollouts/mult/README.md").read_text()
    assert (ws / "rollouts/other/main.py").is_file()
