"""Attack round on the warm doctor's index of the walk (branch warm46, attack46b).

1. The walk of the git folder skips `objects`, `logs`, `hooks`, `lfs` (SKIP_IN_GIT) at any depth, so a
   ref whose name has one of them as a part (a branch `logs/x` pushed to origin: the file
   `.git/refs/remotes/origin/logs/x`) was outside the key: after `git push origin HEAD:logs/x` a cached doctor
   still said the commit was not pushed (GIT005, GIT008), `--no-cache` did not.
Points 2 to 6 are told above their tests: a crafted deep path in walk.json, the .gitattributes above a nested
workspace, a name made and removed between two walks, a linked site-packages, files git reads through a link.
"""

from __future__ import annotations

import json
import os
import subprocess

from osmosis_workspace.check.cache_tree import FINE, SKIP_IN_GIT, TOUCHED, Tree


def _git(ws, *args: str) -> str:
    return subprocess.run(["git", "-C", str(ws), "-c", "user.email=t@example.com", "-c", "user.name=t", *args],
                          check=True, capture_output=True, text=True).stdout


def _codes(run, ws, *extra: str) -> list[tuple]:
    result = run("doctor", ws, "-f", "json", "--select", "GIT", *extra)
    assert result.exit_code in (0, 1), result.output
    return sorted((d["code"], d["path"], d["message"]) for d in json.loads(result.stdout)["diagnostics"])


def test_a_ref_named_like_a_skipped_git_folder_is_walked(tmp_path):
    git = tmp_path / ".git"
    for name in ("refs/remotes/origin/logs/x", "refs/heads/hooks/y", "refs/tags/objects/z", "logs/HEAD", "objects/ab/cd"):
        (git / name).parent.mkdir(parents=True, exist_ok=True)
        (git / name).write_text("0" * 40 + "\n", encoding="utf-8")
    tree = Tree(0)
    tree.add(str(git), skip=SKIP_IN_GIT)
    walked = set(tree.stats)
    for name in ("refs/remotes/origin/logs/x", "refs/heads/hooks/y", "refs/tags/objects/z"):
        assert f"{git}/{name}" in walked, name
    # git's own folders of those names stay out of the walk
    assert f"{git}/logs/HEAD" not in walked and f"{git}/objects/ab/cd" not in walked


def test_a_push_to_a_branch_named_logs_slash_something_is_seen(make_workspace, run, doctor_cache, tmp_path):
    ws = make_workspace()
    bare = tmp_path / "origin.git"
    subprocess.run(["git", "init", "-q", "--bare", str(bare)], check=True)
    _git(ws, "config", "remote.origin.url", "https://github.com/example/demo.git")
    _git(ws, "config", "remote.origin.fetch", "+refs/heads/*:refs/remotes/origin/*")
    _git(ws, "config", "remote.origin.pushurl", str(bare))
    _git(ws, "push", "-q", "origin", "HEAD:refs/heads/logs/x")  # the branch is on origin: its folder is there
    _git(ws, "update-ref", "refs/remotes/origin/logs/x", "HEAD")
    _git(ws, "checkout", "-q", "-b", "logs/x")
    with open(ws / "rollouts" / "multiply" / "main.py", "a", encoding="utf-8") as f:
        f.write("# one more line\n")
    _git(ws, "commit", "-qam", "not pushed yet")
    before = _codes(run, ws)
    assert {code for code, _, _ in before} & {"GIT005", "GIT008"}, before  # the commit is not on origin
    assert _codes(run, ws) == before  # (stored, and taken)
    _git(ws, "push", "-q", "origin", "HEAD:refs/heads/logs/x")
    _git(ws, "update-ref", "refs/remotes/origin/logs/x", "HEAD")  # (a push to a pushurl updates no tracking ref)
    after = _codes(run, ws)
    assert after == _codes(run, ws, "--no-cache")
    assert not {code for code, _, _ in after} & {"GIT005", "GIT008"}, after


# 2. A crafted walk.json entry whose path is very deep (`/x` 100,000 times, 200 kB) made the next walk climb
#    from it to the root one folder at a time (`Tree.finish`), each step copying the path: 27 s for one key, hours
#    for a few MB. Such a path is no walk's: the index is none (a cold run).

def test_an_index_holding_a_path_no_walk_makes_is_none():
    from osmosis_workspace.check import cache_index

    def index(path: str):
        data = cache_index.to_json("g" * 24, "base", 1, {"/ws": None, path: None}, {})
        return cache_index.from_json(data, "base", 2)

    assert index("/ws/" + "/".join(["rollouts", "multiply", "pkg"] * 20)) is not None  # deep, but a walk's
    assert index("/ws/" + "n" * 255) is not None
    assert index("/x" * 100_000) is None
    assert index("/x" * 200) is None  # more parts than a walk's
    assert index("/" + "n" * 5000) is None  # longer than a listable folder's path and a name


def test_a_crafted_deep_path_in_walk_json_is_a_cold_run(make_workspace, run, doctor_cache):
    ws = make_workspace()
    assert run("doctor", ws).exit_code in (0, 1)
    from osmosis_workspace.check.cache import Cache
    from osmosis_workspace.core.workspace import Workspace

    walk_json = Cache.for_workspace(Workspace(ws)).folder / "walk.json"
    data = json.loads(walk_json.read_text(encoding="utf-8"))
    data["entries"]["/x" * 20_000] = None  # (a second or so of climbing before; the time grows as its square)
    walk_json.write_text(json.dumps(data), encoding="utf-8")
    result = run("doctor", ws, "-v")
    assert result.exit_code in (0, 1), result.output
    assert "nothing reused from the cache" in result.output, result.output[-300:]


# 3. A workspace inside a larger repository: the key walked the `.gitignore` of each folder up to the repository's
#    root, not the `.gitattributes` beside it, which git reads too (and GIT004 looks at: one that is a FIFO would
#    block `git status`). A FIFO made there after a run: a cached doctor said nothing, `--no-cache` said GIT004.

def test_the_gitattributes_above_a_nested_workspace_is_in_the_key(make_workspace, run, doctor_cache, tmp_path):
    ws = make_workspace(git=False)
    _git(tmp_path, "init", "-q")
    _git(tmp_path, "add", "-A")
    _git(tmp_path, "commit", "-qm", "outer")
    before = _codes(run, ws)
    assert not any(code == "GIT004" for code, _, _ in before), before
    os.mkfifo(tmp_path / ".gitattributes")
    after = _codes(run, ws)
    assert after == _codes(run, ws, "--no-cache")
    assert any(code == "GIT004" for code, _, _ in after), after


# 4. A unit may depend on a name its folder lacks (a rollout without uv.lock): `Tree.state` called it FINE when the
#    name was absent in both walks. But a file made after one walk, read by that run's unit, and removed before the
#    next walk is in neither: the unit, stored with the first walk's index, was taken with what the file said. Only
#    the folder's status shows it (a name made or removed moves its times): an absent name whose folder changed
#    since the index is TOUCHED now.

def test_a_name_made_and_removed_between_two_walks_is_not_fine(tmp_path):
    import time

    root = tmp_path / "ws"
    (root / "a").mkdir(parents=True)
    (root / "a" / "one.txt").write_text("one\n", encoding="utf-8")
    (root / "b").mkdir()

    def walk(index=None):
        tree = Tree(time.time_ns() + 10 * 10**9, index)
        tree.add(str(root))
        tree.finish()
        return tree

    first = walk()
    lock = root / "a" / "uv.lock"
    lock.write_text("made while a run read it\n", encoding="utf-8")
    lock.unlink()
    again = walk(first.stats)
    assert again.state(str(lock)) == TOUCHED
    assert again.state(str(root / "b" / "uv.lock")) == FINE  # an absent name in a folder that did not change


def test_a_file_made_and_removed_while_a_run_reads_it_leaves_no_unit_behind(make_workspace, run, doctor_cache, monkeypatch):
    import importlib

    run_stage = importlib.import_module("osmosis_workspace.check.pipeline.run")
    ws = make_workspace()
    lock = ws / "rollouts" / "multiply" / "uv.lock"
    lock.unlink()
    real = run_stage.run_checks

    def racing(*args, **kwargs):
        lock.write_text("this is [not a lock\n", encoding="utf-8")
        try:
            return real(*args, **kwargs)
        finally:
            lock.unlink()

    monkeypatch.setattr(run_stage, "run_checks", racing)
    raced = run("doctor", ws, "-f", "json")
    monkeypatch.undo()
    assert any(d["path"] == "rollouts/multiply/uv.lock" for d in json.loads(raced.stdout)["diagnostics"])  # it was read
    warm = run("doctor", ws, "-f", "json")
    cold = run("doctor", ws, "-f", "json", "--no-cache")
    assert json.loads(warm.stdout)["diagnostics"] == json.loads(cold.stdout)["diagnostics"]


# 5. A rollout's synced .venv is one name in the walk but for the names in its site-packages (ENT038 counts a package
#    installed there as provided), taken from the folder's status unless too recent. A site-packages that is a link
#    (to a shared package folder) has the link's status: a package installed or removed where it leads changed
#    nothing the walk compared. The names are compared always now (they are listed on every walk anyway).

def test_the_names_of_a_linked_site_packages_are_compared(tmp_path):
    import time

    root = tmp_path / "ws"
    venv = root / "rollouts" / "r" / ".venv"
    (venv / "lib" / "python3.12").mkdir(parents=True)
    (venv / "pyvenv.cfg").write_text("home = /usr/bin\n", encoding="utf-8")
    (venv / ".gitignore").write_text("*\n", encoding="utf-8")
    shared = tmp_path / "shared-packages"
    (shared / "requests").mkdir(parents=True)
    os.symlink(shared, venv / "lib" / "python3.12" / "site-packages")

    def walk(index=None):
        tree = Tree(time.time_ns() + 10 * 10**9, index)
        tree.add(str(root), tools=True)
        tree.finish()
        return tree

    first = walk()
    site = str(venv / "lib" / "python3.12" / "site-packages")
    assert site in first.stats and str(venv) in first.tools
    assert walk(first.stats).delta == {}
    (shared / "zzz_helper").mkdir()  # installed where the link leads
    assert site in walk(first.stats).delta


# 6. The files git reads from outside the tree were walked by their own status: `~/.gitignore_global` that is a
#    link into a dotfiles folder (as GNU stow or chezmoi lay it out) kept the link's status while the file it leads
#    to was edited, so a cached doctor kept the old untracked-files answer (GIT001). What the link leads to is
#    walked too now.

def test_an_ignore_file_that_is_a_link_is_followed(make_workspace, run, doctor_cache, tmp_path, monkeypatch):
    home = tmp_path / "home"
    (home / "dotfiles").mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    real = home / "dotfiles" / "gitignore_global"
    real.write_text("*.scratch\n", encoding="utf-8")
    os.symlink(real, home / ".gitignore_global")
    (home / ".gitconfig").write_text("[core]\n\texcludesFile = ~/.gitignore_global\n", encoding="utf-8")
    ws = make_workspace()
    (ws / "rollouts" / "multiply" / "notes.scratch").write_text("mine\n", encoding="utf-8")
    before = _codes(run, ws)
    assert not any(code == "GIT001" for code, _, _ in before), before
    real.write_text("", encoding="utf-8")  # edited where the link leads
    after = _codes(run, ws)
    assert after == _codes(run, ws, "--no-cache")
    assert any(code == "GIT001" for code, _, _ in after), after


def test_an_info_exclude_that_is_a_link_is_followed(make_workspace, run, doctor_cache, tmp_path):
    ws = make_workspace()
    real = tmp_path / "exclude"
    real.write_text("*.scratch\n", encoding="utf-8")
    exclude = ws / ".git" / "info" / "exclude"
    exclude.parent.mkdir(exist_ok=True)
    exclude.unlink(missing_ok=True)
    os.symlink(real, exclude)
    (ws / "rollouts" / "multiply" / "notes.scratch").write_text("mine\n", encoding="utf-8")
    before = _codes(run, ws)
    assert not any(code == "GIT001" for code, _, _ in before), before
    real.write_text("", encoding="utf-8")
    after = _codes(run, ws)
    assert after == _codes(run, ws, "--no-cache")
    assert any(code == "GIT001" for code, _, _ in after), after
