"""The rule registry: every diagnostic code, its name, severity, docs and fixability, in one table.

Check modules declare their rules with :func:`rule` at import time; ``--list-checks``,
``--select``/``--ignore``, the generated ``docs/checks.md`` and the reporters all read this table.
A retired code is never reused: add a new one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from osmosis_workspace.core.diagnostics import Diagnostic, Severity
from osmosis_workspace.core.rules import FAMILIES, FIXABILITY, Rule  # noqa: F401  (the table's types; checks import them from here)
from osmosis_workspace.core.workspace import Workspace

RULES: dict[str, Rule] = {}
_NAMES: set[str] = set()  # every name :func:`rule` declared (tests empty and refill RULES; this only grows)


def rule(
    code: str,
    name: str,
    family: str,
    severity: Severity | str,
    summary: str,
    why: str,
    fix: str,
    example: str = "",
    fixable: bool | str = False,
    source: str = "",
) -> Rule:
    """Declare a rule. Codes and names are unique; the family must be one of :data:`FAMILIES`.
    ``fixable``: "safe", "unsafe" or "none" (True means "safe", False "none")."""
    if family not in FAMILIES:
        raise ValueError(f"unknown family {family!r} for {code}")
    if code in RULES:
        raise ValueError(f"duplicate rule code {code}")
    if name in _NAMES and any(r.name == name for r in RULES.values()):  # the scan only for a name seen before
        raise ValueError(f"duplicate rule name {name}")
    fixability = {True: "safe", False: "none"}.get(fixable, fixable) if isinstance(fixable, bool) else fixable
    if fixability not in FIXABILITY:
        raise ValueError(f"{code}: fixable must be one of {FIXABILITY}, not {fixable!r}")
    declared = Rule(code, name, family, Severity(severity), summary, why, fix, example, fixability, source)
    RULES[code] = declared
    _NAMES.add(name)
    return declared


def family_rules(family: str) -> Callable[..., Rule]:
    """:func:`rule` with the family filled in, for a module that declares one family's rules."""
    if family not in FAMILIES:
        raise ValueError(f"unknown family {family!r}")

    def declare(code: str, name: str, severity: Severity | str, summary: str, why: str, fix: str,
                example: str = "", fixable: bool | str = False, source: str = "") -> Rule:  # fmt: skip
        return rule(code, name, family, severity, summary, why, fix, example, fixable, source)

    return declare


def matches(code: str, selectors: list[str]) -> bool:
    """Whether ``code`` is named by any selector: an exact code or a prefix (``CFG`` or ``CFG1``)."""
    return any(code.startswith(s.upper()) for s in selectors)


# -- whole-workspace checks ----------------------------------------------------------------------

WorkspaceCheck = Callable[[Workspace], Iterable[Diagnostic]]
CHECKS: list[tuple[str, WorkspaceCheck]] = []


def workspace_check(family: str) -> Callable[[WorkspaceCheck], WorkspaceCheck]:
    """Register ``fn`` as a whole-workspace check of ``family``."""

    def register(fn: WorkspaceCheck) -> WorkspaceCheck:
        CHECKS.append((family, fn))
        return fn

    return register


def run_workspace_checks(ws: Workspace, families: set[str] | None = None) -> list[Diagnostic]:
    """Every registered check over ``ws`` (only ``families`` when given), findings sorted."""
    found: list[Diagnostic] = []
    for family, fn in CHECKS:
        if families is None or family in families:
            found.extend(fn(ws))
    return sorted(found, key=Diagnostic.sort_key)
