"""`[tool.osmosis]` in the workspace's pyproject.toml: which checks run, per-file ignores, strictness
and extra required skills. Problems with the table itself are findings (SET rules), never crashes:
a bad setting is reported and left out, and the rest of the run goes on.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from osmosis_workspace.core.diagnostics import Diagnostic
from osmosis_workspace.core.names import name_problem
from osmosis_workspace.check.registry import RULES, rule
from osmosis_workspace.core.records import dataclass
from osmosis_workspace.core.suggest import closest
from osmosis_workspace.core.workspace import Workspace

PYPROJECT = "pyproject.toml"

UNKNOWN_SETTING = rule(
    "SET001", "unknown-setting", "settings", "warning",
    summary="A key under [tool.osmosis] that osmosis does not know.",
    why="A misspelt setting is silently ignored otherwise, so the checks you meant to turn off (or on) still run.",
    fix="Rename or remove the key; known keys: select, ignore, per-file-ignores, strict, extra-skills, rehearse.",
    example='[tool.osmosis]\nignores = ["SEC"]   # should be "ignore"',
    source="ours",
)
INVALID_SETTING = rule(
    "SET002", "invalid-setting", "settings", "error",
    summary="A [tool.osmosis] setting has the wrong type or an invalid value.",
    why="osmosis cannot guess what a malformed setting means, so it ignores it and the run may check more or less than you intended.",
    fix="Give the setting the documented type (lists of strings, a table of glob -> list of codes, a boolean).",
    example='[tool.osmosis]\nstrict = "yes"   # should be true',
    source="ours",
)
UNKNOWN_CODE = rule(
    "SET003", "unknown-rule-code", "settings", "warning",
    summary="An `# osmosis: ignore[...]` comment names a rule code that does not exist.",
    why="Suppressing a code that does not exist does nothing, which usually hides a typo. (In [tool.osmosis] "
        "select/ignore/per-file-ignores an unknown code is a usage error, exit 2, as on the command line.)",
    fix="Use a code (or prefix) listed by `osmosis doctor --list-checks`.",
    example="x = 1  # osmosis: ignore[CGF001]   (should be CFG001)",
    source="ours",
)

_LIST_OF_STR = "a list of strings"


@dataclass(frozen=True)
class Settings:
    select: tuple[str, ...] | None = None
    ignore: tuple[str, ...] = ()
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    strict: bool | None = None
    extra_skills: tuple[str, ...] = ()


def known_selector(selector: str) -> bool:
    """Whether ``selector`` names at least one registered rule (exactly or as a prefix)."""
    selector = selector.upper()
    return bool(selector) and any(code.startswith(selector) for code in RULES)


def suggest_code(selector: str) -> str | None:
    """The registered code or prefix closest to ``selector``, for a did-you-mean."""
    numbered = re.fullmatch(r"([A-Za-z]+)0*(\d+)", selector.strip())
    if numbered:  # `cfg3`, `CFG03`: the same family letters and number
        prefix, number = numbered.group(1).upper(), int(numbered.group(2))
        same = [c for c in RULES if c.rstrip("0123456789") == prefix and int(c[len(prefix):] or -1) == number]
        if same:
            return same[0]
    prefixes = {code.rstrip("0123456789") for code in RULES}
    return closest(selector.upper(), [*RULES, *sorted(prefixes)], cutoff=0.5)


def key_line(text: str, key: str, table: str = "tool.osmosis") -> int | None:
    """The 1-based line where ``key`` is set in ``[table]`` (or where ``[table.key]`` starts)."""
    header = re.compile(r"^\s*\[\s*([^\]]+?)\s*\]")
    assignment = re.compile(rf"""^\s*["']?{re.escape(key)}["']?\s*=""")
    inside = False
    for number, line in enumerate(text.splitlines(), start=1):
        m = header.match(line)
        if m:
            name = m.group(1).replace('"', "").replace("'", "").replace(" ", "")
            if name == f"{table}.{key}":
                return number
            inside = name == table
            continue
        if inside and assignment.match(line):
            return number
    return None


def _is_str_list(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


@dataclass(frozen=True)
class UnknownCode:
    """A code in select/ignore/per-file-ignores that names no rule: a usage error, not a finding."""

    where: str
    code: str
    line: int | None

    def message(self) -> str:
        at = f"{PYPROJECT}:{self.line}" if self.line else PYPROJECT
        guess = suggest_code(self.code)
        text = f"{at}: [tool.osmosis] {self.where} names {self.code!r}: no check has that code or prefix"
        return text + (f"; did you mean {guess!r}?" if guess else "")


class _Reader:
    """Reads one [tool.osmosis] table, collecting findings instead of raising."""

    def __init__(self, text: str):
        self.text = text
        self.found: list[Diagnostic] = []
        self.unknown: list[UnknownCode] = []

    def at(self, key: str, table: str = "tool.osmosis") -> int | None:
        line = key_line(self.text, key, table)
        if line is None and table != "tool.osmosis":  # inline-table form: point at the whole setting
            line = key_line(self.text, table.rsplit(".", 1)[1])
        return line

    def invalid(self, key: str, message: str, table: str = "tool.osmosis") -> None:
        line = self.at(key, table)
        self.found.append(INVALID_SETTING.at(PYPROJECT, message, line=line, column=1 if line else None))

    def codes(self, key: str, value: Any, where: str, table: str = "tool.osmosis") -> tuple[str, ...] | None:
        if not _is_str_list(value):
            self.invalid(key, f"`{where}` must be {_LIST_OF_STR} of rule codes, not {type(value).__name__}", table)
            return None
        # A typo here would silently select nothing (or ignore nothing) and let CI pass everything:
        # collected for refuse_unknown_codes, which stops the run as a mistyped --select does.
        self.unknown += [UnknownCode(where, code, self.at(key, table)) for code in value if not known_selector(code)]
        return tuple(c.upper() for c in value if c.strip())


def _read_select(r: _Reader, value: Any, s: dict) -> None:
    # An empty list would silently turn every check off; it means "no restriction", like no key.
    s["select"] = r.codes("select", value, "select") or None


def _read_ignore(r: _Reader, value: Any, s: dict) -> None:
    s["ignore"] = r.codes("ignore", value, "ignore") or ()


def _read_per_file(r: _Reader, value: Any, s: dict) -> None:
    if not isinstance(value, dict):
        r.invalid("per-file-ignores", f"`per-file-ignores` must be a table of glob = [codes], not {type(value).__name__}")
        return
    entries = []
    for glob, codes in value.items():
        checked = r.codes(glob, codes, f"per-file-ignores.{glob}", table="tool.osmosis.per-file-ignores")
        if checked:
            entries.append((glob, checked))
    s["per_file_ignores"] = tuple(entries)


def _read_strict(r: _Reader, value: Any, s: dict) -> None:
    if isinstance(value, bool):
        s["strict"] = value
    else:
        r.invalid("strict", f"`strict` must be true or false, not {value!r}")


def _read_extra_skills(r: _Reader, value: Any, s: dict) -> None:
    if not _is_str_list(value):
        r.invalid("extra-skills", f"`extra-skills` must be {_LIST_OF_STR} of skill names, not {type(value).__name__}")
        return
    good = []
    for name in value:
        problem = name_problem(name, kind="skill")
        if problem:
            r.invalid("extra-skills", f"`extra-skills`: {problem}")
        else:
            good.append(name)
    s["extra_skills"] = tuple(dict.fromkeys(good))


def _read_rehearse(r: _Reader, value: Any, s: dict) -> None:
    # Read by `osmosis rehearse`; doctor reports a malformed value so it is fixed before a rehearsal.
    from osmosis_workspace.core.rehearse_settings import parse

    for key, message in parse(value)[1]:
        r.invalid(key, message, table="tool.osmosis.rehearse")


_READERS: dict[str, Callable[[_Reader, Any, dict], None]] = {
    "select": _read_select,
    "ignore": _read_ignore,
    "per-file-ignores": _read_per_file,
    "strict": _read_strict,
    "extra-skills": _read_extra_skills,
    "rehearse": _read_rehearse,
}
KNOWN_SETTINGS = tuple(_READERS)


def load_settings(ws: Workspace) -> tuple[Settings, list[Diagnostic]]:
    """The workspace's settings and the findings about them (unknown keys, wrong types, unknown codes).

    Read once per snapshot: doctor, the skills check (extra-skills) and validate (once per file
    named) all ask."""
    settings, found, _ = ws.memo("settings", lambda: _read_settings(ws))
    return settings, list(found)


def refuse_unknown_codes(ws: Workspace) -> None:
    """Raise a UserError (exit 2) naming the first unknown code in select/ignore/per-file-ignores."""
    from osmosis_workspace.core.errors import UserError

    unknown = ws.memo("settings", lambda: _read_settings(ws))[2]
    if unknown:
        more = f" (and {len(unknown) - 1} more)" if len(unknown) > 1 else ""
        raise UserError(unknown[0].message() + more, hint="`osmosis doctor --list-checks` lists every code")


def _read_settings(ws: Workspace) -> tuple[Settings, list[Diagnostic], list[UnknownCode]]:
    table = ws.pyproject.get("tool", {}).get("osmosis", {})
    text = ws.read_text(ws.root / PYPROJECT) or ""
    reader = _Reader(text)
    if not isinstance(table, dict):
        reader.invalid("osmosis", "`tool.osmosis` must be a table", table="tool")
        return Settings(), reader.found, reader.unknown
    values: dict = {}
    for key, value in table.items():
        read = _READERS.get(key)
        if read is not None:
            read(reader, value, values)
            continue
        guess = closest(key, KNOWN_SETTINGS)
        line = reader.at(key)
        reader.found.append(
            UNKNOWN_SETTING.at(PYPROJECT, f"unknown setting `{key}` in [tool.osmosis]" + (f"; did you mean `{guess}`?" if guess else ""), line=line, column=1 if line else None)
        )
    return Settings(**values), reader.found, reader.unknown


def extra_skills(ws: Workspace) -> list[str]:
    """Skill names the workspace requires beyond the bundled ones (`extra-skills`), valid names only.

    For the skills check: each name must have a `.agents/skills/<name>/` like the bundled skills.
    Type errors in the setting are reported by doctor (SET002), not here.
    """
    return list(load_settings(ws)[0].extra_skills)
