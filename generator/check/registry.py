"""The rule registry: every diagnostic code, its name, severity, docs and fixability, in one table.

Check modules declare their rules with :func:`rule` at import time; ``--list-checks``,
``--select``/``--ignore``, the generated ``docs/checks.md`` and the reporters all read this table.
A retired code is never reused: add a new one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from generator.core.diagnostics import Diagnostic, Severity

# Families in the order doctor reports them; every rule belongs to one.
FAMILIES: dict[str, str] = {
    "layout": "Layout",
    "configs": "Configs",
    "secrets": "Secrets",
    "entrypoints": "Entrypoints",
    "datasets": "Datasets",
    "skills": "Skills",
    "git": "Git Sync",
    "settings": "Settings",
}


@dataclass(frozen=True)
class Rule:
    code: str
    name: str
    family: str
    severity: Severity
    summary: str  # what it checks, one line
    why: str  # why it matters
    fix: str  # the default hint shown with every finding
    example: str = ""  # a short broken example
    fixable: bool = False  # whether `doctor --fix` repairs it
    # Where the rule comes from: an osmosis-ai file (`osmosis_ai/platform/cli/dataset.py`), a
    # section of the workspace contract (`contract §3`), `skills-ref`, or `ours` (our own advice);
    # several joined with "; ". docs/checks.md shows it, so every verdict can be traced.
    source: str = ""

    def at(
        self,
        path: str | None,
        message: str,
        *,
        line: int | None = None,
        column: int | None = None,
        hint: str | None = None,
        severity: Severity | None = None,
    ) -> Diagnostic:
        """A finding of this rule at ``path`` (workspace-relative), optionally with a specific hint."""
        return Diagnostic(
            code=self.code,
            name=self.name,
            severity=severity or self.severity,
            message=message,
            hint=hint or self.fix,
            path=path,
            line=line,
            column=column,
            fixable=self.fixable,
        )


RULES: dict[str, Rule] = {}


def rule(
    code: str,
    name: str,
    family: str,
    severity: Severity | str,
    summary: str,
    why: str,
    fix: str,
    example: str = "",
    fixable: bool = False,
    source: str = "",
) -> Rule:
    """Declare a rule. Codes and names are unique; the family must be one of :data:`FAMILIES`."""
    if family not in FAMILIES:
        raise ValueError(f"unknown family {family!r} for {code}")
    if code in RULES:
        raise ValueError(f"duplicate rule code {code}")
    if any(r.name == name for r in RULES.values()):
        raise ValueError(f"duplicate rule name {name}")
    declared = Rule(code, name, family, Severity(severity), summary, why, fix, example, fixable, source)
    RULES[code] = declared
    return declared


def family_rules(family: str) -> Callable[..., Rule]:
    """:func:`rule` with the family filled in, for a module that declares one family's rules."""
    if family not in FAMILIES:
        raise ValueError(f"unknown family {family!r}")

    def declare(code: str, name: str, severity: Severity | str, summary: str, why: str, fix: str,
                example: str = "", fixable: bool = False, source: str = "") -> Rule:  # fmt: skip
        return rule(code, name, family, severity, summary, why, fix, example, fixable, source)

    return declare


def all_rules() -> list[Rule]:
    """Every rule, after importing every check module so the table is complete."""
    import generator.check.families  # noqa: F401  (imports register the rules)

    return sorted(RULES.values(), key=lambda r: (list(FAMILIES).index(r.family), r.code))


def matches(code: str, selectors: list[str]) -> bool:
    """Whether ``code`` is named by any selector: an exact code or a prefix (``CFG`` or ``CFG1``)."""
    return any(code.startswith(s.upper()) for s in selectors)
