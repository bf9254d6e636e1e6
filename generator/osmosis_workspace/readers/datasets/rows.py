"""The dataset row rules as one table, and the one hook every reader calls for every row.

Each :class:`RowRule` is a row of :data:`ROW_RULES`: the finding kinds it records, its cheap test
(what every good row passes, built once per file from the file's :class:`ColumnSpec`) and its full
check (the message for a row that fails). Readers do not test rows themselves: the JSON lines hot
loop, the CSV loop and the JSON array reader all call :meth:`RowChecker.take`, which runs the cheap
tests and, only for a row that fails one, the full checks (JSON lines takes its usual batches with
:meth:`RowChecker.take_many`, the same tests in C-level passes). So a new rule is one row here, whatever
the format; the data checks' per-row observation (osmosis_workspace.readers.datasets.profile) sits behind
the same hook.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from operator import itemgetter

from osmosis_workspace.core.records import dataclass
from osmosis_workspace.readers.datasets import code_tests
from osmosis_workspace.readers.datasets.columns import (
    LABEL,
    TRUTH,
    USER,
    ColumnSpec,
    MetadataChecker,
    json_type,
    near_miss,
    not_string,
    quote_hint,
    shown,
    shown_list,
)
from osmosis_workspace.readers.datasets.capped import Findings
from osmosis_workspace.readers.datasets.profile import Profile

Test = Callable[[dict], bool]
# A cheap test: a Python expression over ``row`` and the names it binds (values, never text from the
# dataset: column names reach the expression only as bound constants).
Quick = tuple[str, dict[str, object]]
# A batch's values by column (each a list in row order), and a rule's test of a whole batch on them: True
# only when every row passes the rule's cheap test (False may be wrong: the batch is then tested row by row).
Columns = dict[str, list]
# ``texts``: a batch's columns joined (see _joined), filled as the tests ask for them, so each is joined once
Many = Callable[[Columns, dict], bool]
BLOCK_ROWS = 128  # rows the profile observes at once (held until then: about 100 KB)
# A cheap test that no row passes: the rule always wants the full check (metadata is compared across rows).
ALWAYS_FULL: Quick = ("False", {})


@dataclass(frozen=True)
class RowRule:
    name: str
    kinds: tuple[str, ...]  # the finding kinds its full check records
    # the file's cheap test, from its columns and a prefix for the names it binds; None: nothing to test
    quick: Callable[[ColumnSpec, str], Quick | None]
    full: Callable[[RowChecker, dict, int | None, int | None], None]
    # the same test of a batch in C-level passes over its columns; None: nothing to test (the key test
    # is the columns' fetch itself: see compile_many)
    many: Callable[[ColumnSpec], Many | None] = lambda spec: None


def _quick_keys(spec: ColumnSpec, tag: str) -> Quick:
    return f"row.keys() == {tag}keys", {f"{tag}keys": spec.keys}


def _full_keys(checker: RowChecker, row: dict, line: int | None, column: int | None) -> None:
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


def _quick_required(spec: ColumnSpec, tag: str) -> Quick | None:
    if not spec.nonempty:
        return None
    names = {f"{tag}{i}": name for i, name in enumerate(spec.nonempty)}
    return " and ".join(f"((v := row[{n}]).__class__ is str and v and not v.isspace())" for n in names), names


def _joined(cols: Columns, texts: dict, name: str) -> str | None:
    """The column's values, each after a NUL, in one string (one C pass that also tells they are all
    strings: ``join`` refuses anything else); None when one is not a string. Kept in ``texts``."""
    text = texts.get(name)
    if text is None:
        try:
            text = texts[name] = "\x00" + "\x00".join(cols[name])
        except TypeError:
            text = texts[name] = ""
    return text or None


def _many_required(spec: ColumnSpec) -> Many | None:
    names = spec.nonempty
    if not names:
        return None
    return lambda cols, texts: all(_joined(cols, texts, n) is not None and "" not in (v := cols[n])
                                   and not any(map(str.isspace, v)) for n in names)


def _full_required(checker: RowChecker, row: dict, line: int | None, column: int | None) -> None:
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


def _quick_strings(spec: ColumnSpec, tag: str) -> Quick | None:
    if not spec.strings:
        return None
    names = {f"{tag}{i}": name for i, name in enumerate(spec.strings)}
    return " and ".join(f"row[{n}].__class__ is str" for n in names), names


def _many_strings(spec: ColumnSpec) -> Many | None:
    names = spec.strings
    return (lambda cols, texts: all(_joined(cols, texts, n) is not None for n in names)) if names else None


def _full_strings(checker: RowChecker, row: dict, line: int | None, column: int | None) -> None:
    for name in checker.spec.strings:
        if name in row and not isinstance(row[name], str):
            checker.findings.add("not-string", not_string(name, row[name]), line, column, quote_hint(name, row[name]))


def _quick_metadata(spec: ColumnSpec, tag: str) -> Quick | None:
    return ALWAYS_FULL if spec.metadata else None


def _many_metadata(spec: ColumnSpec) -> Many | None:
    return (lambda cols, texts: False) if spec.metadata else None


def _full_metadata(checker: RowChecker, row: dict, line: int | None, column: int | None) -> None:
    name = checker.spec.metadata
    if name and name in row:
        checker.metadata.check(row[name], line, column)


def _label_column(spec: ColumnSpec) -> str | None:
    return TRUTH if TRUTH in spec.keys else LABEL if LABEL in spec.keys else None


def _quick_tests(spec: ColumnSpec, tag: str) -> Quick | None:
    name = _label_column(spec)
    if name is None:
        return None
    # most labels fail the C-level prefix test; only one that may open a JSON object is parsed
    return (f"(({tag}v := row[{tag}col]).__class__ is not str or not {tag}v.startswith({tag}opens) or {tag}ok({tag}v))",
            {f"{tag}ok": code_tests.parses_as_tests, f"{tag}col": name, f"{tag}opens": code_tests.OPENS})


def _many_tests(spec: ColumnSpec) -> Many | None:
    name = _label_column(spec)
    if name is None:
        return None
    # a batch with a label that may open a JSON object is tested row by row: one search of the joined labels
    # for a NUL followed by such a first character (an empty label has none: the required rule has it)
    opens = _opens_pattern()
    return lambda cols, texts: (text := _joined(cols, texts, name)) is not None and opens.search(text) is None


@functools.cache
def _opens_pattern() -> re.Pattern[str]:
    assert all(len(o) == 1 for o in code_tests.OPENS)  # first characters
    return re.compile("\x00[" + re.escape("".join(code_tests.OPENS)) + "]")


def _full_tests(checker: RowChecker, row: dict, line: int | None, column: int | None) -> None:
    name = _label_column(checker.spec)
    value = row.get(name) if name else None
    if not code_tests.looks_like_tests(value):
        return
    problem = code_tests.problem_of_tests(value)
    if problem is not None:
        checker.findings.add("bad-tests", f"`{name}` begins like a code task's tests ({{\"function\": ...}}), but they do not "
                             f"parse: {problem}; the grader scores every answer to this row 0", line, column,
                             'Write the label as JSON text: {"function": NAME, "tests": [{"input": [ARGS...], "output": VALUE}, ...]}.')


# In order: the key test comes first, so the others may index the row by the spec's columns.
ROW_RULES: tuple[RowRule, ...] = (
    RowRule("same keys as the first row", ("divergent-keys",), _quick_keys, _full_keys),
    RowRule("prompt and answer non-empty strings", ("null-value", "not-string", "empty-value", "blank-value"),
            _quick_required, _full_required, _many_required),
    RowRule("system prompt a string", ("not-string",), _quick_strings, _full_strings, _many_strings),
    RowRule("metadata a valid object, one type per key", ("metadata",), _quick_metadata, _full_metadata, _many_metadata),
    RowRule("a code task's tests parse", ("bad-tests",), _quick_tests, _full_tests, _many_tests),
)


def compile_quick(spec: ColumnSpec) -> Test | None:
    """Every rule's cheap test for files of ``spec``, compiled into one function: one call a row, as
    fast as the hand-inlined tests it replaces. None when a rule wants every row checked in full."""
    parts = [rule.quick(spec, f"_r{i}_") for i, rule in enumerate(ROW_RULES)]
    parts = [p for p in parts if p is not None]
    if ALWAYS_FULL in parts:
        return None
    namespace: dict[str, object] = {"__builtins__": {}, "str": str}
    for _, bound in parts:
        namespace.update(bound)
    return eval("lambda row: " + (" and ".join(f"({expr})" for expr, _ in parts) or "True"), namespace)


def compile_many(spec: ColumnSpec) -> Callable[[list[dict]], Columns | None]:
    """Every rule's cheap test of a batch of dicts at once, in C-level passes over its columns: the
    batch's columns when every row passes every test (None when one may not: the batch is then tested
    row by row with :func:`compile_quick`'s test, so a wrong None costs time, never a finding). The key
    test is the fetch: a row with as many keys as the spec and each of the spec's keys has exactly them."""
    tests = [t for t in (rule.many(spec) for rule in ROW_RULES) if t is not None]
    width, getters = len(spec.keys), [(name, itemgetter(name)) for name in sorted(spec.keys)]

    def columns(rows: list[dict]) -> Columns | None:
        if set(map(len, rows)) != {width}:
            return None
        try:
            cols = {name: list(map(get, rows)) for name, get in getters}
        except KeyError:
            return None
        texts: dict[str, str] = {}
        return cols if all(test(cols, texts) for test in tests) else None

    return columns


_DICT = {dict}


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
        self._many: Callable[[list[dict]], Columns | None] | None = None  # the same of a batch (compile_many)
        self._rows: list[dict] = []  # rows taken, not yet handed to the profile
        self._lines: list[int] = []
        self._clean = True  # every row of self._rows passed every cheap test
        self._cols: Columns | None = None  # self._rows' columns, when every one came with them (take_many)
        if spec is not None:
            self._fix(spec)

    def _fix(self, spec: ColumnSpec) -> None:
        self.spec = spec
        self._fast = compile_quick(spec)
        self._many = compile_many(spec) if self._fast is not None else None
        if self._profiling:
            # a range of the parallel reader (it has a share of the cap) keeps order, to be merged
            ordered = self.findings.keep_order or self._digest_cap is not None
            self.profile = Profile(spec, self._digest_cap, ordered)
            self.findings.profile = self.profile

    def take(self, row: object, line: int | None, column: int | None = None) -> bool:
        """The hook: ``row`` through every rule (the full checks only where a cheap test fails) and
        into the profile; True when it is an object, so it counts as a row. A reader calls
        :meth:`finish` after its last row."""
        fast = row.__class__ is dict and self._fast is not None and self._fast(row)
        if not fast and not self.check(row, line, column):
            return False
        if self.profile is not None:
            self._cols = None  # a row taken alone: the pending rows' columns are not at hand
            self._rows.append(row)
            self._lines.append(line or 0)
            self._clean = self._clean and fast
            if len(self._rows) >= BLOCK_ROWS:
                self.finish()
        return True

    def take_many(self, rows: list, first_line: int) -> bool:
        """:meth:`take` of rows on consecutive lines from ``first_line``, when every one is an object
        passing every cheap test: then in C-level passes (:func:`compile_many`; row by row through the
        compiled test when a batch's columns do not pass), handed to the profile in the same blocks of
        BLOCK_ROWS as row by row (the label cap is checked per block), with the columns when a batch is
        one such block. False, having taken none, when a row is not such: the reader then takes them one by one."""
        fast = self._fast
        if fast is None or set(map(type, rows)) != _DICT:
            return False
        cols = self._many(rows)
        if cols is None and not all(map(fast, rows)):
            return False
        if self.profile is not None:
            if not self._rows and len(rows) == BLOCK_ROWS and cols is not None:  # the usual batch: one whole block
                self.profile.observe_block(rows, list(range(first_line, first_line + BLOCK_ROWS)), True, cols)
                return True
            self._pend(rows, first_line, cols)
        return True

    def _pend(self, rows: list[dict], first_line: int, cols: Columns | None) -> None:
        """Rows (that passed every cheap test) added to the rows pending for the profile, handed to it a
        block of BLOCK_ROWS at a time; their columns kept along while every pending row has them."""
        at, n = 0, len(rows)
        while at < n:
            cut = min(BLOCK_ROWS - len(self._rows), n - at)
            part = None if cols is None else {k: v[at : at + cut] for k, v in cols.items()}
            if not self._rows:
                self._cols = part
            elif self._cols is not None and part is not None:
                self._cols = {k: v + part[k] for k, v in self._cols.items()}
            else:
                self._cols = None
            self._rows += rows[at : at + cut]
            self._lines += range(first_line + at, first_line + at + cut)
            at += cut
            if len(self._rows) >= BLOCK_ROWS:
                self.finish()

    def finish(self) -> None:
        """Hand the rows taken so far to the profile (a block at a time: see Profile.observe_block)."""
        if self._rows and self.profile is not None:
            self.profile.observe_block(self._rows, self._lines, self._clean, self._cols)
        self._rows, self._lines, self._clean, self._cols = [], [], True, None

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
