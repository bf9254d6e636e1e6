"""Inline suppressions: a trailing `# osmosis: ignore[CODE1,CODE2]` on a line of a TOML file hides
those codes' findings on that line. Suppressions that hide nothing are reported (SET004, info), and
so are codes that do not exist (SET003), so stale comments do not pile up.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from generator.core.diagnostics import Diagnostic
from generator.check.registry import matches, rule
from generator.check.settings import UNKNOWN_CODE, known_selector, suggest_code

MARKER = re.compile(r"#\s*osmosis:\s*ignore\[([^\]]*)\]", re.IGNORECASE)
SUFFIXES = (".toml",)

UNUSED_SUPPRESSION = rule(
    "SET004", "unused-suppression", "settings", "info",
    summary="An `# osmosis: ignore[...]` comment that suppressed nothing in this run.",
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


def parse(text: str, path: str) -> list[Suppression]:
    found = []
    for number, line in enumerate(text.splitlines(), start=1):
        m = MARKER.search(line)
        if m:
            codes = tuple(c.strip().upper() for c in m.group(1).split(",") if c.strip())
            found.append(Suppression(path, number, m.start() + 1, codes))
    return found


def apply(
    diagnostics: list[Diagnostic],
    texts: dict[str, str],
    active: Callable[[str], bool],
) -> tuple[list[Diagnostic], list[Diagnostic]]:
    """Split ``diagnostics`` into (kept, findings about the suppressions themselves).

    ``texts`` maps workspace-relative TOML paths to their text; ``active(code)`` says whether a code
    was checked this run (a suppression of a deselected code is not "unused").
    """
    by_line: dict[tuple[str, int], Suppression] = {}
    for path, text in texts.items():
        for s in parse(text, path):
            by_line[(s.path, s.line)] = s
    used: set[tuple[str, int, str]] = set()
    kept = []
    for d in diagnostics:
        s = by_line.get((d.path, d.line)) if d.path and d.line else None
        hit = next((c for c in s.codes if matches(d.code, [c])), None) if s else None
        if hit is None:
            kept.append(d)
        else:
            used.add((s.path, s.line, hit))
    notes = []
    for s in by_line.values():
        if not s.codes:
            notes.append(UNKNOWN_CODE.at(s.path, "`# osmosis: ignore[]` names no code", line=s.line, column=s.column, hint="Name the codes to ignore: `# osmosis: ignore[CFG001]`."))
        for code in s.codes:
            if not known_selector(code):
                guess = suggest_code(code)
                notes.append(UNKNOWN_CODE.at(
                    s.path, f"`# osmosis: ignore[...]` names {code!r}, which is not a rule code or prefix",
                    line=s.line, column=s.column, hint=f"Did you mean {guess!r}?" if guess else None,
                ))
            elif (s.path, s.line, code) not in used and active(code):
                notes.append(UNUSED_SUPPRESSION.at(s.path, f"suppression of {code} is unused on this line", line=s.line, column=s.column))
    return kept, notes


def read_texts(root: Path, paths: list[Path], read: Callable[[Path], str | None]) -> dict[str, str]:
    """The text of each TOML file in ``paths`` keyed by its workspace-relative path."""
    texts = {}
    for p in paths:
        if p.suffix in SUFFIXES:
            text = read(p)
            if text is not None and "osmosis" in text:
                texts[p.relative_to(root).as_posix()] = text
    return texts
