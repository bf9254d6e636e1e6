"""What the language server knows, without any LSP library: the open buffers, and doctor's findings
over a workspace snapshot with those buffers laid over the files.

The checks are doctor's own (`check.doctor.diagnose`, settings and suppressions included), run
through `check/live.py`: after typing, only what the edited buffers touch is checked again. The only
difference is the snapshot: an open document's unsaved text is what configs, entrypoints and
suppression comments are read from, under doctor's size cap (`Workspace.overlay`: a buffer over
2 MB is reported unread, as the file would be). Skills and datasets are read from disk, so their findings
follow the saved file.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path
from urllib.parse import unquote, urlparse

from osmosis_workspace.core.diagnostics import Diagnostic
from osmosis_workspace.core.records import dataclass, field
from osmosis_workspace.core.workspace import NotAWorkspace, Workspace, text_on_disk


def uri_path(uri: str) -> Path | None:
    """The file a `file:` URI names (None for any other scheme: untitled buffers, remote files)."""
    parsed = urlparse(uri)
    if parsed.scheme != "file":
        return None
    return Path(unquote(parsed.path))


def path_uri(path: Path) -> str:
    return path.absolute().as_uri()


@dataclass
class Checked:
    """One run of the checks: the workspace root, and per file (absolute, under the root as the editor names it:
    `Session.spelt`) its findings."""

    root: Path
    by_file: dict[Path, list[Diagnostic]]
    texts: dict[Path, str]  # the text each file with findings was checked as (for columns)


@dataclass
class Session:
    buffers: dict[str, str] = field(default_factory=dict)  # uri -> the editor's text
    _lock: threading.Lock = field(default_factory=threading.Lock)
    live: dict = field(default_factory=dict)  # root -> check.live.Live: the last run, for the next edit run
    # root -> the folder the editor names it by (a workspace opened through a link): diagnostics are published
    # under the editor's paths, or it shows them on files it does not have open
    spelt: dict = field(default_factory=dict)

    def disk_changed(self) -> None:
        """Files may have changed on disk (a save, an open, a close): the next run of each workspace is a full one."""
        for memory in self.live.values():
            memory.disk_changed()

    def root_of(self, uri: str) -> Path | None:
        path = uri_path(uri)
        if path is None:
            return None
        try:
            root = Workspace.at(path.parent).root
            # the editor's spelling of the root: the folder above the file that is the root, links followed
            self.spelt[root] = next((f for f in (path.parent, *path.parent.parents) if os.path.realpath(f) == str(root)), root)
        except (NotAWorkspace, OSError, ValueError):  # ValueError: a NUL byte (%00) in the path
            return None
        return root

    def snapshot(self, root: Path) -> Workspace:
        """A fresh snapshot of ``root`` with every open buffer under it laid over its file."""
        ws = Workspace(root)
        real_root = root.resolve()
        targets: dict[Path, str] = {}
        own: dict[Path, str] = {}  # a link's own name too: checks read a linked config through it, as they read the saved text
        for uri, text in list(self.buffers.items()):
            path = uri_path(uri)
            if path is None:
                continue
            try:
                targets[path.resolve().relative_to(real_root)] = text
                own[(Path(os.path.realpath(path.parent)) / path.name).relative_to(real_root)] = text
            except (ValueError, OSError):
                continue
        for rel, text in {**targets, **own}.items():  # a buffer open under a path wins over one linked to it
            ws.overlay(root / rel, text)
        return ws

    def check(self, root: Path) -> Checked:
        """Doctor's findings over ``root`` (one run at a time: the checks share module-level caches)."""
        from osmosis_workspace.check.doctor import diagnose, load_rules
        from osmosis_workspace.check.live import Live

        with self._lock:
            load_rules()
            ws = self.snapshot(root)
            # an edit re-checks what the edited buffers touch; the rest is the last run's (check/live.py)
            memory = self.live.setdefault(root, Live())
            memory.begin(ws)
            try:
                diagnosis = diagnose(ws, run_stage=memory.run)
            finally:
                from osmosis_workspace.core import safe_git

                safe_git.stop_early()  # a run's git probes are its own (core/safe_git.py): the next run probes again
            by_file: dict[Path, list[Diagnostic]] = {}
            texts: dict[Path, str] = {}
            shown_root = self.spelt.get(root, root)
            for d in diagnosis.diagnostics:
                if d.path is None:
                    continue  # about the whole workspace: doctor's to report, no file to show it in
                path = root / d.path
                if not path.is_file():
                    continue  # a folder or a missing file: nothing an editor can open
                shown = shown_root / d.path
                by_file.setdefault(shown, []).append(d)
                if shown not in texts:
                    texts[shown] = ws.read_text(path) or ""
            return Checked(root, by_file, texts)

    def needs_priming(self, root: Path) -> bool:
        """Whether ``root``'s last run was doctor's cached answer, which leaves no memory for edit runs."""
        memory = self.live.get(root)
        return memory is not None and memory.served_from_disk

    def is_dirty(self, uri: str) -> bool:
        """Whether the buffer differs from the file on disk (a fix planned from the file would be stale)."""
        path = uri_path(uri)
        if uri not in self.buffers or path is None:
            return False
        on_disk = text_on_disk(path)  # bounded as doctor reads: a FIFO or a 1 GB file there must not block or fill memory
        return on_disk is None or on_disk != self.buffers[uri].replace("\r\n", "\n")

    def fixes(self, root: Path, code: str) -> list:
        """The safe fixes of ``code`` in ``root``'s workspace as it is on disk (`check.fix.Fix`)."""
        from osmosis_workspace.check.fix import allowed_by, plan

        with self._lock:
            return [f for f in plan(Workspace(root), allowed_by(False, lambda c: c == code)) if f.change is not None]
