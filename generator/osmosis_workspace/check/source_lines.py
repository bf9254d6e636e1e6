"""The line of a file a finding points at, for the text report's snippet under it.

Only for the hand-written text kinds (a dataset row can be a megabyte of someone's data), read with the
same bounds as the checks (doctor: through the snapshot, nothing outside the workspace; validate: the
files the user named, regular files under the size cap). A secret is never shown: no line for the
secrets family, and no line in which the secret scanner sees a credential.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from osmosis_workspace.core.diagnostics import Diagnostic
from osmosis_workspace.core.workspace import MAX_TEXT_BYTES, Workspace

_TEXT_KINDS = (".toml", ".py", ".md", ".yml", ".yaml", ".cfg", ".txt")
_NEVER_SHOWN = ("SEC",)

Reader = Callable[[Diagnostic], "str | None"]


def source_reader(read: Callable[[str], str | None]) -> Reader:
    """A function from a finding to the raw text of its line (None when it has none to show);
    ``read`` gives a finding's file text by its path."""
    from osmosis_workspace.check.families.secrets import known_credential

    def line_of(d: Diagnostic) -> str | None:
        if d.path is None or d.line is None or d.code.startswith(_NEVER_SHOWN) or not d.path.endswith(_TEXT_KINDS):
            return None
        text = read(d.path)
        if text is None:
            return None
        lines = text.split("\n")
        if not 1 <= d.line <= len(lines):
            return None
        line = lines[d.line - 1]
        return None if known_credential(line) else line

    return line_of


def workspace_source(ws: Workspace) -> Reader:
    """Lines of a workspace's files, through its snapshot (doctor)."""
    return source_reader(lambda relative: ws.read_text(ws.root / relative))


def files_source(files: dict[str, tuple[Path, Workspace | None]]) -> Reader:
    """Lines of the files `validate` checked, by the path its findings show: through the file's
    workspace when it has one (nothing through a link out of it), else never through a link nor
    from a file the system generates (`/proc/self/environ` holds a CI job's secrets)."""
    from osmosis_workspace.core.bounded import Unreadable, read_capped
    from osmosis_workspace.core.paths import system_file

    def read(display: str) -> str | None:
        path, ws = files.get(display, (None, None))
        if path is None:
            return None
        if ws is not None:
            return ws.read_text(path)
        if os.path.islink(path) or system_file(path) is not None:
            return None
        try:
            return read_capped(path, MAX_TEXT_BYTES).decode("utf-8").replace("\r\n", "\n")
        except (Unreadable, UnicodeDecodeError, OSError):
            return None

    return source_reader(read)
