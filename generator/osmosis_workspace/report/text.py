"""Human-readable report, in two forms, each ending in a one-line verdict.

`full` (the default): one line per group with a mark, passing groups too (issue 3: a clean run shows
what was checked), and under it each finding as `path:line:col: severity CODE message`, the source
line with a caret under the column, and the hint. `concise`: that one line per finding, sorted by
file and line, as ruff's and compilers' output reads (and editors jump to).
"""

from __future__ import annotations

from typing import TextIO

from osmosis_workspace.core.diagnostics import Diagnostic, Severity, plural, printable
from osmosis_workspace.report import Group, Report, worst

OUTPUT_FORMATS = ("full", "concise")
SNIPPET = 120  # the most of a source line shown; a longer line is cut around the column

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


def finding_line(d: Diagnostic, color: bool) -> str:
    """`configs/eval/a.toml:3:5: error CFG003 message`: where, how bad, which rule, what."""
    severity = _paint(d.severity.value, _COLOURS[d.severity], color)
    return f"{location(d)}: {severity} {_paint(d.code, '1', color)} {d.message}"


def snippet(raw: str, column: int | None, width: int = SNIPPET) -> tuple[str, int | None]:
    """``raw`` as it may be printed (escaped, tabs as spaces, at most ``width`` characters of it, cut
    around ``column``) and where the caret goes under it (None without a column)."""
    text = raw.replace("\t", " ")
    at = min(max((column or 1) - 1, 0), len(text))
    start = 0 if len(text) <= width else max(0, min(at - width // 2, len(text) - width))
    piece = text[start:start + width]
    before = "…" if start else ""
    shown = before + printable(piece) + ("…" if start + width < len(text) else "")
    return shown, None if column is None else len(before) + len(printable(piece[:at - start]))


def _source_lines(d: Diagnostic, report: Report) -> list[str]:
    raw = report.source(d) if report.source is not None and d.line is not None else None
    if raw is None:
        return []
    shown, caret = snippet(raw, d.column)
    gutter = " " * len(str(d.line))
    lines = [f"      {d.line} | {shown}".rstrip()]
    if caret is not None:
        lines.append(f"      {gutter} | {' ' * caret}{_paint('^', _COLOURS[d.severity], report.color)}")
    return lines


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
        lines.append(f"    {finding_line(d, report.color)}")
        lines.extend(_source_lines(d, report))
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
    if report.output_format == "concise":
        out.extend(finding_line(d, report.color) for d in sorted(report.diagnostics, key=Diagnostic.sort_key))
    else:
        for group in report.groups:
            out.extend(_group_lines(group, report, marks))
    if report.verbose:
        details = []
        if report.files_checked is not None:
            details.append(f"{plural(report.files_checked, 'file')} checked")
        if report.elapsed is not None:
            details.append(f"in {report.elapsed:.2f}s")
        if report.cache_note:
            details.append(f"({report.cache_note})")
        if details:
            out.append(" ".join(details))
    out.append(verdict(report))
    stream.write("\n".join(out) + "\n")
