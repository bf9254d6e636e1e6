"""Reporters turn a finished :class:`Report` into text on a stream; they know nothing about checks.

Each format lives in its own module and is imported only when chosen, so `doctor --format json`
never pays for the SARIF writer (or the other way round).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import TextIO

from osmosis_workspace.core.diagnostics import Diagnostic, Severity, Summary, printable
from osmosis_workspace.core.records import dataclass, field, replace
from osmosis_workspace.core.rules import Rule

@dataclass(frozen=True)
class Format:
    """One output format for findings: its module (``write(report, stream)``) and what the commands
    must do for it. Each column is read where it matters, so a new format is one row here."""

    module: str
    lists_fixes: bool = False  # the report lists --fix's repairs (Report.fixes); otherwise they go to stderr
    describes_rules: bool = False  # the report describes every rule (Report.rules: all rules loaded)
    statistics: bool = False  # `doctor --statistics` can be written in it


# Format name -> what it is; the keys are the CLI's --format choices for findings, in help order.
REPORTERS: dict[str, Format] = {
    "text": Format("osmosis_workspace.report.text", lists_fixes=True, statistics=True),
    "json": Format("osmosis_workspace.report.json", lists_fixes=True, statistics=True),
    "github": Format("osmosis_workspace.report.github"),
    "sarif": Format("osmosis_workspace.report.sarif", describes_rules=True),
}


def formats(**columns: bool) -> tuple[str, ...]:
    """The format names whose columns have the given values, in table order: ``formats(statistics=True)``."""
    return tuple(name for name, fmt in REPORTERS.items() if all(getattr(fmt, k) == v for k, v in columns.items()))


def formats_help(extra: str = "") -> str:
    """The --format help of a command that prints findings, from the table."""
    return f"Output: {', '.join(REPORTERS)}{extra}."


@dataclass
class Group:
    """One line of the text report: a check family (doctor) or a file (validate)."""

    label: str
    diagnostics: list[Diagnostic] = field(default_factory=list)
    note: str = ""  # e.g. why a group was skipped
    seconds: float | None = None  # how long its checks took (shown with --verbose)


@dataclass
class Report:
    diagnostics: list[Diagnostic]
    groups: list[Group] = field(default_factory=list)
    workspace: str | None = None
    strict: bool = False
    verbose: bool = False
    color: bool = False
    files_checked: int | None = None
    elapsed: float | None = None
    cache_note: str = ""  # what doctor's cache did (shown with --verbose)
    fixes: list[str] = field(default_factory=list)
    # The workspace root relative to the git top level ("" when they are the same): CI annotations
    # and SARIF locations are resolved against the repository, not the workspace.
    path_prefix: str = ""
    # What --fix / --select hints should call this command (doctor and validate differ).
    command: str = "osmosis doctor"
    # Every rule known to this run (SARIF describes them all); filled by the check wing.
    rules: list[Rule] = field(default_factory=list)
    # Text only: `full` (each finding with its source line and a caret) or `concise` (one line each).
    output_format: str = "full"
    # The raw text of a finding's line, when the check wing can show it (text escapes it, caps it).
    source: Callable[[Diagnostic], str | None] | None = None

    @property
    def summary(self) -> Summary:
        return Summary.of(self.diagnostics)

    @property
    def ok(self) -> bool:
        s = self.summary
        return s.errors == 0 and not (self.strict and s.warnings)

    @property
    def exit_code(self) -> int:
        return 0 if self.ok else 1

    def repo_path(self, diagnostic: Diagnostic) -> str | None:
        if diagnostic.path is None:
            return None
        return f"{self.path_prefix}/{diagnostic.path}" if self.path_prefix else diagnostic.path


Writer = Callable[[Report, TextIO], None]


def get_reporter(name: str) -> Writer:
    """The ``write(report, stream)`` function of format ``name`` (one of :data:`REPORTERS`), fed
    :func:`shown` reports: no format ever prints a control character a file name, key or value held."""
    write = importlib.import_module(REPORTERS[name].module).write
    return lambda report, stream: write(shown(report), stream)


def shown(report: Report) -> Report:
    """A copy of ``report`` with every text that came from the workspace escaped (once, for all formats):
    file names, keys and values can carry ESC, OSC, BEL, CR/LF or bytes that are not UTF-8."""
    escaped = {id(d): d.shown() for d in report.diagnostics}
    for group in report.groups:
        escaped.update({id(d): d.shown() for d in group.diagnostics if id(d) not in escaped})
    groups = [replace(g, label=printable(g.label), note=printable(g.note),
                                  diagnostics=[escaped[id(d)] for d in g.diagnostics]) for g in report.groups]
    return replace(
        report, diagnostics=[escaped[id(d)] for d in report.diagnostics], groups=groups,
        workspace=None if report.workspace is None else printable(report.workspace),
        fixes=[printable(f) for f in report.fixes], path_prefix=printable(report.path_prefix),
    )


def worst(diagnostics: list[Diagnostic]) -> Severity | None:
    return min((d.severity for d in diagnostics), key=lambda s: s.rank, default=None)
