"""Stage 2, select: `--select`/`--ignore` and `[tool.osmosis]` decide which codes are kept, then
`per-file-ignores`. Command-line flags win over the file: a code named by `--select` is reported
even when the file ignores it."""

from __future__ import annotations

import fnmatch

from osmosis_workspace.core.diagnostics import Diagnostic
from osmosis_workspace.check.registry import RULES, matches
from osmosis_workspace.check.pipeline.attributed import Finding
from osmosis_workspace.core.records import dataclass, replace


@dataclass(frozen=True)
class Selection:
    select: tuple[str, ...] | None = None  # None: everything
    ignore: tuple[str, ...] = ()
    file_ignore: tuple[str, ...] = ()  # from [tool.osmosis]; loses to an explicit --select
    cli_select: tuple[str, ...] = ()
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()

    def active(self, code: str) -> bool:
        # As in ruff, the more specific selector wins: `--select CFG003 --ignore CFG` keeps CFG003,
        # `--select CFG --ignore CFG003` drops it; at equal length the ignore wins.
        chosen = 0 if self.select is None else _longest(code, self.select)
        if chosen < 0 or _longest(code, self.ignore) >= chosen:
            return False
        return not (matches(code, list(self.file_ignore)) and not matches(code, list(self.cli_select)))

    def active_selector(self, selector: str) -> bool:
        """Whether any rule named by ``selector`` (a code or prefix) is checked."""
        return any(self.active(code) for code in RULES if code.startswith(selector))

    def keeps_settings_finding(self, d: Diagnostic) -> bool:
        """A finding about `[tool.osmosis]` itself: `select` does not hide it (a misspelt setting
        would silently do nothing), only an explicit ignore does."""
        return replace(self, select=None).keeps(d)

    def keeps(self, d: Diagnostic) -> bool:
        if not self.active(d.code):
            return False
        if d.path is not None:
            for glob, codes in self.per_file_ignores:
                if fnmatch.fnmatch(d.path, glob) and matches(d.code, list(codes)):
                    return False
        return True


def _longest(code: str, selectors: tuple[str, ...]) -> int:
    """The length of the longest selector naming ``code`` (-1: none does)."""
    return max((len(s) for s in selectors if matches(code, [s])), default=-1)


def selection_for(cli_select: tuple[str, ...], cli_ignore: tuple[str, ...], settings) -> Selection:
    return Selection(
        select=cli_select or settings.select,
        ignore=cli_ignore,
        # The file's ignore list applies unless the command line selected explicitly.
        file_ignore=settings.ignore,
        cli_select=cli_select,
        per_file_ignores=settings.per_file_ignores,
    )


def families_to_run(selection: Selection, checks: list[tuple[str, object]]) -> list[str]:
    """Families with at least one checked rule; a family that declared no rules runs unless --select."""
    run = []
    for family in dict.fromkeys(f for f, _ in checks):
        codes = [c for c, r in RULES.items() if r.family == family]
        if any(selection.active(c) for c in codes) or (not codes and selection.select is None):
            run.append(family)
    return run


def select(findings: list[Finding], settings_found: list[Diagnostic], selection: Selection) -> list[Finding]:
    """The findings the selection keeps, and the findings about `[tool.osmosis]` itself."""
    kept = [f for f in findings if selection.keeps(f.diagnostic)]
    return kept + [Finding("settings", d) for d in settings_found if selection.keeps_settings_finding(d)]
