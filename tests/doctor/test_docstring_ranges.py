"""Docstrings that name a range of rule codes ("Rules DAT001-DAT021", with single codes beside it) say what
is true, as docs/checks.md does of the registry: a module that declares rules names exactly the codes it
declares, and any other module names only codes that exist, every one of the range."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from osmosis_workspace.check.doctor import load_rules

PACKAGE = Path(__file__).resolve().parents[2] / "generator" / "osmosis_workspace"
RANGE = re.compile(r"\b([A-Z]{3})(\d{3})-([A-Z]{3})(\d{3})\b")
# A rule declaration: the code as the first argument of rule(...) / _rule(...), a line of its own.
DECLARED = re.compile(r'^\s*"([A-Z]{3}\d{3})", "[a-z0-9-]+",', re.MULTILINE)


def _named(text: str) -> set[str]:
    codes = set()
    for start_prefix, start, end_prefix, end in RANGE.findall(text):
        assert start_prefix == end_prefix and int(start) <= int(end), f"odd range in {text[:60]!r}"
        codes |= {f"{start_prefix}{n:03d}" for n in range(int(start), int(end) + 1)}
    return codes | set(re.findall(r"\b[A-Z]{3}\d{3}\b", text))  # and single codes: "DAT001-DAT025 and DAT030"


def _docstrings(path: Path) -> str:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    nodes = [tree, *(n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)))]
    return "\n".join(ast.get_docstring(n) or "" for n in nodes)


MODULES = sorted(p for p in PACKAGE.rglob("*.py") if RANGE.search(_docstrings(p)))


def test_some_docstrings_name_ranges():
    assert len(MODULES) >= 4, MODULES  # the test below has something to check


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.relative_to(PACKAGE).as_posix())
def test_a_docstring_range_is_true(path):
    registered = {r.code for r in load_rules()}
    text = " ".join(_docstrings(path).split())
    # A range said to be in another module ("DAT026-DAT029, are in data_rules.py") is that module's.
    elsewhere = re.compile(r"\(([^()]*)\)\s*(?:are|is)\s+in\s+\w+\.py|[(,]\s*([A-Z]{3}\d{3}-[A-Z]{3}\d{3})[^()]*?\bare in \w+\.py")
    own = _named(elsewhere.sub("", text))
    named = _named(text)
    assert named <= registered, f"{path.name} names codes that do not exist: {sorted(named - registered)}"
    declared = set(DECLARED.findall(path.read_text(encoding="utf-8")))
    if declared:
        prefixes = {c[:3] for c in own}
        mine = {c for c in declared if c[:3] in prefixes}
        assert own == mine, (f"{path.name}'s docstring names {sorted(own - mine)} it does not declare"
                             if own - mine else f"{path.name} declares {sorted(mine - own)} its docstring's ranges leave out")


def test_a_stale_range_is_caught(tmp_path):
    """The check itself fails on the docstring this test was written for (DAT021 left out)."""
    stale = '"""Checks: datasets. Rules DAT001-DAT020."""\n' + "".join(f'X = _rule(\n    "DAT{n:03d}", "r{n}",\n)\n' for n in range(1, 22))
    path = tmp_path / "stale.py"
    path.write_text(stale)
    with pytest.raises(AssertionError, match="DAT021"):
        test_a_docstring_range_is_true(path)
