"""Inline suppressions. At the end of a line, a comment hides those codes' findings on that line:

    `# osmosis: ignore[CODE1,CODE2]`        TOML, Python, YAML, and the front matter of a SKILL.md
    `<!-- osmosis: ignore[CODE] -->`        Markdown (a SKILL.md's body)

and `ignore-file[...]` in the same comment styles, on any line, hides them in the whole file.
Suppressions that hide nothing are reported (SET004, info), and so are codes that do not exist
(SET003), so stale comments do not pile up.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from pathlib import Path

from osmosis_workspace.core.paths import own_python_files
from osmosis_workspace.core.diagnostics import Diagnostic
from osmosis_workspace.core.records import dataclass
from osmosis_workspace.core.workspace import Workspace
from osmosis_workspace.check.registry import matches, rule
from osmosis_workspace.check.settings import UNKNOWN_CODE, known_selector, suggest_code
from osmosis_workspace.check.units import remember_each

HASH = re.compile(r"#\s*osmosis:\s*ignore(-file)?\[([^\]]*)\]", re.IGNORECASE)
HTML = re.compile(r"<!--\s*osmosis:\s*ignore(-file)?\[([^\]]*)\]\s*-->", re.IGNORECASE)
HASH_SUFFIXES = (".toml", ".py", ".yml", ".yaml")
SUFFIXES = (*HASH_SUFFIXES, ".md")  # files whose lines can carry a suppression

UNUSED_SUPPRESSION = rule(
    "SET004", "unused-suppression", "settings", "info",
    summary="An `# osmosis: ignore[...]` (or `ignore-file[...]`) comment that suppressed nothing in this run.",
    why="A suppression left behind after the problem is fixed would silently hide the next real problem on that line.",
    fix="Remove the code from the comment (or the whole comment).",
    example='limit = 10  # osmosis: ignore[CFG010]   (CFG010 no longer fires here)',
    source="ours",
)


@dataclass(frozen=True)
class Suppression:
    path: str  # workspace-relative, as diagnostics carry it
    line: int
    column: int
    codes: tuple[str, ...]
    whole_file: bool = False

    def to_dict(self) -> dict:
        return {"path": self.path, "line": self.line, "column": self.column, "codes": list(self.codes), "whole_file": self.whole_file}

    @classmethod
    def from_dict(cls, data: dict) -> "Suppression":
        return cls(str(data["path"]), int(data["line"]), int(data["column"]), tuple(map(str, data["codes"])), bool(data["whole_file"]))


def front_matter_end(lines: list[str]) -> int:
    """The 1-based line of the `---` closing a Markdown file's YAML front matter (0: none)."""
    if not lines or lines[0].strip() != "---":
        return 0
    return next((n for n, line in enumerate(lines[1:], start=2) if line.strip() == "---"), 0)


def comment_style(path: str, lines: list[str], number: int, front_end: int | None = None) -> re.Pattern | None:
    """Which comment can carry a suppression on line ``number`` of ``path`` (None: no comment there);
    ``front_end``: :func:`front_matter_end` of ``lines`` when the caller has it."""
    if path.endswith(HASH_SUFFIXES):
        return HASH
    if path.endswith(".md"):
        return HASH if 1 < number < (front_matter_end(lines) if front_end is None else front_end) else HTML
    return None


def parse(text: str, path: str) -> list[Suppression]:
    found = []
    lines = text.splitlines()
    front_end = front_matter_end(lines)  # once a file, not once for each line naming osmosis (a skill's hundreds)
    for number, line in enumerate(lines, start=1):
        if "osmosis" not in line:
            continue
        style = comment_style(path, lines, number, front_end)
        m = style.search(line) if style is not None else None
        if m:
            codes = tuple(c.strip().upper() for c in m.group(2).split(",") if c.strip())
            found.append(Suppression(path, number, m.start() + 1, codes, whole_file=bool(m.group(1))))
    return found


PYTHON_SCAN_LIMIT = 5_000  # files per rollout whose comments are read; a rollout's own code is far fewer


def _candidates(ws: Workspace, paths: Iterable[str]) -> list[Path]:
    """The files outside the rollouts whose suppressions a run reads: the ones findings point at, and
    the files people annotate (pyproject, configs, skills' SKILL.md), even with no finding, so an
    unused suppression there is reported. (A rollout's own Python: `_rollout_marks`.)"""
    files = [ws.root / "pyproject.toml", *ws.config_files("eval"), *ws.config_files("training")]
    files += [d / "SKILL.md" for d in ws.skill_dirs]
    files += [ws.root / p for p in paths if p.endswith(SUFFIXES)]
    return list(dict.fromkeys(files))


def _marks(ws: Workspace, path: Path) -> list[Suppression]:
    if path.suffix not in SUFFIXES or ws.outside(path):
        return []
    text = ws.read_text(path)
    return parse(text, ws.rel(path)) if text is not None and "osmosis" in text else []


def _rollout_marks(ws: Workspace, rollout: Path) -> list[Suppression]:
    return [mark for path in own_python_files(rollout, PYTHON_SCAN_LIMIT) for mark in _marks(ws, path)]


CODEC = (Suppression.to_dict, Suppression.from_dict)  # how doctor's cache keeps a unit of them


def scan(ws: Workspace, paths: Iterable[str]) -> list[Suppression]:
    """Every suppression in the candidate files of a run whose findings name ``paths``, and in every
    rollout's own Python (one unit per rollout for doctor's cache: its folder is all it reads)."""
    # each file alone decides its marks: a unit of doctor's cache per file (a run's thousands of configs)
    found = remember_each(ws, "suppressions:", _candidates(ws, paths), _marks, CODEC)
    found += remember_each(ws, "rollout-suppressions:", ws.rollout_dirs, _rollout_marks, CODEC)
    return list(dict.fromkeys(found))  # a rollout file a finding names is read both ways


def apply(
    diagnostics: list[Diagnostic],
    suppressions: list[Suppression],
    active: Callable[[str], bool],
) -> tuple[list[Diagnostic], list[Diagnostic]]:
    """Split ``diagnostics`` into (kept, findings about the suppressions themselves).

    ``active(code)`` says whether a code was checked this run (a suppression of a deselected code is
    not "unused").
    """
    by_line = {(s.path, s.line): s for s in suppressions if not s.whole_file}
    by_file: dict[str, list[Suppression]] = {}
    for s in suppressions:
        if s.whole_file:
            by_file.setdefault(s.path, []).append(s)
    used: set[tuple[str, int, str]] = set()
    kept = []
    for d in diagnostics:
        options = [by_line[(d.path, d.line)]] if d.path and d.line and (d.path, d.line) in by_line else []
        options += by_file.get(d.path or "", [])
        hit = next(((s, c) for s in options for c in s.codes if matches(d.code, [c])), None)
        if hit is None:
            kept.append(d)
        else:
            used.add((hit[0].path, hit[0].line, hit[1]))
    notes = []
    for s in suppressions:
        comment = "ignore-file" if s.whole_file else "ignore"
        if not s.codes:
            notes.append(UNKNOWN_CODE.at(s.path, f"`osmosis: {comment}[]` names no code", line=s.line, column=s.column, hint=f"Name the codes to ignore: `# osmosis: {comment}[CFG001]`."))
        for code in s.codes:
            if not known_selector(code):
                guess = suggest_code(code)
                notes.append(UNKNOWN_CODE.at(
                    s.path, f"`osmosis: {comment}[...]` names {code!r}, which is not a rule code or prefix",
                    line=s.line, column=s.column, hint=f"Did you mean {guess!r}?" if guess else None,
                ))
            elif (s.path, s.line, code) not in used and active(code):
                where = "in this file" if s.whole_file else "on this line"
                notes.append(UNUSED_SUPPRESSION.at(s.path, f"suppression of {code} is unused {where}", line=s.line, column=s.column))
    return kept, notes
