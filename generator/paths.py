"""Path containment, the one test behind "never follow a path out of the workspace"."""

from __future__ import annotations

from pathlib import Path


def real_path(path: Path) -> Path:
    """``path`` resolved, or made absolute when it cannot be (a symlink loop raises on Python < 3.13)."""
    try:
        return path.resolve()
    except (OSError, RuntimeError):
        return path.absolute()


def is_inside(root: Path, path: Path) -> bool:
    """Whether ``path``, following any symlinks on the way, stays inside ``root``.

    A path that cannot be resolved (a symlink loop) is not inside: nothing may be read or written
    through it.
    """
    try:
        path.resolve().relative_to(root.resolve())
    except (ValueError, OSError, RuntimeError):
        return False
    return True
