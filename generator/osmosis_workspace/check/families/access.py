"""Checks: files and folders in the workspace that cannot be read (layout family, LAY011, LAY012).

A mode-000 file, or a folder owned by another user, made checks crash (exit 3, the report lost).
Each such path is one finding; a file that a family reads itself (a config, a dataset, main.py,
SKILL.md, a pyproject) is reported by that family's own code, and whatever else the checks say about
a path inside an unreadable folder is a consequence, not a second problem, so it is dropped.
"""

from __future__ import annotations

from pathlib import Path

from osmosis_workspace.check.registry import rule, workspace_check
from osmosis_workspace.core.diagnostics import Diagnostic
from osmosis_workspace.core.paths import is_dir
from osmosis_workspace.core.workspace import Workspace, permission_hint

FAMILY = "layout"
PLATFORM_FOLDERS = ("rollouts", "configs", "data")  # what a run reads from the repository
_FIX = "Give the user running osmosis and git read access (`chmod u+r FILE`, `chmod u+rx FOLDER`, or `chown` it back)."

UNREADABLE = rule(
    "LAY011", "unreadable-path", FAMILY, "error",
    summary="A file or folder under rollouts/, configs/ or data/ cannot be read: no permission.",
    why="osmosis cannot check it, git cannot add it, and a run reads these folders: a rollout, config or dataset "
        "nobody may read is one the platform gets stale or not at all; a folder that cannot be entered hides all of them.",
    fix=_FIX,
    example="`chmod 000 rollouts/multiply`, or a data/ file created by root in a container",
    source="ours",
)
UNREADABLE_LOCAL = rule(
    "LAY012", "unreadable-local-path", FAMILY, "warning",
    summary="A workspace file or folder outside rollouts/, configs/ and data/ cannot be read: no permission.",
    why="Runs do not read it, but osmosis cannot check it and git cannot commit it; agents miss a skill or the "
        "workspace notes they cannot read.",
    fix=_FIX,
    example="`chmod 000 .agents/skills/plan-eval`",
    source="ours",
)
CODES = frozenset({UNREADABLE.code, UNREADABLE_LOCAL.code})


def finding(ws: Workspace, path: Path, reason: str, is_folder: bool) -> Diagnostic:
    return at(ws.rel(path), reason, is_folder)


def at(rel: str, reason: str, is_folder: bool) -> Diagnostic:
    chosen = UNREADABLE if rel.split("/", 1)[0] in PLATFORM_FOLDERS else UNREADABLE_LOCAL
    what = "folder" if is_folder else "file"
    return chosen.at(rel, f"the {what} {rel} cannot be read: {reason}", hint=permission_hint(is_folder))


def check_unreadable_path(path: Path, display: str) -> list[Diagnostic]:
    """`osmosis validate`: a folder its walk could not enter (or a file it could not open)."""
    from osmosis_workspace.core.access import access_denied

    reason = access_denied(path)
    return [at(display, reason, is_dir(path))] if reason is not None else []


def from_error(ws: Workspace, err: PermissionError) -> Diagnostic | None:
    """The finding for a check that met a path it may not read (a safety net: the walk below should
    have found it first); None when the error names no path in the workspace."""
    if not err.filename:
        return None
    path = Path(str(err.filename))
    path = path if path.is_absolute() else ws.root / path
    rel = ws.rel(path)
    if rel.startswith(("/", "../")):
        return None
    return finding(ws, path, err.strerror or str(err), is_folder=path in ws.unreadable and ws.unreadable[path][1])


@workspace_check(FAMILY)
def check_unreadable_paths(ws: Workspace) -> list[Diagnostic]:
    git = ws.git_root / ".git" if ws.git_root is not None else None
    return [finding(ws, path, reason, is_folder) for path, (reason, is_folder) in ws.unreadable.items() if path != git]


def unreadable_paths(ws: Workspace) -> dict[str, bool]:
    """``ws.unreadable`` as workspace-relative path -> is a folder (what drop_collateral needs; the
    doctor cache keeps it with the findings, so a cached run does not walk the tree again)."""
    return {ws.rel(p): is_folder for p, (_, is_folder) in ws.unreadable.items()}


def drop_collateral(ws: Workspace, found: list[Diagnostic], unreadable: dict[str, bool] | None = None) -> list[Diagnostic]:
    """``found`` with one finding per unreadable path: nothing about what lies inside an unreadable
    folder, nothing but the access finding on the folder itself, and on a file the family's own
    finding (a config's CFG001, a dataset's DAT002) instead of the generic one. ``unreadable``:
    :func:`unreadable_paths`, when already known."""
    unreadable = unreadable_paths(ws) if unreadable is None else unreadable
    folders = {p for p, is_folder in unreadable.items() if is_folder}
    files = {p for p, is_folder in unreadable.items() if not is_folder}
    if not folders and not files:
        return found
    specific = {d.path for d in found if d.code not in CODES and d.path in files}
    kept, seen = [], set()
    for d in found:
        path = d.path or ""
        if d.code in CODES:
            if (d.code, path) in seen:  # the walk and a check's PermissionError named the same path
                continue
            seen.add((d.code, path))
        if any(path.startswith(f + "/") for f in folders):
            continue
        if path in folders and d.code not in CODES and not d.code.startswith("GIT"):
            continue
        if path in files and d.code in CODES and path in specific:
            continue
        kept.append(d)
    return kept
