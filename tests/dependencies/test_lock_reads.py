"""The two uv.lock reads issue 40 made cheaper answer as before: the package-name search of the
import checks (entry_import._PACKAGE_NAME) and a lock parsed twice in one run (readers/uvlock.parse)."""

from __future__ import annotations

import random
import re

from osmosis_workspace.check.families.entry_import import _PACKAGE_NAME
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


def test_a_lock_parsed_again_is_the_same_answer_and_a_changed_one_is_parsed_anew():
    uvlock._PARSED.clear()
    first = uvlock.parse(LOCK)
    assert first is not None and first.pin("osmosis-ai").version == "0.3.8"
    assert uvlock.parse(str(LOCK)) is first  # an equal text read again: no second parse
    changed = uvlock.parse(LOCK.replace("0.3.8", "0.3.9"))
    assert changed is not first and changed.pin("osmosis-ai").version == "0.3.9"
    assert uvlock.parse("not = [toml") is None and uvlock.parse("not = [toml") is None
    for n in range(6):  # only the last few are kept
        uvlock.parse(LOCK + f"# {n}\n")
    assert len(uvlock._PARSED) == 4 and all(uvlock.parse(t) is lock for t, lock in list(uvlock._PARSED))
