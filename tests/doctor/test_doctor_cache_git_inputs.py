"""What git reads besides the workspace's `.git` (attack round on issue 28, point 1): the key covered
`~/.gitconfig` and the XDG files by name, but `git status` also reads the file `core.excludesFile`
names (`~/.gitignore_global`, as GitHub's own guide sets up) and every config an `include` names, and a
`.git` that is a link to the repository's folder was one line (its target). An edit to any of them
changed the uncommitted-files finding (GIT001) and a cached doctor still gave the old answer."""

from __future__ import annotations

import json
import os
import shutil

import pytest


def answer(run, ws, *extra: str):
    result = run("doctor", ws, "-f", "json", "--select", "GIT", *extra)
    assert result.exit_code in (0, 1), result.output
    return sorted((d["code"], d["path"], d["message"]) for d in json.loads(result.stdout)["diagnostics"])


@pytest.fixture
def home(tmp_path, monkeypatch):
    folder = tmp_path / "home"
    folder.mkdir()
    monkeypatch.setenv("HOME", str(folder))
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    return folder


def _scratch(ws):
    (ws / "rollouts" / "multiply" / "notes.scratch").write_text("mine\n", encoding="utf-8")


@pytest.mark.parametrize("how", ["excludesFile", "include"])
def test_an_ignore_file_the_user_config_names_is_in_the_key(make_workspace, run, home, how):
    ignore = home / "gitignore_global"
    ignore.write_text("*.scratch\n", encoding="utf-8")
    if how == "excludesFile":
        (home / ".gitconfig").write_text(f"[core]\n\texcludesFile = {ignore}\n", encoding="utf-8")
    else:
        (home / "more.gitconfig").write_text(f"[core]\n\texcludesFile = {ignore}\n", encoding="utf-8")
        (home / ".gitconfig").write_text(f"[include]\n\tpath = {home / 'more.gitconfig'}\n", encoding="utf-8")
    ws = make_workspace()
    _scratch(ws)
    before = answer(run, ws)
    assert not any(code == "GIT001" for code, _, _ in before), before
    if how == "excludesFile":
        ignore.write_text("", encoding="utf-8")  # the user stops ignoring *.scratch
    else:
        (home / "more.gitconfig").write_text("", encoding="utf-8")
    after = answer(run, ws)
    assert after == answer(run, ws, "--no-cache")
    assert any(code == "GIT001" for code, _, _ in after), after


def test_a_git_folder_reached_through_a_link_is_in_the_key(make_workspace, run, home, tmp_path):
    ws = make_workspace()
    shutil.move(str(ws / ".git"), str(tmp_path / "elsewhere.git"))
    os.symlink(tmp_path / "elsewhere.git", ws / ".git")
    _scratch(ws)
    (ws / ".git" / "info").mkdir(exist_ok=True)
    (ws / ".git" / "info" / "exclude").write_text("*.scratch\n", encoding="utf-8")
    before = answer(run, ws)
    assert not any(code == "GIT001" for code, _, _ in before), before
    (ws / ".git" / "info" / "exclude").write_text("", encoding="utf-8")
    after = answer(run, ws)
    assert after == answer(run, ws, "--no-cache")
    assert any(code == "GIT001" for code, _, _ in after), after


def test_an_ignore_file_named_as_a_folder_is_not_walked(make_workspace, run, home):
    """A repository's own config may name `/` as its excludesFile: the key does not walk the disk."""
    import subprocess
    import time

    ws = make_workspace()
    subprocess.run(["git", "config", "core.excludesFile", "/"], cwd=ws, check=True)
    answer(run, ws)
    started = time.monotonic()
    assert answer(run, ws) == answer(run, ws, "--no-cache")
    assert time.monotonic() - started < 10
