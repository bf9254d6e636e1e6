"""Folders a tool made that no check reads: the one definition doctor's cache key and the checks share.

The cache key may leave out only what no check reads, and a name proves nothing (a rollout's own
package may be called `venv` or `node_modules`), so a folder is a tool's only when it is what the
tool leaves, where the tool leaves it:

- its name is a tool's (below) and starts with a dot, so no Python import can name it;
- it sits in the workspace root or directly in a rollout folder (`rollouts/<name>/`), where uv,
  pytest, ruff and mypy make theirs;
- it is a real folder (not a link) holding the tool's marker file and a `.gitignore` that ignores
  everything (`*`), as uv, pytest, ruff and mypy write it: git lists nothing inside either.

Every check treats what lies in one as outside the workspace (``Workspace.outside``), and every walk a
check makes prunes these names (``PRUNED``), so no check reads inside but for the names of the packages a
synced `.venv` holds (:func:`listed_inside`); the key records the folder as one line, and those names. Anything else with these names (a `venv` package, a `.venv` without the marker, one deeper
down) is in the key like any other folder.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

# name -> the marker file the tool writes in it
TOOL_FOLDERS = {".venv": "pyvenv.cfg", ".pytest_cache": "CACHEDIR.TAG", ".ruff_cache": "CACHEDIR.TAG", ".mypy_cache": "CACHEDIR.TAG"}
# What a walk of a check never enters, whatever else it skips: every tool folder's name.
PRUNED = frozenset(TOOL_FOLDERS)
_GITIGNORE_BYTES = 4096


def _regular(path: str) -> bool:
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except (OSError, ValueError):
        return False


def _ignores_everything(path: str) -> bool:
    """Whether the `.gitignore` at ``path`` is `*` alone (comments and blank lines aside)."""
    if not _regular(path):
        return False
    try:
        with open(path, "rb") as handle:
            data = handle.read(_GITIGNORE_BYTES + 1)
    except OSError:
        return False
    if len(data) > _GITIGNORE_BYTES:
        return False
    lines = [ln.strip() for ln in data.split(b"\n")]
    return [ln for ln in lines if ln and not ln.startswith(b"#")] == [b"*"]


def is_tool_folder(path: str | Path) -> bool:
    """Whether ``path`` (a candidate place: see :func:`tool_folders`) is a tool's folder."""
    path = os.fspath(path)
    marker = TOOL_FOLDERS.get(os.path.basename(path))
    if marker is None:
        return False
    try:
        if not stat.S_ISDIR(os.lstat(path).st_mode):
            return False
    except (OSError, ValueError):
        return False
    return _regular(os.path.join(path, marker)) and _ignores_everything(os.path.join(path, ".gitignore"))


def tool_folders(root: str | Path) -> frozenset[str]:
    """The tool folders of the workspace at ``root``: in the root and in each rollout folder (a real
    folder under a real `rollouts/`), as paths spelled from ``root``."""
    root = os.fspath(root)
    places = [root]
    rollouts = os.path.join(root, "rollouts")
    try:
        if stat.S_ISDIR(os.lstat(rollouts).st_mode):
            with os.scandir(rollouts) as entries:
                places += [e.path for e in entries if e.is_dir(follow_symlinks=False)]
    except OSError:
        pass
    return frozenset(os.path.join(place, name) for place in places for name in TOOL_FOLDERS
                     if is_tool_folder(os.path.join(place, name)))


def in_tool_folder_of(folder: str | Path, path: str | Path) -> bool:
    """Whether ``path``, links resolved, lies in a tool folder directly under ``folder`` (a rollout
    folder, or the root): what a check that resolves paths inside a rollout must not read."""
    try:
        real_folder = os.path.realpath(folder)
        rel = os.path.relpath(os.path.realpath(path), real_folder)
    except (OSError, ValueError):
        return False
    first = rel.split(os.sep, 1)[0]
    return first in TOOL_FOLDERS and is_tool_folder(os.path.join(real_folder, first))


def listed_inside(folder: str | Path) -> list[str]:
    """The folders inside the tool folder ``folder`` whose names a check reads: a `.venv`'s site-packages
    (ENT038 counts a package installed there as provided: check/families/entry_import.py), which
    doctor's cache key lists for that reason. At most two, in order."""
    folder = os.fspath(folder)
    if os.path.basename(folder) != ".venv":
        return []
    lib = os.path.join(folder, "lib")
    try:
        names = sorted(n for n in os.listdir(lib) if n.startswith("python3"))
    except OSError:
        return []
    return [site for site in (os.path.join(lib, n, "site-packages") for n in names) if os.path.isdir(site)][:2]
