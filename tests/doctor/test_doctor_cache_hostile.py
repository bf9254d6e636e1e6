"""doctor's cache entries are input from whoever can write the cache folder (issue 28, point 1): a
crafted entry is a miss and the checks run, never an exception (`"files_read": 1e400` raised an
uncaught OverflowError, exit 3)."""

from __future__ import annotations

import json

import pytest

CRAFTED = {
    "files_read 1e400": lambda e: {**e, "files_read": "__1e400__"},
    "files_read a string": lambda e: {**e, "files_read": "7"},
    "files_read negative": lambda e: {**e, "files_read": -1},
    "files_read true": lambda e: {**e, "files_read": True},
    "findings a dict": lambda e: {**e, "findings": {"a": 1}},
    "finding of three": lambda e: {**e, "findings": [["x", {}, 1]]},
    "finding not a dict": lambda e: {**e, "findings": [["layout", 5]]},
    "finding severity wrong": lambda e: {**e, "findings": [["layout", {"code": "X", "name": "x", "severity": "fatal", "message": "m", "hint": "h"}]]},
    "finding line 1e400": lambda e: {**e, "findings": [["layout", {"code": "X", "name": "x", "severity": "error", "message": "m", "hint": "h", "line": "__1e400__"}]]},
    "finding message a list": lambda e: {**e, "findings": [["layout", {"code": "X", "name": "x", "severity": "error", "message": [1], "hint": "h"}]]},
    "suppression line 1e400": lambda e: {**e, "suppressions": [{"path": "a", "line": "__1e400__", "column": 1, "codes": [], "whole_file": False}]},
    "suppressions a string": lambda e: {**e, "suppressions": "abc"},
    "unreadable a list": lambda e: {**e, "unreadable": [1, 2]},
    "unreadable values": lambda e: {**e, "unreadable": {"a": "__1e400__"}},
    "format missing": lambda e: {k: v for k, v in e.items() if k != "format"},
    "a list": lambda e: [e],
    "deep": lambda e: "__deep__",
}


def _write(path, entry) -> None:
    if entry == "__deep__":
        path.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
        return
    path.write_text(json.dumps(entry).replace('"__1e400__"', "1e400"), encoding="utf-8")


def _newest(doctor_cache, name: str | None = None):
    """The cache file the last run wrote (the cache folder is the session's, shared by tests)."""
    files = [p for p in doctor_cache.rglob("*.json") if (p.name == name if name else p.name not in ("hashes.json", "units.json", "walk.json"))]
    return max(files, key=lambda p: p.stat().st_mtime_ns)


@pytest.mark.parametrize("craft", sorted(CRAFTED))
def test_a_crafted_entry_is_a_miss(mini_ws, run, doctor_cache, craft):
    first = run("doctor", mini_ws, "-f", "json")
    assert first.exit_code in (0, 1), first.output
    entry = _newest(doctor_cache)
    _write(entry, CRAFTED[craft](json.loads(entry.read_text(encoding="utf-8"))))
    again = run("doctor", mini_ws, "-f", "json", "-v")
    assert again.exit_code == first.exit_code, again.output
    assert json.loads(again.stdout)["diagnostics"] == json.loads(first.stdout)["diagnostics"]


@pytest.mark.parametrize("name", ["units.json", "walk.json"])
@pytest.mark.parametrize("content", ["[1, 2]", "[" * 100_000, '{"x": [1e400, "a", 1, 2, 3, 4]}', "1e400", '{"k": {"items": 5, "read": 1e400}}'])
def test_crafted_memo_files_are_ignored(make_workspace, run, doctor_cache, name, content):
    ws = make_workspace()
    first = run("doctor", ws, "-f", "json", "--select", "ENT")
    assert first.exit_code in (0, 1), first.output
    folder = _newest(doctor_cache).parent
    index = json.loads((folder / "walk.json").read_text(encoding="utf-8"))
    (folder / name).write_text(content, encoding="utf-8")
    if name == "walk.json" and content.startswith("{"):  # every path with a crafted record in a well-formed index
        index["entries"] = {str(p): [1e400, "a", None, [], {}, 5] for p in ws.rglob("*")}
        (folder / name).write_text(json.dumps(index), encoding="utf-8")
    (ws / "data" / "extra.jsonl").write_text('{"x": 1}\n', encoding="utf-8")  # a miss: the units are asked
    again = run("doctor", ws, "-f", "json", "--select", "ENT")
    assert again.exit_code == first.exit_code, again.output
    assert json.loads(again.stdout)["diagnostics"] == json.loads(first.stdout)["diagnostics"]
