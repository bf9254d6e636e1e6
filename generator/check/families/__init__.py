"""Check families. Each module declares its rules (generator.check.registry.rule) and registers one or
more workspace checks with :func:`workspace_check`: pure functions from a Workspace snapshot to
diagnostics. Importing this package imports every family, which fills the rule table.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from generator.core.diagnostics import Diagnostic
from generator.core.workspace import Workspace

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


# Imported for their registrations; order does not matter.
from generator.check.families import configs, datasets, entrypoints, gitsync, layout, secrets, skills  # noqa: E402,F401
from generator.check.families import todos  # noqa: E402,F401  (LAY100: template placeholders)
from generator.check.families import leftovers  # noqa: E402,F401  (LAY110, LAY111: what an unfinished update leaves)
