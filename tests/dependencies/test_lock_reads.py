"""The two uv.lock reads issue 40 made cheaper answer as before: the package-name search of the
import checks (entry_import._PACKAGE_NAME) and a lock read twice in one run, parsed once (readers/uvlock.lock_in)."""

from __future__ import annotations

import random
import re
from collections import Counter

from typer.testing import CliRunner

from osmosis_workspace.check.families.entry_import import _PACKAGE_NAME
from osmosis_workspace.cli import app
from osmosis_workspace.readers import uvlock

# what the search said before: `[[package]]` at a line's start, in MULTILINE mode
REFERENCE = re.compile(r'^\[\[package\]\]\r?\nname = "([^"\n]{1,200})"', re.MULTILINE)
PIECES = ["[[package]]", "\n", "\r\n", "\r", 'name = "', '"', "x", "-", "[", "]", " ", "name", "a" * 199, "b" * 2]


def test_the_package_name_search_finds_what_the_line_start_search_found():
    rng = random.Random(40)
    texts = ['[[package]]\nname = "first"\n', 'x[[package]]\nname = "glued"\n', '\r[[package]]\nname = "cr"\n',
             '\n[[package]]\r\nname = "crlf"', '[[package]][[package]]\nname = "twice"', '[[package]]\n[[package]]\nname = "e"',
             '\n[[package]]\nname = "' + "n" * 200 + '"', '\n[[package]]\nname = "' + "n" * 201 + '"']
    texts += ["".join(rng.choice(PIECES) for _ in range(rng.randrange(1, 40))) for _ in range(3000)]
    for text in texts:
        assert _PACKAGE_NAME.findall(text) == REFERENCE.findall(text), text


LOCK = 'version = 1\nrequires-python = ">=3.10"\n\n[[package]]\nname = "osmosis-ai"\nversion = "0.3.8"\nsource = { registry = "https://pypi.org/simple" }\n'


def _counting(monkeypatch) -> list[str]:
    parsed: list[str] = []
    real = uvlock.parse

    def parse(text: str):
        parsed.append(text)
        return real(text)

    monkeypatch.setattr(uvlock, "parse", parse)
    return parsed


def _doctor(ws) -> None:
    result = CliRunner().invoke(app, ["doctor", str(ws), "--no-cache", "--format", "json"])
    assert result.exit_code in (0, 1), result.output


def test_one_doctor_run_parses_each_lock_once_and_the_next_run_parses_again(make_workspace, monkeypatch):
    ws = make_workspace(git=False)
    rollout_lock = (ws / "rollouts/multiply/uv.lock").read_text(encoding="utf-8")
    assert uvlock.parse(rollout_lock) is not None  # a lock both readers take: the SDK target and the lock checks
    parsed = _counting(monkeypatch)
    _doctor(ws)
    assert parsed.count(rollout_lock) == 1 and max(Counter(parsed).values()) == 1, Counter(parsed).values()
    _doctor(ws)  # a new snapshot: nothing of the last run's parse is kept
    assert parsed.count(rollout_lock) == 2 and max(Counter(parsed).values()) == 2


def test_the_shared_parse_counts_the_lock_as_read_by_each_reader(make_workspace, monkeypatch):
    from osmosis_workspace.core.workspace import Workspace

    ws = Workspace(make_workspace(git=False))
    path = ws.root / "rollouts/multiply/uv.lock"
    parsed = _counting(monkeypatch)
    mark = ws.read_mark()
    text, lock = uvlock.lock_in(ws, path)
    assert ws.read_since(mark) == ["rollouts/multiply/uv.lock"] and lock is not None and text is not None
    mark = ws.read_mark()
    assert uvlock.lock_in(ws, path) == (text, lock)  # the same object, not parsed again
    assert uvlock.lock_in(ws, path)[1] is lock and len(parsed) == 1
    assert ws.read_since(mark) == ["rollouts/multiply/uv.lock"] * 2
    assert Workspace(ws.root).memo("x", lambda: 1) == 1 and uvlock.lock_in(Workspace(ws.root), path)[1] is not lock
    assert len(parsed) == 2
