"""An editor's edit run keeps a remember_each item's answer by its unit name (check/live.py `_unit_name`:
prefix + path). suppress.scan runs two loops under one prefix, "suppressions:": the candidate files (which
include every path a finding names that ends in .py/.toml/.yml/.yaml/.md) and the rollout folders. A rollout
folder named `calc.py` (LAY006 and CFG020 name the folder itself) is an item of both loops with one unit
name: the edit run reused the first loop's answer for the folder ([]: it is no file) as the rollout's marks,
and the rollout's suppression comments vanished from the editor while a fresh run reported them (attack43).
The rollout loop has its own prefix now, and check/units.py refuses a prefix used by two functions."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from osmosis_workspace.lsp.session import Session, path_uri


def answer(checked) -> list[tuple]:
    return sorted((str(path), d.code, d.line, d.column, d.message) for path, found in checked.by_file.items() for d in found)


def test_a_rollout_folder_named_like_a_file_keeps_its_suppressions_in_an_edit_run(make_workspace, monkeypatch, tmp_path):
    monkeypatch.setenv("OSMOSIS_DOCTOR_CACHE", str(tmp_path / "doctor-cache"))
    ws = make_workspace()
    shutil.copytree(ws / "rollouts" / "multiply", ws / "rollouts" / "calc.py", ignore=shutil.ignore_patterns(".venv"))
    main = ws / "rollouts" / "calc.py" / "main.py"
    text = main.read_text(encoding="utf-8") + "x = 1  # osmosis: ignore[NOPE999]\n"  # SET003 on this line
    session = Session()
    uri = path_uri(main)
    session.buffers[uri] = text
    session.check(ws)
    session.buffers[uri] = text.replace("NOPE999", "NOPE998")
    edited = session.check(ws)
    assert session.live[ws].edit_runs == 1
    fresh = Session()
    fresh.buffers = dict(session.buffers)
    expected = answer(fresh.check(ws))
    assert any(code == "SET003" for _, code, *_ in expected)
    assert answer(edited) == expected


def test_a_prefix_belongs_to_one_function():
    from osmosis_workspace.check import units

    def first(ws, path):
        return []

    def second(ws, path):
        return []

    units._one_function_a_prefix("attack43-test:", first)
    units._one_function_a_prefix("attack43-test:", first)
    try:
        units._one_function_a_prefix("attack43-test:", second)
    except RuntimeError as err:
        assert "attack43-test:" in str(err)
    else:
        raise AssertionError("a second function under one prefix was let through")


def test_a_remember_items_key_belongs_to_one_judge():
    """Two loops of remember_items under one key would share the editor's memory of their items (check/live.py
    keeps a loop's rows under its key and hands an item last run's value when its id and token are the same
    objects): a second judge under a key is refused, as a second function under a remember_each prefix is."""
    from osmosis_workspace.check import units
    from osmosis_workspace.core.workspace import Workspace

    def judge(item):
        return f"attack46:{item[0]}", None, ""

    def other(item):
        return f"attack46:{item[0]}", None, ""

    ws = Workspace(Path("/nonexistent-attack46"))
    items = [("a", None)]
    assert units.remember_items(ws, "attack46-test", items, judge, lambda item: [item[0]]) == [["a"]]
    assert units.remember_items(ws, "attack46-test", items, judge, lambda item: [item[0]]) == [["a"]]
    try:
        units.remember_items(ws, "attack46-test", items, other, lambda item: [item[0]])
    except RuntimeError as err:
        assert "attack46-test" in str(err)
    else:
        raise AssertionError("a second judge under one remember_items key was let through")
