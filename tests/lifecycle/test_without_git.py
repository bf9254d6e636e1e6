"""`rollout new` and `update` in a git workspace on a machine where the git program is missing (or
not on PATH): a clear refusal, nothing written; never 'not inside a git repository'."""

from __future__ import annotations

from pathlib import Path

from lifecycle_helpers import cli


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_git_missing_in_a_git_workspace_is_said_plainly(tmp_path, monkeypatch):
    ws = tmp_path / "ws"
    assert cli("init", ws, "--defaults").exit_code == 0
    before = snapshot(ws)
    empty = tmp_path / "no-programs"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))

    for args in (["rollout", "new", "adder", "--defaults", "--workspace", ws], ["update", ws]):
        result = cli(*args)
        assert result.exit_code == 2, result.output
        assert result.output.startswith("error: git is not installed"), result.output
        assert "not inside a git repository" not in result.output
    assert snapshot(ws) == before


def test_rollout_new_in_a_workspace_without_a_repository_needs_no_git(tmp_path, monkeypatch):
    ws = tmp_path / "ws"
    assert cli("init", ws, "--defaults", "--no-git").exit_code == 0
    empty = tmp_path / "no-programs"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    result = cli("rollout", "new", "adder", "--defaults", "--workspace", ws)
    assert result.exit_code == 0, result.output
    assert (ws / "rollouts/adder/main.py").is_file()
