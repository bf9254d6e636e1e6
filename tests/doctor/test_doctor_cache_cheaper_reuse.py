"""Issue 37, point 8, row (b) (branch warm43): shortcuts a warm run takes that must not change an answer.

- ``Workspace.where`` tells inside from outside by the resolved paths' strings, and asks for the tool
  folders only when the path has a tool folder's name in it: the same answer as the rule by
  ``Path.parents`` in every layout below (links out, into and around tool folders, a root reached
  through a link, a root inside a folder named like a tool's);
- a reused unit with items is kept as read until the units file is written, and is then written as the
  run would write it, decoded again (a check may change what it was handed, and nothing the file held
  beside the fields read goes back to disk);
- a warm run's answers after edits the key's stat comparison must not miss (same size and mtime, a
  rename, a file replaced by a link to the same text, a hostile units file) are `--no-cache`'s.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from osmosis_workspace.check import cache_index
from osmosis_workspace.check.cache import UnitMemo
from osmosis_workspace.check.cache_tree import Tree
from osmosis_workspace.core.tool_folders import tool_folders
from osmosis_workspace.core.workspace import Workspace

from tests.doctor.test_doctor_cache_changed_under_run import findings, folder_of, same_as_no_cache


def by_parents(ws: Workspace, path: Path) -> str | None:
    """The rule as it read before the shortcut."""
    try:
        real = path.resolve()
    except (OSError, RuntimeError):
        return None
    root = ws.root.resolve()
    if not (real == root or root in real.parents):
        return "out"
    tools = frozenset(Path(p).resolve() for p in tool_folders(ws.root))
    return "tool" if tools and (real in tools or not tools.isdisjoint(real.parents)) else None


def tool_venv(folder: Path) -> Path:
    venv = folder / ".venv"
    venv.mkdir(parents=True)
    (venv / "pyvenv.cfg").write_text("home = /usr/bin\n", encoding="utf-8")
    (venv / ".gitignore").write_text("*\n", encoding="utf-8")
    (venv / "lib").mkdir()
    (venv / "lib" / "x.py").write_text("", encoding="utf-8")
    return venv


def build(root: Path, outside: Path) -> list[Path]:
    """A workspace with every kind of path ``where`` is asked about; the paths to ask."""
    rollouts = root / "rollouts"
    for name in ("a", "b", "c"):
        (rollouts / name).mkdir(parents=True)
        (rollouts / name / "main.py").write_text("", encoding="utf-8")
    tool_venv(root)
    tool_venv(rollouts / "a")
    (rollouts / "b" / ".venv").mkdir()  # no marker: not a tool's
    (rollouts / "b" / ".venv" / "y.py").write_text("", encoding="utf-8")
    tool_venv(rollouts / "c" / "deeper")  # not a place tool folders are looked for
    (rollouts / "c" / ".ruff_cache").write_text("a file, not a folder\n", encoding="utf-8")
    outside.mkdir()
    (outside / "secret.txt").write_text("x\n", encoding="utf-8")
    (rollouts / "out").symlink_to(outside, target_is_directory=True)
    (rollouts / "b" / "to_venv.py").symlink_to(rollouts / "a" / ".venv" / "lib" / "x.py")
    (rollouts / "b" / "to_main.py").symlink_to(rollouts / "a" / "main.py")
    (rollouts / "c" / "loop").symlink_to(rollouts / "c" / "loop")
    (rollouts / "c" / "up").symlink_to("..", target_is_directory=True)
    (rollouts / "c" / "dangling").symlink_to(root / "nowhere")
    asked = [root, root / "rollouts", root / ".venv", root / ".venv" / "lib" / "x.py", root / "nowhere"]
    for folder in sorted(p for p in rollouts.rglob("*")):
        asked.append(folder)
    asked += [rollouts / "out" / "secret.txt", rollouts / "c" / "up" / "a" / ".venv", rollouts / "c" / "up" / "a" / "main.py",
              rollouts / "a" / ".venv" / "..", root / "rollouts" / "." / "a"]
    return asked


@pytest.mark.parametrize("shape", ["plain", "root through a link", "root inside a folder named .venv"])
def test_where_by_string_answers_as_by_parents(tmp_path, shape):
    base = tmp_path / ".venv" if shape == "root inside a folder named .venv" else tmp_path
    root = base / "ws"
    asked = build(root, tmp_path / "elsewhere")
    if shape == "root through a link":
        (tmp_path / "link").symlink_to(root, target_is_directory=True)
        root = tmp_path / "link"
        asked = [root / p.relative_to(base / "ws") for p in asked]
    answers = {str(p): Workspace(root).where(p) for p in asked}
    one = Workspace(root)  # one snapshot answering them all (its folders resolved once) as fresh ones do
    assert {str(p): one.where(p) for p in asked} == answers
    assert answers == {str(p): by_parents(Workspace(root), p) for p in asked}
    assert {"out", "tool", None} <= set(answers.values())  # the layout has every answer: the test could fail


class Held:
    """What a check might be handed and then change: a dict."""

    encode = staticmethod(lambda d: {"name": d["name"]})
    decode = staticmethod(lambda d: {"name": str(d["name"])})


def test_a_reused_unit_is_written_from_what_it_decodes_to_however_a_check_changed_it(tmp_path):
    (tmp_path / "f.txt").write_text("x\n", encoding="utf-8")
    tree = Tree(0)
    tree.add(str(tmp_path))
    tree.finish()
    first = UnitMemo(tree, "base", {})
    ws = Workspace(tmp_path)
    first.recall(ws, "u", [str(tmp_path / "f.txt")], "", lambda: [{"name": "kept"}], (Held.encode, Held.decode))
    [(key, entry)] = first.written().items()
    entry["items"][0]["evil"] = ["[" * 5]  # what a hostile file might hold beside the fields read
    entry["junk"] = 1
    again = Tree(0, tree.stats)  # the next walk, against the first's index: nothing changed
    again.add(str(tmp_path))
    again.finish()
    assert again.delta == {}
    second = UnitMemo(again, "base", {key: entry})
    [got] = second.recall(ws, "u", [str(tmp_path / "f.txt")], "", lambda: pytest.fail("reused, not computed"),
                          (Held.encode, Held.decode))
    got["name"] = "changed by a check"
    assert second.reused == 1
    assert second.written() == {key: {"items": [{"name": "kept"}], "read": []}}


def test_a_warm_run_after_edits_the_stats_hide_answers_as_no_cache(three, run, doctor_cache):
    config = three / "configs" / "eval" / "multiply.toml"
    old = os.stat(config).st_mtime_ns - 100 * 10**9  # well before the walk: its hash is taken from the memo next time
    os.utime(config, ns=(old, old))
    first = findings(run, three)
    # the same size and mtime, other text: only the inode's change time and the content tell
    text = config.read_text(encoding="utf-8")
    assert 'rollout = "multiply"' in text
    config.write_text(text.replace('rollout = "multiply"', 'rollout = "multiplz"'), encoding="utf-8")
    os.utime(config, ns=(old, old))
    assert os.stat(config).st_size == len(text.encode()) and os.stat(config).st_mtime_ns == old
    edited = findings(run, three)
    assert edited != first and any("multiplz" in message for *_, message in edited)
    same_as_no_cache(run, three)
    # a rename: two rollouts' entrypoints swap names
    second, third = three / "rollouts" / "second" / "main.py", three / "rollouts" / "third" / "main.py"
    second.write_text(second.read_text(encoding="utf-8") + "\nimport no_such_module_anywhere\n", encoding="utf-8")
    same_as_no_cache(run, three)
    swap = second.with_name("swap.py")
    second.rename(swap)
    third.rename(second)
    swap.rename(third)
    same_as_no_cache(run, three)
    # a file replaced by a link to the same text
    pyproject = three / "rollouts" / "second" / "pyproject.toml"
    pyproject.unlink()
    pyproject.symlink_to(three / "rollouts" / "multiply" / "pyproject.toml")
    same_as_no_cache(run, three)


def test_a_hostile_units_file_is_not_written_back(three, run, doctor_cache, monkeypatch):
    run("doctor", three)
    units = folder_of(three) / "units.json"
    data = json.loads(units.read_text(encoding="utf-8"))
    with_items = 0
    for entry in data["units"].values():
        entry["junk"] = {"deep": "[[[[ hostile"}
        for item in entry["items"]:
            if isinstance(item, dict):
                item["evil"] = "[[[[ hostile"
                with_items += 1
    assert with_items  # the config facts, at least
    # entries no run asks for, and a run that writes the file anew (as one does after enough changes)
    data["units"].update({f"{n:064x}": {"items": [{"evil": "hostile"}], "read": ["hostile"]} for n in range(100)})
    units.write_text(json.dumps(data), encoding="utf-8")
    monkeypatch.setattr(cache_index, "worth_writing", lambda index, tree, units: True)
    (three / "data" / "extra.jsonl").write_text('{"x": 1}\n', encoding="utf-8")  # a miss: the units are read
    same_as_no_cache(run, three)
    written = json.loads(units.read_text(encoding="utf-8"))
    assert "hostile" not in json.dumps(written)  # every unit written from what it decoded to
    assert sum(1 for entry in written["units"].values() if entry["items"]) >= with_items > 0
