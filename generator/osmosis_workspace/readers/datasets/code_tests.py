"""Labels that hold a code task's hidden tests (the `code` template's format), and a dataset's columns.

A code task's label is JSON text::

    {"function": "gcd", "tests": [{"input": [7, 13], "output": 1}, ...]}

`function` a Python identifier, `tests` a non-empty list of objects, each with `input` (the list of
positional arguments) and `output` (the JSON value to return). A label that begins like one (an
object whose first key is "function") is held to it: a label the grader cannot read earns every
answer 0, so the row can never be rewarded. This is the reading of the template's own
`scoring.parse_tests`; tests/datasets check that both agree.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

from osmosis_workspace.core.bounded import json_loads
from osmosis_workspace.core.lazy_re import lazy_compile

STARTS = re.compile(r'\s*\{\s*"function"\s*:')  # a label that means to be a code task's tests
OPENS = ("{", " ", "\t", "\n", "\r")  # what such a label may start with (a cheap first test)
MAX_LABEL_CHARS = 1_000_000
HEAD_BYTES = 1 << 20  # what is read of a file to find its columns
_IDENTIFIER = lazy_compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def looks_like_tests(text: object) -> bool:
    return isinstance(text, str) and STARTS.match(text) is not None


def problem_of_tests(text: str) -> str | None:
    """What is wrong with ``text`` as a code task's tests; None when they parse."""
    if len(text) > MAX_LABEL_CHARS:
        return f"the tests are over {MAX_LABEL_CHARS:,} characters"
    try:
        data = json_loads(text)
    except (ValueError, RecursionError) as err:
        return f"the tests are not JSON ({' '.join(str(err).split())[:120]})"
    if not isinstance(data, dict) or not isinstance(data.get("function"), str) or not _IDENTIFIER.match(data["function"]):
        return '"function" must name the function to call (a Python identifier)'
    tests = data.get("tests")
    if not isinstance(tests, list) or not tests:
        return '"tests" must be a non-empty list'
    for i, case in enumerate(tests):
        if not isinstance(case, dict) or not isinstance(case.get("input"), list) or "output" not in case:
            return f'test {i} must be an object {{"input": [ARGS...], "output": VALUE}}'
    return None


def parses_as_tests(text: object) -> bool:
    """The row rule's cheap test: not a code task's label, or one whose tests parse."""
    return not looks_like_tests(text) or problem_of_tests(text) is None  # type: ignore[arg-type]


def first_columns(path: Path) -> frozenset[str] | None:
    """The column names of a JSON lines file's first row or a CSV file's header; None when they cannot be
    had cheaply (another format, an unreadable or malformed start)."""
    suffix = path.suffix.lower()
    if suffix not in (".jsonl", ".csv"):
        return None
    try:
        with open(path, "rb") as fh:
            head = fh.read(HEAD_BYTES)
    except OSError:
        return None
    text = head.decode("utf-8-sig", errors="replace")
    if suffix == ".csv":
        import csv  # a CSV dataset's header only: JSON lines, the usual case, does not need it

        try:
            header = next(csv.reader(io.StringIO(text)), None)
        except csv.Error:
            return None
        return frozenset(header) if header else None
    for line in text.splitlines():
        if line.strip():
            try:
                row = json_loads(line)
            except (ValueError, RecursionError):
                return None
            return frozenset(row) if isinstance(row, dict) else None
    return None

