"""osmosis_workspace.readers.toml_locate: positions of headers, keys and values, and tomllib's syntax errors."""

from __future__ import annotations

from osmosis_workspace.readers.toml_locate import TomlDoc, locate


def at(text: str, pos: tuple[int, int]) -> str:
    line, column = pos
    return text.split("\n")[line - 1][column - 1 :]


TRICKY = '''#:schema x
title = """
[not_a_table]
key = "inside a multi-line string" # still string
"""
lit = \'\'\'it's [here] \\ raw\'\'\'
"quoted.key" = 1
site."a b".c = 'x' # comment
[experiment]   # trailing comment
rollout = "multi\\"ply"
arr = [
  1, # one
  [2, 3],
  { x = "y", z = { w = 4 } },
]
when = 1979-05-27 07:32:00Z
[[runs]]
name = "first"
[[runs]]
name = "second"
[ secrets . inner ]
required = ["A", "B"]
'''


def test_headers_keys_and_values():
    loc = locate(TRICKY)
    assert loc.headers[("experiment",)] == (9, 1)
    assert ("not_a_table",) not in loc.headers
    assert at(TRICKY, loc.key(("quoted.key",))).startswith('"quoted.key"')
    assert at(TRICKY, loc.key(("site", "a b", "c"))).startswith("c =")
    assert at(TRICKY, loc.value(("site", "a b", "c"))).startswith("'x'")
    assert at(TRICKY, loc.value(("lit",))).startswith("'''it's")
    assert at(TRICKY, loc.value(("experiment", "rollout"))).startswith('"multi')
    assert at(TRICKY, loc.value(("experiment", "arr", 1, 0))).startswith("2, 3]")
    assert at(TRICKY, loc.value(("experiment", "arr", 2, "z", "w"))).startswith("4 }")
    assert at(TRICKY, loc.key(("experiment", "arr", 2, "z"))).startswith("z =")
    assert at(TRICKY, loc.value(("experiment", "when"))).startswith("1979")
    assert loc.headers[("runs", 0)] == (17, 1) and loc.headers[("runs", 1)] == (19, 1)
    assert at(TRICKY, loc.value(("runs", 1, "name"))).startswith('"second"')
    assert at(TRICKY, loc.value(("secrets", "inner", "required", 1))).startswith('"B"')


def test_missing_paths_fall_back_to_the_nearest_parent():
    loc = locate(TRICKY)
    assert loc.key(("experiment", "nope")) == (9, 1)
    assert loc.value(("experiment", "arr", 2, "missing")) == loc.value(("experiment", "arr", 2))
    assert loc.key(("nothing",)) is None


def test_crlf_tabs_and_unicode_columns():
    text = '[t]\r\n\tname = "é"\r\nnext\t=\t2\r\n'
    loc = TomlDoc.parse(text).locator
    assert loc.value(("t", "name")) == (2, 9)
    assert loc.key(("t", "next")) == (3, 1)
    assert loc.value(("t", "next")) == (3, 8)  # n e x t \t = \t 2
    unicode = 'ключ = "значение"\nb = 1\n'
    assert TomlDoc.parse(unicode).locator.value(("ключ",)) is None  # not a bare key: TOML rejects it
    quoted = '"ключ" = "значение"\nb = 1\n'
    assert TomlDoc.parse(quoted).locator.value(("ключ",)) == (1, 10)


def test_syntax_error_positions():
    bad = TomlDoc.parse('a = 1\n[t]\nb = not-a-value\n')
    assert bad.data is None and (bad.error.line, bad.error.column) == (3, 5)
    assert "(at line" not in bad.error.message
    eof = TomlDoc.parse("a = [1,\n")
    assert eof.error.line == 2 and "end of file" in eof.error.message
    dup = TomlDoc.parse('a = 1\n  a = 2\n')
    assert (dup.error.line, dup.error.column) == (2, 3) and "already set" in dup.error.message


def test_parse_is_cached_and_first_line():
    text = "#:schema here\r\nx = 1\n"
    assert TomlDoc.parse(text) is TomlDoc.parse(text)
    assert TomlDoc.parse(text).first_line() == "#:schema here"
