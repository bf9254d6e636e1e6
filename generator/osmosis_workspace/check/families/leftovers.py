"""Checks: what an unfinished `osmosis update` (or a killed osmosis writer) leaves behind, family "layout".

`osmosis update` leaves a conflict it cannot merge either inline (`<<<<<<<` ... `>>>>>>>` in the
file) or as the user's file plus a `<file>.rej` patch. Either is one root cause with one finding at
the place to fix; the other findings the markers cause in the same file (a Python syntax error, a
TOML parse error) only repeat it, so doctor drops them (:func:`drop_explained`).
`osmosis update --check` asks :func:`unresolved` too: "up to date" is wrong while a merge is unfinished.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from pathlib import Path

from osmosis_workspace.check.registry import workspace_check
from osmosis_workspace.check.families.todos import SCANNED_SUFFIXES, _files, small_text
from osmosis_workspace.core.diagnostics import Diagnostic
from osmosis_workspace.core.names import UNDO_PREFIX
from osmosis_workspace.check.registry import rule
from osmosis_workspace.check.units import remember_each
from osmosis_workspace.core.paths import is_dir, is_file
from osmosis_workspace.core.access import listing
from osmosis_workspace.core.lazy_re import lazy_compile
from osmosis_workspace.core.workspace import Workspace

FAMILY = "layout"
# The root files and folders the workspace template renders (docs/update.md: what update merges).
ROOT_FILES = ("AGENTS.md", "CLAUDE.md", "README.md", "pyproject.toml", ".gitignore", ".env.example", ".copier-answers.yml")
MANAGED_FOLDERS = (".agents", ".github", ".osmosis", "configs")
# git merge-file writes exactly seven, then a space and a label (or nothing); `=======` alone is also
# a Markdown heading underline, so only the opening and closing markers count.
_MARKER = lazy_compile(r"^(<{7}|>{7})(?: |$)", re.MULTILINE)
MAX_PER_FILE = 20
# Rollout files worth reading for markers: code and text (a rollout may hold images or model files).
ROLLOUT_TEXT_SUFFIXES = SCANNED_SUFFIXES | {".md", ".rst", ".sh", ".j2", ".jinja", ".example", ""}

REJECT_FILE = rule(
    "LAY110", "update-reject-file", FAMILY, "warning",
    summary="A `<file>.rej` left by `osmosis update --conflict rej`: a template change that was not applied.",
    why="The template's change (a fix, a new contract requirement) is not in the file it was meant for; "
        "committed, the .rej file only adds noise to the repository.",
    fix="Apply the change the .rej file shows to its file by hand (or decide to skip it), then delete the .rej file; do not commit it.",
    example="rollouts/multiply/main.py.rej beside rollouts/multiply/main.py",
    source="ours",
)
CONFLICT_MARKERS = rule(
    "LAY111", "unresolved-conflict", FAMILY, "error",
    summary="A file holds unresolved merge conflict markers (`<<<<<<<` ... `>>>>>>>`), e.g. from `osmosis update`.",
    why="The file holds two versions at once: Python and TOML with markers do not parse, and text files say two things.",
    fix="Keep the right lines between the markers, delete the three marker lines, then run `osmosis doctor` again.",
    example="<<<<<<< rollouts/multiply/main.py (yours)\n...\n=======\n...\n>>>>>>> rollouts/multiply/main.py (installed template)",
    source="ours",
)


INTERRUPTED = rule(
    "LAY112", "interrupted-osmosis-command", FAMILY, "error",
    summary="An `osmosis init`, `rollout new` or `update` was killed part-way: the workspace holds half of its change.",
    why="Some of the command's files are in place and others are not (a rollout without its configs, a "
        "half-merged update); committed, the half change reaches the platform. Its undo journal is still there.",
    fix="Run `osmosis doctor --fix` (or the same osmosis command again): it takes the half change back first, "
        "keeping any file you edited since; then rerun the command if you still want it.",
    example=".osmosis-undo-3k2j9x/ (left by a killed `osmosis rollout new extra`)",
    fixable=True,
    source="ours",
)


def interrupted_findings(root: Path) -> list[Diagnostic]:
    found = []
    try:
        folders = sorted(p for p in root.iterdir() if p.name.startswith(UNDO_PREFIX) and p.is_dir() and not p.is_symlink())
    except OSError:
        return found
    if folders:  # the journal's reader (and what it loads) only when there is a journal to read
        from osmosis_workspace.core.journal import read_journal
    for folder in folders:
        journal, sealed = read_journal(folder)
        if journal is None:
            continue  # killed before its journal was written: nothing was changed; the next writer removes it
        if not sealed:
            found.append(INTERRUPTED.at(f"{folder.name}/", "this folder looks like osmosis's undo journal but osmosis "
                                        "did not write it for you; --fix will not act on it",
                                        hint="delete the folder if you do not know where it came from"))
            continue
        command = journal.get("command")
        shown = f"`osmosis {command}`" if isinstance(command, str) else "an osmosis command"
        found.append(INTERRUPTED.at(f"{folder.name}/", f"{shown} was interrupted (or is still running) and left half of its change"))
    return found


def _candidates(root: Path) -> Iterator[Path]:
    """Every text file outside the rollouts `update` may have merged into: the root's files and the
    managed folders (skills, workflows, configs), whatever their suffix (a SKILL.md merges like
    main.py). A rollout's own: `_rollout_leftovers`."""
    for name in ROOT_FILES:
        if (root / name).is_file() and not (root / name).is_symlink():
            yield root / name
    for path in listing(root):
        if path.suffix in ROLLOUT_TEXT_SUFFIXES and path.suffix and path.is_file() and not path.is_symlink():
            yield path  # conftest.py and other root files a template renders
    for base in MANAGED_FOLDERS:
        yield from (p for p in _walk_all(root / base) if p.suffix in ROLLOUT_TEXT_SUFFIXES) if is_dir(root / base) else ()
    yield from _files(root / "data")


def _walk_all(base: Path) -> Iterator[Path]:
    """Every file under ``base`` (a rollout's .md and .rej included), links and caches skipped."""
    return _files(base, suffixes=None)


def _rejects(root: Path) -> Iterator[Path]:
    for base in (root, *(root / f for f in MANAGED_FOLDERS)):
        if is_dir(base) and not base.is_symlink():
            walk = base.glob("*.rej") if base == root else (p for p in _walk_all(base))
            yield from (p for p in walk if p.name.endswith(".rej"))


def marker_lines(text: str) -> list[int]:
    """1-based lines that open (or, with the opening one already resolved, close) a conflict block."""
    lines, open_block = [], False
    for match in _MARKER.finditer(text):
        opening = match.group(1)[0] == "<"
        if opening or not open_block:
            lines.append(text.count("\n", 0, match.start()) + 1)
        open_block = opening
        if len(lines) >= MAX_PER_FILE:
            break
    return lines


def unresolved_findings(ws: Workspace) -> list[Diagnostic]:
    # the listings are the files' alone: an editor's edit run keeps them (check/live.py DISK_VIEWS)
    found = _leftovers(ws, ws.memo("leftover-rejects", lambda: list(_rejects(ws.root))), ())
    # a file of its own per unit for doctor's cache: the configs and datasets number thousands
    found += remember_each(ws, "leftovers:", ws.memo("leftover-candidates", lambda: list(dict.fromkeys(_candidates(ws.root)))),
                           _file_leftovers)
    # one unit per rollout for doctor's cache: what it finds is in the rollout's own files
    return found + remember_each(ws, "rollout-leftovers:", ws.rollout_dirs, _rollout_leftovers)


def _file_leftovers(ws: Workspace, path: Path) -> list[Diagnostic]:
    return _leftovers(ws, (), (path,))


def _rollout_leftovers(ws: Workspace, folder: Path) -> list[Diagnostic]:
    files = list(_walk_all(folder))
    return _leftovers(ws, (p for p in files if p.name.endswith(".rej")), (p for p in files if p.suffix in ROLLOUT_TEXT_SUFFIXES))


def _leftovers(ws: Workspace, rejects: Iterable[Path], candidates: Iterable[Path]) -> list[Diagnostic]:
    found: list[Diagnostic] = []
    for path in rejects:
        target = ws.rel(path)[: -len(".rej")]
        found.append(REJECT_FILE.at(ws.rel(path), f"`osmosis update` could not apply a template change to {target}; it is in this file"))
    seen: set[Path] = set()
    for path in candidates:
        if path in seen or path.name.endswith(".rej"):
            continue
        seen.add(path)
        text = small_text(ws, path)
        if not text or ("<<<<<<<" not in text and ">>>>>>>" not in text):
            continue
        for line in marker_lines(text):
            found.append(CONFLICT_MARKERS.at(
                ws.rel(path), "unresolved conflict: merge markers left in the file (e.g. by `osmosis update`)",
                line=line, column=1,
            ))
    return found


def file_marker_findings(path: Path, display: str, limit: int = 5 * 1024 * 1024) -> list[Diagnostic]:
    """LAY111 for one file `osmosis validate` names (or each file of a skill folder it names)."""
    from osmosis_workspace.core.bounded import Unreadable, read_capped

    found: list[Diagnostic] = []
    files = [path] if is_file(path) else sorted(p for p in _walk_all(path) if p.suffix in ROLLOUT_TEXT_SUFFIXES) if is_dir(path) else []
    for file in files[:200]:
        try:
            text = read_capped(file, limit).decode("utf-8", "replace")
        except Unreadable:
            continue
        shown = display if file == path else f"{display.rstrip('/')}/{file.relative_to(path).as_posix()}"
        found += [CONFLICT_MARKERS.at(shown, "unresolved conflict: merge markers left in the file (e.g. by `osmosis update`)",
                                      line=line, column=1) for line in marker_lines(text)]
    return found


@workspace_check(FAMILY)
def check_update_leftovers(ws: Workspace) -> list[Diagnostic]:
    return interrupted_findings(ws.root) + unresolved_findings(ws)


def drop_explained(found: list[Diagnostic]) -> list[Diagnostic]:
    """Without the findings that only repeat a conflict: in a file with markers, every other finding
    (syntax error, parse error, unknown key of the other side) has that one root cause."""
    conflicted = {d.path for d in found if d.code == CONFLICT_MARKERS.code}
    if not conflicted:
        return found
    return [d for d in found if d.code == CONFLICT_MARKERS.code or d.path not in conflicted]


def is_update_leftover(rel: str) -> bool:
    """A path Git Sync must not ask to commit (LAY110 and LAY112 say what to do with it)."""
    return rel.endswith(".rej") or rel.startswith((UNDO_PREFIX, ".osmosis-new-"))


