"""Human-readable report: one line per group with a mark, findings under it, a one-line verdict.

Passing groups are listed too (issue 3: one line per check family), so a clean run shows what was
checked, not only that nothing was found.
"""

from __future__ import annotations

from typing import TextIO

from generator.core.diagnostics import Diagnostic, Severity, plural
from generator.report import Group, Report, worst

_MARKS = {None: "✓", Severity.ERROR: "✗", Severity.WARNING: "!", Severity.INFO: "i"}
_ASCII_MARKS = {None: "ok", Severity.ERROR: "x", Severity.WARNING: "!", Severity.INFO: "i"}
_COLOURS = {None: "32", Severity.ERROR: "31", Severity.WARNING: "33", Severity.INFO: "36"}


def _paint(text: str, code: str, on: bool) -> str:
    return f"\033[{code}m{text}\033[0m" if on else text


def _can_encode(stream: TextIO, text: str) -> bool:
    # A terminal or pipe without UTF-8 (e.g. LANG=C on Windows consoles) gets ASCII marks instead
    # of a UnicodeEncodeError.
    encoding = getattr(stream, "encoding", None) or "utf-8"
    try:
        text.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def location(d: Diagnostic) -> str:
    if d.path is None:
        return "(workspace)"
    where = d.path
    if d.line is not None:
        where += f":{d.line}"
        if d.column is not None:
            where += f":{d.column}"
    return where


def verdict(report: Report) -> str:
    s = report.summary
    if report.files_checked == 0 and not report.diagnostics:
        return "Nothing was checked."
    if not report.diagnostics:
        return "No issues found."
    parts = [plural(n, w) for n, w in ((s.errors, "error"), (s.warnings, "warning"), (s.infos, "info")) if n]
    line = ", ".join(parts)
    if report.strict and s.warnings and not s.errors:
        line += " (--strict: warnings fail the run)"
    fixable = sum(d.fixable for d in report.diagnostics)
    if fixable:
        line += f"; {fixable} fixable with `{report.command} --fix`"
    return line


def _group_lines(group: Group, report: Report, marks: dict) -> list[str]:
    level = worst(group.diagnostics)
    took = f" ({group.seconds:.2f}s)" if report.verbose and group.seconds is not None else ""
    if group.note and not group.diagnostics:
        return [f"- {group.label}: {group.note}{took}"]
    mark = _paint(marks[level], _COLOURS[level], report.color)
    lines = [f"{mark} {group.label}{took}"]
    hinted: set[tuple[str, str]] = set()
    for d in group.diagnostics:
        code = _paint(d.code, "1", report.color)
        lines.append(f"    {location(d)} {code} {d.message}")
        # the same code's same hint once per family: a reader skims repeats, a terminal scrolls them away
        if d.hint and (d.code, d.hint) not in hinted:
            hinted.add((d.code, d.hint))
            lines.append(f"      hint: {d.hint}")
    return lines


def write(report: Report, stream: TextIO) -> None:
    marks = _MARKS if _can_encode(stream, "✓✗") else _ASCII_MARKS
    out: list[str] = []
    for fix in report.fixes:
        out.append(f"fixed: {fix}")
    if report.fixes:
        out.append("")
    if report.verbose and report.workspace:
        out.append(f"workspace: {report.workspace}")
    for group in report.groups:
        out.extend(_group_lines(group, report, marks))
    if report.verbose:
        details = []
        if report.files_checked is not None:
            details.append(f"{plural(report.files_checked, 'file')} checked")
        if report.elapsed is not None:
            details.append(f"in {report.elapsed:.2f}s")
        if details:
            out.append(" ".join(details))
    out.append(verdict(report))
    stream.write("\n".join(out) + "\n")
