"""Module docstrings that name rule codes or ranges (`ENT016-ENT018`) say what the modules declare, as
docs/checks.md is kept true by its own test: a range names only codes that exist, and a module that
declares rules and names a range of its own family covers each rule it declares."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from generator.check.doctor import load_rules

PACKAGE = Path(__file__).resolve().parents[2] / "generator"
RANGE = re.compile(r"\b([A-Z]{3})(\d{3})(?:-(?:\1)?(\d{3}))?\b")
DECLARED = re.compile(r"""(?:rule|family_rules\([^)]*\))\(\s*["']([A-Z]{3}\d{3})["']""")


def _named(docstring: str) -> list[tuple[str, int, int]]:
    """(prefix, first, last) for each code or range the text names."""
    return [(m[1], int(m[2]), int(m[3] or m[2])) for m in RANGE.finditer(docstring)]


def test_docstring_code_ranges_name_real_rules_and_cover_what_the_module_declares():
    codes = {r.code for r in load_rules()}
    prefixes = {c[:3] for c in codes}
    wrong = []
    for path in sorted(PACKAGE.rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        docstring = ast.get_docstring(ast.parse(source)) or ""
        named = [n for n in _named(docstring) if n[0] in prefixes]
        where = path.relative_to(PACKAGE.parent).as_posix()
        for prefix, first, last in named:
            for end in {first, last}:
                if f"{prefix}{end:03d}" not in codes:
                    wrong.append(f"{where}: names {prefix}{end:03d}, which no rule has")
        declared = set(DECLARED.findall(source)) | {c for c in re.findall(r'"([A-Z]{3}\d{3})", "[a-z-]+", FAMILY', source)}
        ranged = {p for p, first, last in named if first != last}
        for code in sorted(declared):
            if code[:3] in ranged and not any(p == code[:3] and first <= int(code[3:]) <= last for p, first, last in named):
                wrong.append(f"{where}: declares {code} but its docstring's range leaves it out")
    assert wrong == [], "\n".join(wrong)
