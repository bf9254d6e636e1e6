"""The dataset row rules as one table, and the one hook every reader calls for every row.

Each :class:`RowRule` is a row of :data:`ROW_RULES`: the finding kinds it records, its cheap test
(what every good row passes, built once per file from the file's :class:`ColumnSpec`) and its full
check (the message for a row that fails). Readers do not test rows themselves: the JSON lines hot
loop, the CSV loop and the JSON array reader all call :meth:`RowChecker.take`, which runs the cheap
tests and, only for a row that fails one, the full checks. So a new rule is one row here, whatever
the format; the data checks' per-row observation (generator.formats.datasets.profile) sits behind
the same hook.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from generator.formats.datasets.columns import (
    USER, ColumnSpec, MetadataChecker, quote_hint, json_type, near_miss, not_string, shown, shown_list,
)
from generator.formats.datasets.findings import Findings
from generator.formats.datasets.profile import Profile

Test = Callable[[dict], bool]
BLOCK_ROWS = 128  # rows the profile observes at once (held until then: about 100 KB)
# A cheap test that no row passes: the rule always wants the full check (metadata is compared across rows).
ALWAYS_FULL: Test = lambda row: False  # noqa: E731


@dataclass(frozen=True)
class RowRule:
    name: str
    kinds: tuple[str, ...]  # the finding kinds its full check records
    quick: Callable[[ColumnSpec], Test | None]  # the file's cheap test; None when the rule has nothing to test
    full: Callable[["RowChecker", dict, int | None, int | None], None]


def _quick_keys(spec: ColumnSpec) -> Test:
    keys = spec.keys
    return lambda row: row.keys() == keys


def _full_keys(checker: "RowChecker", row: dict, line: int | None, column: int | None) -> None:
    spec = checker.spec
    if row.keys() == spec.keys:
        return
    missing, extra = spec.keys - row.keys(), row.keys() - spec.keys
    parts = ([f"missing {shown_list(missing)}"] if missing else []) + ([f"extra {shown_list(extra)}"] if extra else [])
    where = f"line {spec.line}" if spec.line else "the first row"
    renames = [(e, m) for m in sorted(missing) for e in [near_miss(m, extra)] if e]
    hint = "; ".join(f"rename {shown(e)} to {shown(m)}" for e, m in renames) or None
    checker.findings.add("divergent-keys", f"row's keys differ from the first row's ({where}): {'; '.join(parts)}", line, column,
                         hint, (spec.line, frozenset(missing), frozenset(extra)))


def _quick_required(spec: ColumnSpec) -> Test | None:
    names = spec.nonempty
    if not names:
        return None

    def test(row: dict) -> bool:
        for name in names:
            value = row[name]
            if value.__class__ is not str or not value or value.isspace():
                return False
        return True

    return test


def _full_required(checker: "RowChecker", row: dict, line: int | None, column: int | None) -> None:
    add = checker.findings.add
    for name in checker.spec.nonempty:
        if name not in row:
            continue
        value = row[name]
        if value is None:
            add("null-value", f"`{name}` is null: the platform reads it as missing and fails the run at this row",
                line, column, f"give `{name}` a value, or drop the row")
        elif not isinstance(value, str):
            add("not-string", not_string(name, value), line, column, quote_hint(name, value))
        elif not value:
            add("empty-value", f"`{name}` is empty: the platform reads it as missing and fails the run at this row", line, column)
        elif value.isspace():
            add("blank-value", f"`{name}` is only whitespace: the platform accepts it (only an empty value is "
                "missing to it), but the row has nothing to " + ("answer" if name == USER else "compare with"), line, column)


def _quick_strings(spec: ColumnSpec) -> Test | None:
    names = spec.strings
    if not names:
        return None

    def test(row: dict) -> bool:
        for name in names:
            if row[name].__class__ is not str:
                return False
        return True

    return test


def _full_strings(checker: "RowChecker", row: dict, line: int | None, column: int | None) -> None:
    for name in checker.spec.strings:
        if name in row and not isinstance(row[name], str):
            checker.findings.add("not-string", not_string(name, row[name]), line, column, quote_hint(name, row[name]))


def _quick_metadata(spec: ColumnSpec) -> Test | None:
    return ALWAYS_FULL if spec.metadata else None


def _full_metadata(checker: "RowChecker", row: dict, line: int | None, column: int | None) -> None:
    name = checker.spec.metadata
    if name and name in row:
        checker.metadata.check(row[name], line, column)


# In order: the key test comes first, so the others may index the row by the spec's columns.
ROW_RULES: tuple[RowRule, ...] = (
    RowRule("same keys as the first row", ("divergent-keys",), _quick_keys, _full_keys),
    RowRule("prompt and answer non-empty strings", ("null-value", "not-string", "empty-value", "blank-value"),
            _quick_required, _full_required),
    RowRule("system prompt a string", ("not-string",), _quick_strings, _full_strings),
    RowRule("metadata a valid object, one type per key", ("metadata",), _quick_metadata, _full_metadata),
)


def _every(tests: list[Test]) -> Test:
    """One test passed when each of ``tests`` is (one call a row for the usual two or three)."""
    if len(tests) == 1:
        return tests[0]
    if len(tests) == 2:
        a, b = tests
        return lambda row: a(row) and b(row)
    if len(tests) == 3:
        a, b, c = tests
        return lambda row: a(row) and b(row) and c(row)
    return lambda row: all(test(row) for test in tests)


class RowChecker:
    """The row rules of one file (or one byte range of it), applied row by row through :meth:`take`.

    With no spec yet, the first object row fixes it (JSON formats have no header). With ``profile``
    the rows are also observed for the data checks; the profile is hung on ``findings.profile``.
    """

    def __init__(self, findings: Findings, spec: ColumnSpec | None = None, profile: bool = True, digest_cap: int | None = None):
        self.findings = findings
        self.metadata = MetadataChecker(findings)
        self._profiling, self._digest_cap = profile, digest_cap
        self.spec: ColumnSpec | None = None
        self.profile: Profile | None = None
        self._fast: Test | None = None  # every rule's cheap test at once
        self._rows: list[dict] = []  # rows taken, not yet handed to the profile
        self._lines: list[int] = []
        if spec is not None:
            self._fix(spec)

    def _fix(self, spec: ColumnSpec) -> None:
        self.spec = spec
        tests = [t for t in (rule.quick(spec) for rule in ROW_RULES) if t is not None]
        self._fast = None if ALWAYS_FULL in tests else _every(tests)
        if self._profiling:
            # a range of the parallel reader (it has a share of the cap) keeps order, to be merged
            ordered = self.findings.keep_order or self._digest_cap is not None
            self.profile = Profile(spec, self._digest_cap, ordered)
            self.findings.profile = self.profile

    def take(self, row: object, line: int | None, column: int | None = None) -> bool:
        """The hook: ``row`` through every rule (the full checks only where a cheap test fails) and
        into the profile; True when it is an object, so it counts as a row. A reader calls
        :meth:`finish` after its last row."""
        if row.__class__ is not dict or self._fast is None or not self._fast(row):
            if not self.check(row, line, column):
                return False
        if self.profile is not None:
            self._rows.append(row)
            self._lines.append(line or 0)
            if len(self._rows) >= BLOCK_ROWS:
                self.finish()
        return True

    def finish(self) -> None:
        """Hand the rows taken so far to the profile (a block at a time: see Profile.observe_block)."""
        if self._rows and self.profile is not None:
            self.profile.observe_block(self._rows, self._lines)
        self._rows, self._lines = [], []

    def check(self, row: object, line: int | None, column: int | None = None) -> bool:
        """Every rule's full check of ``row``; True when it is an object."""
        if not isinstance(row, dict):
            self.findings.add("not-object", f"row is {json_type(row)}, not an object", line, column)
            return False
        if self.spec is None:
            self._fix(ColumnSpec.from_columns(list(row), line, self.findings))
        for rule in ROW_RULES:
            rule.full(self, row, line, column)
        return True
