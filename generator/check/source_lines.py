"""The line of a workspace file a finding points at, for the text report's snippet under it.

Read through the snapshot (`Workspace.read_text`: nothing outside the workspace, nothing past the size
cap, nothing but regular files), and only for the hand-written text kinds: a dataset row can be a
megabyte of someone's data. A secret is never shown: no line for the secrets family, and no line in
which the secret scanner sees a credential.
"""

from __future__ import annotations

from collections.abc import Callable

from generator.core.diagnostics import Diagnostic
from generator.core.workspace import Workspace

_TEXT_KINDS = (".toml", ".py", ".md", ".yml", ".yaml", ".cfg", ".txt")
_NEVER_SHOWN = ("SEC",)


def source_reader(ws: Workspace) -> Callable[[Diagnostic], str | None]:
    """A function from a finding to the raw text of its line (None when it has no line to show)."""
    from generator.check.families.secrets import known_credential

    def line_of(d: Diagnostic) -> str | None:
        if d.path is None or d.line is None or d.code.startswith(_NEVER_SHOWN) or not d.path.endswith(_TEXT_KINDS):
            return None
        text = ws.read_text(ws.root / d.path)
        if text is None:
            return None
        lines = text.split("\n")
        if not 1 <= d.line <= len(lines):
            return None
        line = lines[d.line - 1]
        return None if known_credential(line) else line

    return line_of
