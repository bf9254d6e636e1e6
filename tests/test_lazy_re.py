"""core/lazy_re.py: a pattern compiled on first use answers as the compiled pattern would, and
core/diagnostics.printable's shortcut for printable text leaves nothing its pattern would escape."""

from __future__ import annotations

import re

import pytest

from osmosis_workspace.core.diagnostics import _UNPRINTABLE, _escaped, printable
from osmosis_workspace.core.lazy_re import lazy_compile


def test_lazy_pattern_compiles_once_on_first_use_and_answers_as_re_does():
    lazy = lazy_compile(r"(?P<word>[a-z]+)-(\d+)", re.IGNORECASE)
    assert "_compiled" not in vars(lazy)
    text = "Ab-12 cd-3 x-"
    compiled = re.compile(r"(?P<word>[a-z]+)-(\d+)", re.IGNORECASE)
    assert lazy.match(text)[0] == compiled.match(text)[0] == "Ab-12"
    first = vars(lazy)["_compiled"]
    assert [m.groups() for m in lazy.finditer(text)] == [m.groups() for m in compiled.finditer(text)]
    assert lazy.sub("_", text) == compiled.sub("_", text)
    assert lazy.fullmatch("cd-3") is not None and lazy.search("--") is None
    assert lazy.groupindex == compiled.groupindex and lazy.flags == compiled.flags and lazy.pattern == compiled.pattern
    assert vars(lazy)["_compiled"] is first


def test_a_bad_pattern_fails_where_it_is_used_as_re_would():
    lazy = lazy_compile("(")  # no error at import
    with pytest.raises(re.error):
        lazy.match("x")


def test_printable_shortcut_agrees_with_the_pattern_on_every_character():
    # every BMP character and a few astral ones: what the shortcut passes as is, the pattern leaves alone
    samples = [chr(c) for c in range(0x10000)] + ["\U0001f600", "\U000e0001", "\U0010ffff"]
    for ch in samples:
        text = f"a{ch}b"
        assert printable(text) == _UNPRINTABLE.sub(_escaped, text), repr(ch)


def test_printable_text_is_returned_as_is_and_controls_escaped():
    assert printable("plain text é 日本") == "plain text é 日本"
    assert printable("tab\there") == "tab\there"
    assert printable("a\x1bb") == "a\\x1bb"
