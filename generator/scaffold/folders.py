"""Folders `osmosis init` makes for the user: the parents of a new workspace (as `uv init`,
`cargo new` and `copier copy` do), taken back when init fails, and the mode a folder made through
a private staging folder should have."""

from __future__ import annotations

import os
from pathlib import Path

from generator.core.errors import UserError


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
