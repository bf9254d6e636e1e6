"""Checks: placeholder markers a template left for the user (`TODO(osmosis)`), family "layout".

The blank template marks every place where the user's task goes with ``TODO(osmosis)``. Until each
is replaced the rollout runs, but trains on placeholders; a warning per file says where (the first
marker) and how many. Only this
exact marker counts, so a user's own TODO comments are never reported. Markdown is skipped: READMEs
may mention the marker when they explain it.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

from osmosis_workspace.check.registry import workspace_check
from osmosis_workspace.core.diagnostics import Diagnostic
from osmosis_workspace.check.registry import rule
from osmosis_workspace.check.units import remember_each
from osmosis_workspace.core.paths import MAX_WALK_DEPTH, is_file
from osmosis_workspace.core.tool_folders import PRUNED
from osmosis_workspace.core.workspace import Workspace

FAMILY = "layout"
MARKER = "TODO(osmosis)"
# Text files a rollout, its configs and its data are made of; large data files are read once, lazily.
SCANNED_SUFFIXES = frozenset({".py", ".toml", ".jsonl", ".json", ".csv", ".txt", ".yml", ".yaml", ".cfg", ".ini"})
SKIPPED_DIRS = frozenset({"__pycache__", "venv", ".git", "node_modules", *PRUNED})
MAX_BYTES = 5 * 1024 * 1024  # a placeholder file is small; skip big datasets rather than read gigabytes

TEMPLATE_PLACEHOLDER = rule(
    "LAY100", "template-placeholder", FAMILY, "warning",
    summary=f"A `{MARKER}` placeholder left by a template is still in a rollout, config or dataset.",
    why="The rollout runs, but on placeholder prompts, answers or scoring: an evaluation or training run would measure nothing.",
    fix=f"Replace the placeholder with your task's real content and delete the `{MARKER}` marker.",
    example='{"user_prompt": "TODO(osmosis): task input 1", "ground_truth": "TODO(osmosis): expected answer 1"}',
    source="ours",
)


def _files(base: Path, suffixes: frozenset[str] | set[str] | None = SCANNED_SUFFIXES) -> Iterator[Path]:
    """The files under ``base`` with one of ``suffixes`` (None: every file), in sorted order; a stack, not recursion (a tree 1,000
    folders deep must not raise RecursionError), and no deeper than MAX_WALK_DEPTH."""
    if is_file(base):
        yield base
        return
    stack: list[tuple[Path, int]] = [(base, 0)]
    while stack:
        folder, depth = stack.pop()
        below = []
        # the entries' types from the listing itself (d_type): a stat or two per entry was a third of a
        # warm doctor's system calls at 2,000 rollouts, where this walk runs three times
        for entry in _entries(folder):
            try:
                if entry.is_symlink():
                    continue  # never follow a link out of the workspace
                is_folder = entry.is_dir(follow_symlinks=False)
            except OSError:  # no type in the listing (DT_UNKNOWN) and lstat refused: the access check reports the folder
                continue
            path = folder / entry.name
            if is_folder:
                if entry.name not in SKIPPED_DIRS and depth < MAX_WALK_DEPTH:
                    below.append((path, depth + 1))
            elif suffixes is None or path.suffix in suffixes:
                yield path
        stack.extend(reversed(below))


def _entries(folder: Path) -> list[os.DirEntry]:
    """``folder``'s entries sorted by name (core.access.listing's order); [] when it cannot be listed."""
    try:
        with os.scandir(folder) as entries:
            return sorted(entries, key=lambda e: e.name)
    except OSError:
        return []


def scan_text(text: str, display: str) -> list[Diagnostic]:
    """One finding per marker in ``text``, at its 1-based line and column."""
    found = []
    for number, line in enumerate(text.splitlines(), start=1):
        column = line.find(MARKER)
        while column != -1:
            rest = line[column + len(MARKER):].split(MARKER)[0]
            note = rest.split('"')[0].strip(" :#',")
            message = f"placeholder `{MARKER}` left by the template" + (f": {note[:100]}" if note else "")
            found.append(TEMPLATE_PLACEHOLDER.at(display, message, line=number, column=column + 1))
            column = line.find(MARKER, column + len(MARKER))
    return found


@workspace_check(FAMILY)
def check_template_placeholders(ws: Workspace) -> list[Diagnostic]:
    found: list[Diagnostic] = []
    bases = [*ws.rollout_dirs, ws.root / "data"]
    # one unit per folder for doctor's cache: the scan reads nothing but the files below it
    found += remember_each(ws, "placeholders:", bases, _scan_folder)
    for kind in ("eval", "training"):
        # a config folder's files one unit each: an edit in one of thousands re-reads that one
        found += remember_each(ws, "placeholders:", ws.memo(f"placeholder-files:{kind}", lambda: list(_files(ws.root / "configs" / kind))),
                               _scan_folder)
    return found


def _scan_folder(ws: Workspace, base: Path) -> list[Diagnostic]:
    found: list[Diagnostic] = []
    for path in _files(base):
        text = small_text(ws, path)
        if text and MARKER in text:
            found.extend(one_per_file(scan_text(text, ws.rel(path))))
    return found


def one_per_file(markers: list[Diagnostic]) -> list[Diagnostic]:
    """A file's markers as one finding at the first: the blank template's sample data holds a dozen,
    and one cause (the file is still the template's) is one finding, not a dozen identical hints."""
    if len(markers) < 2:
        return markers
    first = markers[0]
    lines = sorted({d.line for d in markers})
    span = f"line {lines[0]}" if len(lines) == 1 else f"lines {lines[0]}-{lines[-1]}"
    note = first.message.partition(": ")[2]
    message = (f"{len(markers)} placeholders `{MARKER}` left by the template, on {span}"
               + (f" (the first: {note.rstrip('.')})" if note else ""))
    return [TEMPLATE_PLACEHOLDER.at(first.path, message, line=first.line, column=first.column)]


def small_text(ws: Workspace, path: Path) -> str | None:
    """The file's text when it is at most MAX_BYTES (a marker scan skips big datasets unread)."""
    try:
        if path.stat().st_size > MAX_BYTES:
            return None
    except OSError:
        return None
    return ws.read_text(path)
