"""Issue 37 point 8 (b): doctor's cache keeps an index of the last walk (check/cache_index.py, `walk.json`).
A warm run reuses a unit when the walk found every entry of its inputs as the index has them (a set test,
no digest), and walks nothing again after the run: a change made while a run went on is seen by the next
walk. These tests hold the index to what a file system can do behind it (an edit that keeps size and
mtime, an inode swap, a file replaced by a link, a coarse clock, a clock set back, a writer racing the run,
a crafted index), each answer being the one `--no-cache` gives."""

from __future__ import annotations

import importlib
import json
import os
import re
import time

import pytest

from osmosis_workspace.check import cache_index
from osmosis_workspace.check import cache_tree
from osmosis_workspace.check.cache_tree import FINE, TOUCHED, UNCOVERED, Tree

run_stage = importlib.import_module("osmosis_workspace.check.pipeline.run")  # the package re-exports its `run`
LATER = 10 * 10**9  # a walk this long after the files were written trusts their times


def walk(root, index=None, started=None, folders=None) -> Tree:
    tree = Tree(time.time_ns() + LATER if started is None else started, index, folders)
    tree.add(str(root))
    tree.finish()
    return tree


def findings(run, ws, *extra: str) -> list[tuple]:
    result = run("doctor", ws, "-f", "json", *extra)
    assert result.exit_code in (0, 1), result.output
    return sorted((d["code"], d["path"], d["line"], d["message"]) for d in json.loads(result.stdout)["diagnostics"])


def verbose(run, ws) -> str:
    result = run("doctor", ws, "-v")
    assert result.exit_code in (0, 1), result.output
    return result.output


def reused(output: str) -> tuple[int, int] | None:
    found = re.search(r"(\d+) of (\d+) units of work reused from the cache", output)
    return (int(found[1]), int(found[2])) if found else None


def folder_of(ws):
    from osmosis_workspace.check.cache import Cache
    from osmosis_workspace.core.workspace import Workspace

    return Cache.for_workspace(Workspace(ws)).folder


# --- the walk against an index -----------------------------------------------------------------

@pytest.fixture
def files(tmp_path):
    root = tmp_path / "ws"
    (root / "a").mkdir(parents=True)
    (root / "a" / "one.txt").write_text("one\n", encoding="utf-8")
    (root / "a" / "two.txt").write_text("two\n", encoding="utf-8")
    (root / "b").mkdir()
    (root / "b" / "three.txt").write_text("three\n", encoding="utf-8")
    return root


def test_an_unchanged_tree_has_no_delta_and_every_input_is_fine(files):
    first = walk(files)
    assert set(first.delta) == set(first.stats)  # against no index: all new
    again = walk(files, first.stats)
    assert again.delta == {}
    assert again.state(str(files / "a")) == again.state(str(files / "a" / "one.txt")) == FINE
    assert again.state(str(files / "a" / "none.txt")) == FINE  # absent then and now: a unit may depend on that


def test_an_edit_that_keeps_size_and_mtime_is_seen_by_its_change_time(files):
    one = files / "a" / "one.txt"
    old = os.stat(one).st_mtime_ns - 100 * 10**9
    os.utime(one, ns=(old, old))
    first = walk(files)
    one.write_text("ONE\n", encoding="utf-8")
    os.utime(one, ns=(old, old))
    assert os.stat(one).st_size == 4 and os.stat(one).st_mtime_ns == old
    again = walk(files, first.stats)
    assert list(again.delta) == [str(one)]
    assert again.state(str(one)) == again.state(str(files / "a")) == again.state(str(files)) == TOUCHED
    assert again.state(str(files / "a" / "two.txt")) == again.state(str(files / "b")) == FINE


def test_an_inode_swap_and_a_file_made_a_link_are_seen(files):
    one, two = files / "a" / "one.txt", files / "a" / "two.txt"
    first = walk(files)
    swap = one.with_name("swap")
    one.rename(swap)
    two.rename(one)
    swap.rename(two)
    again = walk(files, first.stats)
    assert {str(one), str(two)} <= set(again.delta)
    three = files / "b" / "three.txt"
    three.unlink()
    three.symlink_to(files / "a" / "one.txt")
    linked = walk(files, again.stats)
    assert str(three) in linked.delta
    assert linked.state(str(three)) == linked.state(str(files / "b")) == UNCOVERED  # what a link leads to is not walked


def test_a_deleted_entry_is_in_the_delta_and_touches_its_folders(files):
    first = walk(files)
    (files / "b" / "three.txt").unlink()
    again = walk(files, first.stats)
    assert again.delta[str(files / "b" / "three.txt")] is None
    assert again.state(str(files / "b" / "three.txt")) == TOUCHED  # absent now, there before


def test_a_coarse_clock_that_keeps_the_status_still_shows_the_content(files):
    """An entry too recent to trust when indexed carries its content: a file system whose times tick
    coarsely can rewrite a file within one tick, leaving every time as it was."""
    one = files / "a" / "one.txt"
    first = walk(files, started=time.time_ns())  # the files were just written: no time of theirs is trusted
    assert len(first.stats[str(one)]) == 8
    one.write_text("ONE\n", encoding="utf-8")
    now = os.stat(one)
    index = dict(first.stats)
    index[str(one)] = [*index[str(one)][:3], now.st_mtime_ns, now.st_ctime_ns, *index[str(one)][5:]]  # the tick kept every time
    again = walk(files, index)  # (trusted now)
    assert again.stats[str(one)][:7] == index[str(one)][:7]
    assert list(again.delta) == [str(one)]  # told by the content alone
    calm = walk(files, again.stats)
    assert calm.delta == {}


def test_an_index_from_after_the_walk_started_is_none():
    """A clock set back: the index was written by a walk that started later than this one."""
    data = cache_index.to_json("g" * 24, "base", 2_000, {}, {})
    assert cache_index.from_json(data, "base", 2_000) is not None
    assert cache_index.from_json(data, "base", 1_999) is None
    assert cache_index.from_json(data, "other base", 2_000) is None


def test_files_with_times_after_the_walk_are_not_trusted(files):
    """A clock set back since the files were written: their times lie after the walk's start."""
    tree = walk(files, started=time.time_ns() - 3600 * 10**9)
    assert all(record is None or len(record) == 8 for record in tree.stats.values())


WELL_FORMED = {"format": cache_index.FORMAT, "base": "base", "gen": "g", "at": 0, "entries": {}, "folders": {}}


@pytest.mark.parametrize("crafted", [
    {"format": cache_index.FORMAT}, [], "x", {**WELL_FORMED, "format": cache_index.FORMAT + 1}, {**WELL_FORMED, "base": None},
    {**WELL_FORMED, "gen": 5}, {**WELL_FORMED, "gen": "g" * 65}, {**WELL_FORMED, "gen": ""}, {**WELL_FORMED, "at": "0"},
    {**WELL_FORMED, "at": True}, {**WELL_FORMED, "entries": []}, {**WELL_FORMED, "folders": []},
    {**WELL_FORMED, "folders": "a"},
])
def test_a_crafted_index_is_none(crafted):
    assert cache_index.from_json(WELL_FORMED, "base", 10**18) is not None  # the test could fail
    assert cache_index.from_json(crafted, "base", 10**18) is None


def test_an_unchanged_folders_names_come_from_the_index(files, monkeypatch):
    first = walk(files)
    assert first.folders[str(files / "a")] == ["one.txt", "two.txt"]
    listed = []
    real = os.listdir
    monkeypatch.setattr(os, "listdir", lambda path: listed.append(path) or real(path))
    again = walk(files, first.stats, folders=first.folders)
    assert listed == [] and again.delta == {} and again.folders == first.folders
    (files / "a" / "new.txt").write_text("new\n", encoding="utf-8")  # the folder's times move: listed again
    third = walk(files, again.stats, folders=again.folders)
    assert listed == [str(files / "a")]
    assert set(third.delta) == {str(files / "a"), str(files / "a" / "new.txt")}
    assert third.state(str(files / "a" / "new.txt")) == TOUCHED


@pytest.mark.parametrize("names", [["one.txt"], ["two.txt", "one.txt"], ["one.txt", "one.txt", "two.txt"], ["..", "one.txt"],
                                   ["one.txt", "x/../../y"], ["", "one.txt"], [""], ["one.txt", 5], "one.txt", {"a": 1}, ["a\0b"]])
def test_crafted_names_for_a_folder_are_listed_anew_or_only_hide_what_the_status_covers(files, names):
    """A listing that could not be one is not taken (the folder is listed); a well-formed one is taken
    only for a folder whose status is as the index has it."""
    first = walk(files)
    folders = {**first.folders, str(files / "a"): names}
    again = walk(files, first.stats, folders=folders)
    if names == ["one.txt"]:  # well-formed: taken, as the folder's status vouches for its names
        assert again.folders[str(files / "a")] == ["one.txt"]
    else:
        assert again.folders[str(files / "a")] == ["one.txt", "two.txt"]
        assert again.delta == {}


def test_crafted_records_only_make_their_entries_changed(files):
    first = walk(files)
    crafted = {path: value for path, value in zip(first.stats, [[10**30] * 7, "x", {"a": 1}, [[[[]]]], 7, [None] * 8, True])}
    index = {**first.stats, **crafted}
    again = walk(files, index)
    assert set(again.delta) == set(crafted)


# --- doctor runs ------------------------------------------------------------------------------

def test_a_warm_run_after_one_edit_reuses_every_other_unit_and_walks_nothing_after(three, run, doctor_cache, monkeypatch):
    verbose(run, three)
    assert "answered from the cache" in verbose(run, three)
    config = three / "configs" / "eval" / "multiply.toml"
    config.write_text(config.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    real = run_stage.run_checks

    def then_no_walk(*args, **kwargs):
        found = real(*args, **kwargs)
        monkeypatch.setattr(cache_tree.Tree, "_add", lambda *a: pytest.fail("walked again after the run"))
        return found

    monkeypatch.setattr(run_stage, "run_checks", then_no_walk)
    done, total = reused(verbose(run, three))
    monkeypatch.undo()
    assert 0 < total - done <= 6, (done, total)  # the config's own units (facts, refs, placeholders, leftovers, secrets, comments)
    assert findings(run, three) == findings(run, three, "--no-cache")


def test_a_writer_racing_the_run_that_puts_the_text_back_is_still_seen(three, run, doctor_cache, monkeypatch):
    """The file is changed while the checks run and put back as the walk saw it once they are done: the
    stored run's key matches the next walk's, but the change time moved, so neither its findings nor its
    units of that rollout are taken (the first run: it computes every unit, that rollout's from the racing text)."""
    main = three / "rollouts" / "second" / "main.py"
    text = main.read_text(encoding="utf-8")
    real = run_stage.run_checks

    def racing(ws, *args, **kwargs):
        main.write_text("from osmosis_ai.rollout import NoSuchThing\n" + text, encoding="utf-8")
        found = real(ws, *args, **kwargs)
        main.write_text(text, encoding="utf-8")
        return found

    monkeypatch.setattr(run_stage, "run_checks", racing)
    raced = findings(run, three)
    monkeypatch.undo()
    assert any(path == "rollouts/second/main.py" for _, path, _, _ in raced)  # the racing text was read
    after = verbose(run, three)
    assert "answered from the cache" not in after
    done, total = reused(after)
    assert total > done
    assert not any(path == "rollouts/second/main.py" for _, path, _, _ in findings(run, three))
    assert findings(run, three) == findings(run, three, "--no-cache")


def test_an_index_written_after_the_walk_started_is_a_cold_run(three, run, doctor_cache):
    verbose(run, three)
    walk_file = folder_of(three) / "walk.json"
    data = json.loads(walk_file.read_text(encoding="utf-8"))
    data["at"] = time.time_ns() + 3600 * 10**9  # as the next walk sees it after the clock was set back an hour
    walk_file.write_text(json.dumps(data), encoding="utf-8")
    output = verbose(run, three)
    assert "answered from the cache" not in output and reused(output) is None, output
    assert findings(run, three) == findings(run, three, "--no-cache")


@pytest.mark.parametrize("content", ["[1, 2]", "[" * 100_000, '{"format": 1, "entries": {"a": [1e400]}}', "1e400", ""])
def test_a_crafted_walk_file_is_a_cold_run(three, run, doctor_cache, content):
    verbose(run, three)
    (folder_of(three) / "walk.json").write_text(content, encoding="utf-8")
    output = verbose(run, three)
    assert "answered from the cache" not in output and reused(output) is None, output
    assert findings(run, three) == findings(run, three, "--no-cache")


def test_crafted_records_in_the_walk_file_recompute_their_units(three, run, doctor_cache):
    verbose(run, three)
    walk_file = folder_of(three) / "walk.json"
    data = json.loads(walk_file.read_text(encoding="utf-8"))
    rollout = str(three / "rollouts" / "second")
    bad = [path for path in data["entries"] if path.startswith(rollout)]
    for path, value in zip(bad, [[10**30] * 7, "x", {"a": 1}, [[[[]]]], None, 7, [None] * 8]):
        data["entries"][path] = value
    walk_file.write_text(json.dumps(data).replace(str(10**30), "1e400", 1), encoding="utf-8")
    done, total = reused(verbose(run, three))
    assert 0 < total - done < total
    assert findings(run, three) == findings(run, three, "--no-cache")
