"""`osmosis rollout new` writes all of the rollout or nothing: a refusal or Ctrl-C after rendering
leaves the workspace exactly as it was (so the same command can simply be run again)."""

from __future__ import annotations

from pathlib import Path

import pytest

import osmosis_workspace.scaffold.rollout_new
from lifecycle_helpers import cli, commit_all, git


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and ".git" not in p.relative_to(folder).parts}


@pytest.fixture
def workspace(tmp_path):
    ws = tmp_path / "ws"
    result = cli("init", ws, "--defaults")
    assert result.exit_code == 0, result.output
    return ws


def test_invalid_root_pyproject_is_refused_before_anything_is_written(workspace):
    with (workspace / "pyproject.toml").open("a") as f:
        f.write("[broken\n")
    commit_all(workspace, "break pyproject")
    before = snapshot(workspace)

    result = cli("rollout", "new", "zed", "--defaults", "--workspace", workspace)
    assert result.exit_code == 2, result.output
    assert "pyproject.toml is not valid TOML" in result.output and "nothing was written" in result.output
    assert snapshot(workspace) == before
    assert git(workspace, "status", "--porcelain") == ""


def test_ctrl_c_while_registering_the_rollout_takes_it_all_back(workspace, monkeypatch):
    before = snapshot(workspace)
    pristine_before = git(workspace, "for-each-ref")
    real_register = osmosis_workspace.scaffold.registration.register_rollout

    def interrupted(root, rollout):
        real_register(root, rollout)  # pyproject and .env.example already edited
        raise KeyboardInterrupt

    monkeypatch.setattr(osmosis_workspace.scaffold.rollout_new, "register_rollout", interrupted)
    with pytest.raises(KeyboardInterrupt):
        osmosis_workspace.scaffold.rollout_new.rollout_new_command(name="zed", template="llm-judge", workspace=workspace, data=[],
                                                  defaults=True, trust=False)
    assert snapshot(workspace) == before
    assert git(workspace, "status", "--porcelain", "--untracked-files=all") == ""
    assert git(workspace, "for-each-ref") == pristine_before

    monkeypatch.setattr(osmosis_workspace.scaffold.rollout_new, "register_rollout", real_register)
    result = cli("rollout", "new", "zed", "--template", "llm-judge", "--defaults", "--workspace", workspace)
    assert result.exit_code == 0, result.output
