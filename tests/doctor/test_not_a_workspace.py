"""What counts as a workspace (issue 12, point 5): a `configs/` folder is not enough, and
`doctor --fix` never scaffolds a workspace into an unrelated project."""

from __future__ import annotations

import subprocess

import pytest
from typer.testing import CliRunner

from osmosis_workspace.cli import app
from osmosis_workspace.core.workspace import NotAWorkspace, find_root


def run(*args):
    return CliRunner().invoke(app, [str(a) for a in args])


def project(tmp_path, *folders: str, files: dict[str, str] | None = None):
    root = tmp_path / "proj"
    root.mkdir()
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    for folder in folders:
        (root / folder).mkdir(parents=True)
    for rel, text in (files or {}).items():
        (root / rel).write_text(text, encoding="utf-8")
    return root


def tree(root):
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if ".git" not in p.parts)


@pytest.mark.parametrize("layout", [
    (("configs", "src"), {"pyproject.toml": '[project]\nname = "webapp"\n'}),
    (("configs/eval",), {}),  # one marker only
    (("rollouts",), {"README.md": "my RL experiments\n"}),
    ((), {"AGENTS.md": "Osmosis notes\n", "pyproject.toml": 'dependencies = ["osmosis-ai"]\n'}),  # no structure
])
def test_a_project_with_a_configs_folder_is_not_a_workspace(tmp_path, layout):
    folders, files = layout
    root = project(tmp_path, *folders, files=files)
    before = tree(root)
    for args in (("doctor", root), ("doctor", root, "--fix"), ("doctor", root, "--fix", "-f", "json")):
        result = run(*args)
        assert result.exit_code == 2, (args, result.output)
        assert "not inside an Osmosis workspace" in result.stderr
        assert "Traceback" not in result.output
    assert tree(root) == before  # --fix wrote nothing


def test_the_message_says_what_was_found_and_what_is_missing(tmp_path):
    root = project(tmp_path, "configs", "src")
    result = run("doctor", root)
    assert f"{root} has configs/, but not the rest of a workspace (rollouts/ or configs/eval/)" in result.stderr
    assert "osmosis init" in result.stderr


def test_the_message_does_not_ask_for_what_the_folder_already_has(tmp_path):
    # a lone rollouts/ was told it lacked "rollouts/, .osmosis/, ..."
    root = project(tmp_path, "rollouts")
    result = run("doctor", root)
    assert result.exit_code == 2
    wanted = result.stderr.split("but not the rest of a workspace (", 1)[1].split(")", 1)[0]
    assert wanted.startswith("one more of ") and "configs/eval/" in wanted and ".osmosis/" in wanted, wanted
    assert "rollouts/" not in wanted, wanted


@pytest.mark.parametrize("layout", [
    (("rollouts", "configs/eval", "configs/training", "data"), {}),  # the required folders
    (("configs/eval",), {".copier-answers.yml": "_src_path: x\n"}),  # rollouts/ missing: LAY reports it
    (("rollouts",), {"pyproject.toml": '[tool.uv.workspace]\nmembers = []\n[tool.osmosis]\nstrict = true\n'}),
    (("rollouts", ".osmosis"), {}),
])
def test_workspaces_with_enough_evidence_are_found(tmp_path, layout):
    folders, files = layout
    root = project(tmp_path, *folders, files=files)
    (root / "deep" / "er").mkdir(parents=True)
    assert find_root(root / "deep" / "er") == root


def test_a_rollout_folder_is_not_taken_for_the_workspace(tmp_path):
    root = project(tmp_path, "rollouts/r/configs", "rollouts/r/tests/rollouts", "configs/eval", "configs/training")
    (root / "rollouts/r/pyproject.toml").write_text('dependencies = ["osmosis-ai"]\n', encoding="utf-8")
    (root / "rollouts/r/.copier-answers.yml").write_text("_src_path: multiply\n", encoding="utf-8")
    assert find_root(root / "rollouts" / "r") == root


def test_no_evidence_at_all(tmp_path):
    with pytest.raises(NotAWorkspace, match="no rollouts/ or configs/eval/ folder found"):
        find_root(project(tmp_path))
