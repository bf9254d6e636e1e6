"""Column rules shared by every format: which columns a dataset needs and what each row must hold.

Contract section 4, as osmosis-ai's `dataset validate` (platform/cli/dataset.py) and `eval run`
(eval/local/dataset.py) read it. "Prompt mode": ``user_prompt`` and ``ground_truth`` (or its alias
``label``) are required non-empty strings; ``system_prompt`` is a usual, optional string.
"Metadata mode": a file with a ``metadata`` column needs no other column; every row's metadata is a
non-empty JSON object (native, or JSON text in a string) with no nested empty object, integers that
fit in 64 bits, and one JSON type per key path across rows (null aside; integers and floats are
both numbers). Other columns are allowed. Names are case-sensitive, so a near miss
(``User_Prompt``, ``userprompt``) is reported with the name it should have.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable

from osmosis_workspace.core.bounded import MAX_DATA_NESTING, json_loads
from osmosis_workspace.core.diagnostics import EXCERPT
from osmosis_workspace.core.records import dataclass
from osmosis_workspace.core.suggest import closest
from osmosis_workspace.readers.datasets.capped import Findings
from osmosis_workspace.readers.datasets.decode import loads

NAME_EXCERPT = 40  # characters of one column name a message quotes

USER, TRUTH, LABEL, SYSTEM, METADATA = "user_prompt", "ground_truth", "label", "system_prompt", "metadata"
KNOWN = (USER, TRUTH, LABEL, SYSTEM, METADATA)


def near_miss(wanted: str, present: Iterable[str]) -> str | None:
    """A present column that is probably a misspelling of ``wanted`` (case, separators, a typo)."""
    return closest(wanted, [p for p in present if p not in KNOWN], cutoff=0.8)


def shown(name: str) -> str:
    """A column name as messages show it: in backticks, or JSON-quoted when it has odd characters;
    at most an excerpt (a "column name" can be a whole file: a CSV that is not one)."""
    if len(name) > NAME_EXCERPT:
        return json.dumps(name[:NAME_EXCERPT]) + f"… ({len(name) - NAME_EXCERPT} more characters)"
    return f"`{name}`" if name.isprintable() and name and "`" not in name else json.dumps(name)


def shown_list(names: Iterable[str], limit: int = 10) -> str:
    """Up to ``limit`` names, and no more than about EXCERPT characters of them in all."""
    names = sorted(names)
    parts: list[str] = []
    for name in names[:limit]:
        parts.append(shown(name))
        if sum(map(len, parts)) >= EXCERPT:
            break
    text = ", ".join(parts)
    return text + (f" and {len(names) - len(parts)} more" if len(names) > len(parts) else "")


def json_type(value: object) -> str:
    """The JSON name of a decoded value's type, as messages show it."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


@dataclass(frozen=True)
class ColumnSpec:
    """What every row of one file is checked against, fixed by its header (or first object row)."""

    keys: frozenset[str]
    line: int | None  # where the header / first row is
    nonempty: tuple[str, ...]  # must be non-empty strings
    strings: tuple[str, ...]  # must be strings (may be empty)
    metadata: str | None  # the metadata column, when the file has one

    @classmethod
    def from_columns(cls, columns: list[str], line: int | None, findings: Findings) -> "ColumnSpec":
        """The spec for ``columns`` (in file order), recording problems with the columns themselves."""
        for name, n in Counter(columns).items():
            if n > 1:
                findings.add("duplicate-column", f"column {shown(name)} appears {n} times: the platform accepts it and "
                             "keeps the last one's values, dropping the others without a word", line)
        present = set(columns)
        metadata = METADATA if METADATA in present else None
        if USER not in present and metadata is None:
            _missing(findings, USER, present, line, "the prompt the model answers")
        if TRUTH in present and LABEL in present:
            findings.add(
                "ambiguous-label",
                f"both `{TRUTH}` and its alias `{LABEL}` are columns: the platform accepts it and uses `{TRUTH}` "
                f"(`{LABEL}` only where it is empty), so keep one to make clear which answer the grader gets",
                line,
            )
        elif TRUTH not in present and LABEL not in present and metadata is None:
            _missing(findings, TRUTH, present, line, "the reference answer the grader receives", alias=LABEL)
        if SYSTEM not in present and (metadata is None or USER in present):  # metadata alone: the workflow builds the prompt
            guess = near_miss(SYSTEM, present)
            if guess:
                _misspelt(findings, f"`{SYSTEM}`", guess, SYSTEM, line)
            else:
                findings.add("no-system-prompt", f"no `{SYSTEM}` column: rows reach the model without a system message", line)
        # In metadata mode the prompt columns are optional, row by row too (`eval run` reads an
        # empty one as absent), so only prompt mode requires their values.
        nonempty = tuple(c for c in (USER, TRUTH, LABEL) if c in present) if metadata is None else ()
        strings = (SYSTEM,) if SYSTEM in present else ()
        return cls(frozenset(present), line, nonempty, strings, metadata)


def _missing(findings: Findings, wanted: str, present: set[str], line: int | None, role: str, alias: str | None = None) -> None:
    guess, target = near_miss(wanted, present), wanted
    if guess is None and alias:
        guess, target = near_miss(alias, present), alias
    name = f"`{wanted}` (or `{alias}`)" if alias else f"`{wanted}`"
    if guess:
        _misspelt(findings, name, guess, target, line)
    else:
        others = sorted(present - {USER, TRUTH, LABEL, SYSTEM, METADATA})
        hint = (f"add a `{wanted}` column, or rename the column that holds {role} "
                f"({' or '.join(shown(c) for c in others[:3])}{', ...' if len(others) > 3 else ''}) to `{wanted}`"
                if others else f"add a `{wanted}` column ({role}) to every row")
        findings.add("missing-column", f"no {name} column ({role}); columns are: {shown_list(present) or 'none'}", line,
                     hint=hint)


def _misspelt(findings: Findings, name: str, guess: str, target: str, line: int | None) -> None:
    findings.add(
        "missing-column",
        f"no {name} column, but there is {shown(guess)} (column names must match exactly, case included)",
        line,
        hint=f"rename {shown(guess)} to `{target}`",
    )


def not_string(name: str, value: object) -> str:
    """Why a non-string value that the platform accepts (it stringifies it) is still worth fixing."""
    if value is None:  # only system_prompt gets here; a null prompt or answer is missing, not this
        return (f"`{name}` is null: the platform accepts it and sends this row without a system message, but other "
                'readers expect one type per column (write "" for no system message)')
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return (f"`{name}` is a number, not a string: the platform accepts it and turns it into the text "
                f"{str(value)!r}, which may not be the spelling you compare with")
    return (f"`{name}` is {json_type(value)}, not a string: the platform accepts it and turns it into Python's "
            f"text of it ({str(value)[:40]!r}), not JSON")


def quote_hint(name: str, value: object) -> str:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return f'write the value as a string: "{name}": "{value}"'
    return f'give `{name}` a string value in every row: "{name}": "..."'


INT64 = (-(2**63), 2**63 - 1)
# A number of 19 or more digits: orjson turns integers beyond 64 bits into floats, so text holding
# one is decoded again with the standard library, which keeps them exact.
_LONG_NUMBER = re.compile(rb"\d{19}")


def loads_exact(data: bytes | str) -> object:
    """JSON text decoded with integers kept exact (orjson's answer where it can, json where it would round)."""
    raw = data.encode() if isinstance(data, str) else data
    if _LONG_NUMBER.search(raw):
        return json_loads(raw, limit=MAX_DATA_NESTING)
    return loads(raw)


def _metadata_type(value: object) -> str:
    """The JSON type the platform compares across rows: int and float are one "number"."""
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    return json_type(value).split(" ", 1)[1]


def _nested_empty(value: object) -> bool:
    """Whether a metadata object holds an empty object below its top level."""
    stack = list(value.values()) if isinstance(value, dict) else []
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            if not item:
                return True
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def _big_int(value: object) -> bool:
    """Whether a metadata value holds an integer outside int64 (the platform stores it in Arrow)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, int) and not isinstance(item, bool):
            if not INT64[0] <= item <= INT64[1]:
                return True
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


class MetadataChecker:
    """The metadata-mode rules for one file's `metadata` values, row after row (osmosis-ai
    dataset.py ``_check_metadata_value``): a non-empty object, or JSON text of one; no nested `{}`;
    integers within int64; each key path (``$.a.b``, ``$.list[]``) of one JSON type in every row.
    Memory grows with the number of distinct key paths, not with the rows."""

    def __init__(self, findings: Findings):
        self.findings = findings
        self.types: dict[str, tuple[str, int | None]] = {}  # key path -> (type, line first seen)

    def check(self, value: object, line: int | None, column: int | None = None, prefix: str = "") -> None:
        """``prefix`` names the row where there is no line (parquet: "row 7: ")."""

        def add(kind: str, message: str, line: int | None, column: int | None, hint: str | None = None) -> None:
            self.findings.add(kind, prefix + message, line, column, hint)

        if value is None:
            add("metadata", "`metadata` is null; metadata mode needs a non-empty JSON object in every row", line, column)
            return
        if isinstance(value, str):
            if not value.strip():
                add("metadata", "`metadata` is empty; metadata mode needs a non-empty JSON object in every row", line, column)
                return
            try:
                value = loads_exact(value)
            except (ValueError, RecursionError):  # orjson's and json's decode errors are ValueErrors
                add("metadata", "`metadata` is not valid JSON text", line, column)
                return
        if not isinstance(value, dict):
            add("metadata", f"`metadata` is {json_type(value)}, not a JSON object", line, column)
        elif not value:
            add("metadata", "`metadata` is an empty object", line, column)
        elif _nested_empty(value):
            add("metadata", "`metadata` holds an empty object ({}) below its top level, which the platform cannot store",
                line, column, "remove that key or give the object at least one key")
        elif _big_int(value):
            add("metadata", "`metadata` holds an integer that does not fit in 64 bits, which the platform cannot store",
                line, column, "store it as a string, or as a smaller number")
        else:
            self._agree(value, line, column, add)

    def _agree(self, value: dict, line: int | None, column: int | None, add) -> None:
        stack: list[tuple[str, object]] = [("$", value)]
        clash = None
        while stack:
            path, item = stack.pop()
            if item is None:
                continue
            kind = _metadata_type(item)
            seen = self.types.setdefault(path, (kind, line))
            if seen[0] != kind:
                clash = clash or (path, kind, seen)
                continue  # the rest of the row still records its types, as the platform's check does
            if isinstance(item, dict):
                stack.extend((f"{path}.{key}", child) for key, child in reversed(item.items()))
            elif isinstance(item, list):
                stack.extend((f"{path}[]", child) for child in reversed(item))
        if clash:
            path, kind, (first, first_line) = clash
            where = f" (line {first_line})" if first_line else ""
            add("metadata", f"`metadata` at {path} is {_article(kind)} here but {_article(first)} in an earlier row{where}; "
                "the platform needs one type per key across rows", line, column,
                "give the key the same JSON type in every row (null is allowed anywhere)")


def _article(kind: str) -> str:
    return ("an " if kind[0] in "aeiou" else "a ") + kind
