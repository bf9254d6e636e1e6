"""Shortcuts in doctor's cache that must not change an answer (issue 37, point 8, row (b)):

- the key's walk finds the tool folders (core/tool_folders.py) where it lists their places, instead of
  asking for every tool's name in every rollout folder, and the run's Workspace reuses them: the set is
  tool_folders(root)'s in every layout, and none is handed on when a place could not be listed;
- a memo file is not rewritten for a unit whose value differs from the file's only as a tuple from the
  list JSON gave back (every config's facts did, so each config edit rewrote the 10 MB units file),
  while a real change still counts.
"""

from __future__ import annotations

import json
import os

import pytest

from osmosis_workspace.check.cache_tree import Tree
from osmosis_workspace.core.tool_folders import tool_folders


def uv_venv(folder, name=".venv", marker="pyvenv.cfg"):
    venv = folder / name
    venv.mkdir(parents=True)
    (venv / marker).write_text("home = /usr/bin\n", encoding="utf-8")
    (venv / ".gitignore").write_text("*\n", encoding="utf-8")
    return venv


def walked_tools(root) -> Tree:
    tree = Tree(0)
    tree.add(str(root), left=frozenset({f"{root}/.git"}), tools=True)
    return tree


@pytest.fixture
def layout(tmp_path):
    """A workspace with tool folders in every place they may be, and look-alikes where they are not."""
    root = tmp_path / "ws"
    rollouts = root / "rollouts"
    for name in ("a", "b", "c"):
        (rollouts / name).mkdir(parents=True)
    uv_venv(root)
    uv_venv(root, ".pytest_cache", "CACHEDIR.TAG")
    uv_venv(rollouts / "a")
    uv_venv(rollouts / "b", ".ruff_cache", "CACHEDIR.TAG")
    uv_venv(rollouts / "b" / "deeper")  # not a place: stays in the key
    (rollouts / "c" / ".venv").mkdir()  # no marker: not a tool's
    uv_venv(tmp_path / "elsewhere")
    (rollouts / "linked").symlink_to(tmp_path / "elsewhere", target_is_directory=True)  # not a real folder
    return root


def test_the_walk_finds_the_tool_folders_tool_folders_finds(layout):
    tree = walked_tools(layout)
    assert tree.tools_complete
    assert frozenset(tree.tools) == tool_folders(layout)
    assert len(tree.tools) == 4
    for tool in tree.tools:
        assert tool in tree.skipped and not any(path.startswith(f"{tool}/") for path in tree.order)  # its name alone
    assert f"{layout}/rollouts/c/.venv" not in tree.skipped and f"{layout}/rollouts/c/.venv" in tree.spans


def test_a_rollouts_folder_that_is_a_link_has_no_places(layout, tmp_path):
    real = tmp_path / "real-rollouts"
    (layout / "rollouts").rename(real)
    (layout / "rollouts").symlink_to(real, target_is_directory=True)
    tree = walked_tools(layout)
    assert tree.tools_complete and frozenset(tree.tools) == tool_folders(layout)


def test_an_unlisted_place_hands_on_no_tool_folders(layout, monkeypatch):
    """A rollout folder the walk cannot list may still hold a .venv tool_folders() finds by its name:
    the walk's set is then not complete and the run's Workspace looks for itself."""
    unlisted = f"{layout}/rollouts/a"
    real_listdir = os.listdir

    def listdir(path):
        if os.fspath(path) == unlisted:
            raise PermissionError(13, "denied", path)
        return real_listdir(path)

    monkeypatch.setattr(os, "listdir", listdir)
    tree = walked_tools(layout)
    assert not tree.tools_complete


def test_an_unlisted_root_hands_on_no_tool_folders(layout, monkeypatch):
    real_listdir = os.listdir
    monkeypatch.setattr(os, "listdir", lambda p: (_ for _ in ()).throw(PermissionError(13, "denied")) if os.fspath(p) == str(layout) else real_listdir(p))
    assert not walked_tools(layout).tools_complete


def test_a_tree_walked_without_tools_hands_on_none(layout):
    tree = Tree(0)
    tree.add(str(layout))
    assert not tree.tools_complete


def test_a_venv_made_after_the_cached_run_is_seen(make_workspace, run):
    """The run's Workspace takes the walk's tool folders: one made since the last run is in them (a
    config whose entrypoint lies in it is told so), and the answer is the uncached one."""
    ws = make_workspace()
    config = ws / "configs" / "eval" / "multiply.toml"
    config.write_text(config.read_text(encoding="utf-8").replace('entrypoint = "main.py"', 'entrypoint = ".venv/main.py"'),
                      encoding="utf-8")

    def answer(*extra):
        result = run("doctor", ws, "-f", "json", "--select", "CFG", *extra)
        assert result.exit_code in (0, 1), result.output
        return sorted((d["code"], d["path"], d["message"]) for d in json.loads(result.stdout)["diagnostics"])

    before = answer()
    venv = uv_venv(ws / "rollouts" / "multiply")
    (venv / "main.py").write_text("x = 1\n", encoding="utf-8")
    after = answer()
    assert after != before and any("tool's folder" in message for *_, message in after), after
    assert after == answer("--no-cache")


def test_the_index_and_units_are_written_again_only_after_enough_changes():
    """A config edited before each run leaves walk.json and units.json as they are (each run computes that
    config's units again); many changed entries or many computed units write both anew."""
    from osmosis_workspace.check import cache_index

    tree = Tree(0)
    tree.stats = {f"/ws/f{i}": [0] * 7 for i in range(10_000)}
    units = type("Units", (), {"reused": 40_000, "computed": 6})()
    index = cache_index.Index("g", tree.stats, {})
    tree.delta = {"/ws/f1": [1] * 7}
    assert not cache_index.worth_writing(index, tree, units)
    assert cache_index.worth_writing(None, tree, units)  # no usable index: this walk's is written
    tree.delta = {f"/ws/f{i}": None for i in range(101)}
    assert cache_index.worth_writing(index, tree, units)
    tree.delta, units.computed = {}, 500
    assert cache_index.worth_writing(index, tree, units)
