"""Doctor's findings, rules and fixes in the Language Server Protocol's shapes (lsprotocol types).

LSP positions are 0-based and count UTF-16 code units; a finding's line and column are 1-based and
count characters, so every column is converted through the line's own text.
"""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types

from osmosis_workspace.core.diagnostics import Diagnostic, printable
from osmosis_workspace.core.rules import Rule

SOURCE = "osmosis"
SEVERITY = {"error": types.DiagnosticSeverity.Error, "warning": types.DiagnosticSeverity.Warning,
            "info": types.DiagnosticSeverity.Information}


def utf16(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def finding_range(d: Diagnostic, text: str) -> types.Range:
    """From the finding's column (its line's start when it has none) to the end of its line."""
    lines = text.split("\n")
    line = min(max((d.line or 1) - 1, 0), max(len(lines) - 1, 0))
    content = lines[line] if lines else ""
    column = min(max((d.column or 1) - 1, 0), len(content))
    start = utf16(content[:column])
    end = utf16(content)
    return types.Range(types.Position(line, start), types.Position(line, max(end, start)))


def diagnostic(d: Diagnostic, text: str) -> types.Diagnostic:
    shown = d.shown()  # escaped and capped as every reporter prints it
    return types.Diagnostic(
        range=finding_range(d, text),
        message=f"{shown.message}\nhint: {shown.hint}" if shown.hint else shown.message,
        severity=SEVERITY.get(d.severity.value, types.DiagnosticSeverity.Information),
        code=d.code,
        source=SOURCE,
        data={"name": d.name, "fixable": d.fixable},
    )


def hover_text(rule: Rule) -> str:
    """A rule explained (Markdown): what it checks, why, how to fix, whether `--fix` can."""
    fixing = {"safe": "`osmosis doctor --fix` repairs it (also a quick fix here).",
              "unsafe": "`osmosis doctor --fix --unsafe-fixes` repairs it; review `--diff` first."}
    parts = [f"**{rule.code}** `{rule.name}` ({rule.severity.value})", rule.summary,
             f"**Why:** {rule.why}", f"**Fix:** {rule.fix}"]
    if rule.fixability in fixing:
        parts.append(fixing[rule.fixability])
    if rule.source:
        parts.append(f"Source: {rule.source}")
    return "\n\n".join(printable(p) for p in parts)


def contains(r: types.Range, pos: types.Position) -> bool:
    return (r.start.line, r.start.character) <= (pos.line, pos.character) <= (r.end.line, r.end.character) \
        or r.start.line == pos.line == r.end.line


def overlaps(a: types.Range, b: types.Range) -> bool:
    return not ((a.end.line, a.end.character) < (b.start.line, b.start.character)
                or (b.end.line, b.end.character) < (a.start.line, a.start.character))


def _end(text: str) -> types.Position:
    lines = text.split("\n")
    return types.Position(len(lines) - 1, utf16(lines[-1]))


def minimal_edit(old: str, new: str) -> types.TextEdit:
    """One edit replacing only the lines that differ (an editor keeps the cursor and folds elsewhere)."""
    if old == new:
        return types.TextEdit(types.Range(types.Position(0, 0), types.Position(0, 0)), "")
    a, b = old.split("\n"), new.split("\n")
    head = 0
    while head < min(len(a), len(b)) and a[head] == b[head]:
        head += 1
    tail = 0
    while tail < min(len(a), len(b)) - head and a[-1 - tail] == b[-1 - tail]:
        tail += 1
    if head == len(a):  # every old line kept: the new ones go after the end
        return types.TextEdit(types.Range(_end(old), _end(old)), "\n" + "\n".join(b[head:]))
    if head == len(b):  # the new text is the old one's first lines: cut after them
        return types.TextEdit(types.Range(types.Position(head - 1, utf16(a[head - 1])), _end(old)), "")
    replaced = b[head:len(b) - tail]
    if tail:
        end, text = types.Position(len(a) - tail, 0), "".join(line + "\n" for line in replaced)
    else:
        end, text = _end(old), "\n".join(replaced)
    return types.TextEdit(types.Range(types.Position(head, 0), end), text)


def workspace_edit(root: Path, fixes: list, buffers: dict[str, str], versions: dict[str, int]) -> types.WorkspaceEdit | None:
    """The file-content fixes as one WorkspaceEdit (links and folders have no LSP edit: `doctor --fix`)."""
    changes: list = []
    for fix in fixes:
        change = fix.change
        if change is None or change.content is None:
            continue
        path = root / change.rel
        uri = path.absolute().as_uri()
        new = change.content.decode("utf-8", "replace").replace("\r\n", "\n")
        if uri in buffers:
            old = buffers[uri].replace("\r\n", "\n")
        elif path.is_file():
            old = path.read_bytes().decode("utf-8", "replace").replace("\r\n", "\n")
        else:
            changes.append(types.CreateFile(uri=uri, options=types.CreateFileOptions(ignore_if_exists=True)))
            old = ""
        ident = types.OptionalVersionedTextDocumentIdentifier(uri=uri, version=versions.get(uri))
        changes.append(types.TextDocumentEdit(text_document=ident, edits=[minimal_edit(old, new)]))
    return types.WorkspaceEdit(document_changes=changes) if changes else None
