"""Which files and folders of a workspace this process may not open: what doctor reads, walked once
per snapshot (`Workspace.unreadable`), links not followed."""

from __future__ import annotations

import os
from pathlib import Path

from osmosis_workspace.core.paths import is_file
from osmosis_workspace.core.tool_folders import PRUNED

# Where a workspace is looked at for files or folders nobody may read: what doctor reads. Tool folders
# and caches are not; .git is looked at itself (the git family reports it), not walked.
ACCESS_WALKED = ("rollouts", "configs", "data", ".agents", ".claude", ".osmosis")
ACCESS_SKIPPED = frozenset({".git", "venv", "node_modules", "__pycache__", *PRUNED})
MAX_ACCESS_ENTRIES = 50_000


def access_denied(path: Path | str) -> str | None:
    """The OS's reason when this process may not open ``path`` (a file, or a folder to list), or a
    folder on the way to it; None when it may, or when the path fails for another reason."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except PermissionError as err:
        return err.strerror or str(err)
    except (OSError, ValueError):
        return None
    os.close(fd)
    return None




def _reads_any_file() -> bool:
    """Whether this process may open any file whatever its mode: root holding CAP_DAC_OVERRIDE or
    CAP_DAC_READ_SEARCH (a CI container, usually). Then the walk opens no file to ask; a file a
    network or FUSE mount refuses all the same is a finding when a check reads it (families/access.py)."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return False
    try:
        with open("/proc/self/status", "rb") as status:
            for line in status.read(1 << 16).splitlines():
                if line.startswith(b"CapEff:"):
                    return int(line.split()[1], 16) & 0b110 != 0
    except (OSError, ValueError, IndexError):
        pass
    return False


def _denied(entry: os.DirEntry, uid: int) -> str | None:
    """access_denied for a file the walk listed: a file this process owns with the owner's read bit set
    is readable (the owner's bits decide for the owner, ACLs or not); anything else is asked of the OS."""
    try:
        info = entry.stat(follow_symlinks=False)
    except OSError:
        return access_denied(entry.path)
    if info.st_uid == uid and info.st_mode & 0o400:
        return None
    return access_denied(entry.path)


def listing(folder: Path) -> list[Path]:
    """The entries of ``folder``, sorted; [] when it cannot be listed (the access check reports a
    folder without permission, so a walk goes on without it)."""
    try:
        return sorted(folder.iterdir(), key=lambda p: p.name)  # within one folder: Path order, at a fraction of its cost
    except OSError:
        return []


def unreadable_under(root: Path, git_root: Path | None) -> dict[Path, tuple[str, bool]]:
    """Files and folders doctor reads that this process may not open: path -> (the OS's reason, is a folder)."""
    found: dict[Path, tuple[str, bool]] = {}
    if git_root is not None and (denied := access_denied(git_root / ".git")) is not None:
        found[git_root / ".git"] = (denied, True)
    stack = [root / name for name in reversed(ACCESS_WALKED)]
    top = [p for p in listing(root) if p.name not in ACCESS_WALKED]
    seen = 0
    anything, uid = _reads_any_file(), os.geteuid() if hasattr(os, "geteuid") else -1
    for path in top:
        if not path.is_symlink() and is_file(path) and (denied := access_denied(path)) is not None:
            found[path] = (denied, False)
    while stack and seen < MAX_ACCESS_ENTRIES:
        folder = stack.pop()
        try:
            with os.scandir(folder) as entries:
                children = sorted(entries, key=lambda e: e.name, reverse=True)
        except PermissionError as err:
            found[folder] = (err.strerror or str(err), True)
            continue
        except OSError:  # missing, not a folder: other checks say so
            continue
        for entry in children:  # a Path made only where one is kept: this visits every file doctor reads
            seen += 1
            if entry.is_dir(follow_symlinks=False):
                if entry.name not in ACCESS_SKIPPED:
                    stack.append(Path(entry.path))
            elif not anything and entry.is_file(follow_symlinks=False) and (denied := _denied(entry, uid)) is not None:
                found[Path(entry.path)] = (denied, False)
    return dict(sorted(found.items()))
