"""What a config's `[experiment] dataset` names, in one place for doctor, Git Sync and rehearse.

`dataset` takes a platform dataset name. `osmosis dataset upload data/<file>` names a dataset after
the file's stem, so the workspace's local copy of dataset "x" is `data/x.jsonl`, `data/x.csv` or
`data/x.parquet` (the formats the platform reads, in that order of preference when several exist).
A value that looks like a path instead (a dataset suffix, `data/`, `./`, an absolute path) names a
file, which submit would still send as a name: CFG019 says so.
"""

from __future__ import annotations

import re
from pathlib import Path

from osmosis_workspace.core.paths import is_file
from osmosis_workspace.core.workspace import DATASET_SUFFIXES

PLATFORM_SUFFIXES = (".jsonl", ".csv", ".parquet")


def names_a_path(value: str) -> bool:
    """Whether ``dataset`` is written as a local file path rather than a platform dataset name."""
    text = value.replace("\\", "/")
    return (
        text.lower().endswith(DATASET_SUFFIXES)
        or text.startswith(("data/", "./", "../", "/"))
        or re.match(r"^[A-Za-z]:", text) is not None
    )


def local_copies(name: str, suffixes: tuple[str, ...] = PLATFORM_SUFFIXES) -> list[str]:
    """``data/<name><suffix>`` (POSIX, from the workspace root) for each of ``suffixes``, in order of
    preference, whether or not it exists; none for a name that cannot be a file stem (a path, empty, ``.``)."""
    if not name or names_a_path(name) or "/" in name or "\\" in name or name in (".", ".."):
        return []
    return [f"data/{name}{suffix}" for suffix in suffixes]


def local_copy(root: Path, name: str, suffixes: tuple[str, ...] = PLATFORM_SUFFIXES) -> Path | None:
    """The first of :func:`local_copies` that is a file; None for a name that cannot be a file stem
    or has no local copy."""
    for rel in local_copies(name, suffixes):
        if is_file(root / rel):
            return root / rel
    return None
