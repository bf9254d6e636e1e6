"""Folders `osmosis init` makes for the user: the parents of a new workspace (as `uv init`,
`cargo new` and `copier copy` do), taken back when init fails, and the mode a folder made through
a private staging folder should have."""

from __future__ import annotations

import os
from pathlib import Path

from osmosis_workspace.core.errors import UserError


def missing_parents(folder: Path) -> list[Path]:
    """The folders from the nearest existing ancestor of ``folder`` down to it that do not exist,
    outermost first. A UserError when that ancestor is not a folder."""
    missing = []
    current = folder
    while not current.exists() and not current.is_symlink():
        missing.append(current)
        if current.parent == current:
            break
        current = current.parent
    if not current.is_dir():
        where = "" if current == folder else f", so {folder} cannot be created"
        raise UserError(f"{current} exists and is not a folder{where}")
    return list(reversed(missing))


def make_parents(folder: Path) -> list[Path]:
    """Create ``folder`` and its missing parents (mode from the umask); returns those it created."""
    made = missing_parents(folder)
    for path in made:
        try:
            path.mkdir()
        except FileExistsError:
            continue  # made meanwhile by someone else: theirs, not ours to take back
        except OSError as err:
            remove_made([p for p in made if p != path])
            raise UserError(f"cannot create {path}: {err.strerror or err}",
                            hint="check the folder's permissions, or choose another folder") from None
    return made


def remove_made(made: list[Path]) -> None:
    """Take back folders :func:`make_parents` created, innermost first; a folder not empty stays."""
    for path in reversed(made):
        try:
            path.rmdir()
        except OSError:
            pass


def default_dir_mode() -> int:
    """The mode `mkdir` gives a new folder under the current umask (a staging folder from
    tempfile.mkdtemp is 0700, whatever the umask: renamed into place it must not stay so)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return 0o777 & ~mask


def follow_umask(tree: Path) -> None:
    """Give the files and folders of a render the modes the user's umask gives new ones: copier copies
    the template's own modes, and a user with umask 077 must not get world-readable files. Executable
    files stay executable; links and the repository inside (git sets its own modes) are left alone."""
    mask = 0o777 & ~default_dir_mode()
    for folder, dirnames, filenames in os.walk(tree):
        dirnames[:] = [d for d in dirnames if d != ".git" and not os.path.islink(os.path.join(folder, d))]
        for name in dirnames:
            os.chmod(os.path.join(folder, name), 0o777 & ~mask)
        for name in filenames:
            path = os.path.join(folder, name)
            info = os.lstat(path)
            if not os.path.islink(path):
                os.chmod(path, (0o777 if info.st_mode & 0o111 else 0o666) & ~mask)
