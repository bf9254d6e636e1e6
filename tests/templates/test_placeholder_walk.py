"""The placeholder and update-leftover walk (check/families/todos._files) takes its entries' types from the
listing (scandir's d_type) instead of a stat per entry: the files it yields, and their order, are the
ones a walk that asks the file system about each path (Path.is_symlink, Path.is_dir) yields."""

from __future__ import annotations

import os
from pathlib import Path

from osmosis_workspace.check.families import todos
from osmosis_workspace.core.access import listing


def _asking_each_path(base: Path, suffixes=todos.SCANNED_SUFFIXES):
    if base.is_file():
        yield base
        return
    stack = [(base, 0)]
    while stack:
        folder, depth = stack.pop()
        below = []
        for path in listing(folder):
            if path.is_symlink():
                continue
            if path.is_dir():
                if path.name not in todos.SKIPPED_DIRS and depth < todos.MAX_WALK_DEPTH:
                    below.append((path, depth + 1))
            elif suffixes is None or path.suffix in suffixes:
                yield path
        stack.extend(reversed(below))


def test_the_walk_yields_what_asking_each_path_yields(tmp_path):
    root = tmp_path / "rollouts"
    (root / "a" / "b" / "c").mkdir(parents=True)
    for rel in ("a/main.py", "a/b/x.json", "a/b/c/deep.toml", "a/notes.md", "a/B.py", "a/b/.hidden.py", "top.yaml",
                "a/data.JSONL", "a/noext"):
        (root / rel).write_text("TODO(osmosis)\n")
    for skipped in ("__pycache__", ".venv", "node_modules", ".git"):
        (root / "a" / skipped).mkdir()
        (root / "a" / skipped / "skip.py").write_text("x\n")
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "o.py").write_text("x\n")
    os.symlink(tmp_path / "outside", root / "a" / "linked-folder")
    os.symlink(tmp_path / "outside" / "o.py", root / "a" / "linked.py")
    os.symlink(root / "missing.py", root / "a" / "dangling.py")
    (root / "a" / "fifo.py").parent.mkdir(exist_ok=True)
    os.mkfifo(root / "a" / "fifo.py")
    deep = root / "deep"
    for _ in range(todos.MAX_WALK_DEPTH + 3):
        deep = deep / "d"
    deep.mkdir(parents=True)
    (deep / "bottom.py").write_text("x\n")
    for suffixes in (todos.SCANNED_SUFFIXES, None, {".py"}):
        expected = list(_asking_each_path(root, suffixes))
        assert list(todos._files(root, suffixes)) == expected
        names = {p.name for p in expected}
        assert "main.py" in names and "o.py" not in names and "bottom.py" not in names and "skip.py" not in names
    assert list(todos._files(root / "a" / "main.py")) == [root / "a" / "main.py"]
    assert list(todos._files(tmp_path / "nowhere")) == []


class _Untyped:
    """A listing entry whose type the listing did not give (d_type DT_UNKNOWN, as XFS without ftype or some
    network and FUSE file systems list) in a folder that may be read but not entered (r--): DirEntry asks
    lstat, which is refused."""

    def __init__(self, path: str):
        self.path, self.name = path, os.path.basename(path)

    def is_symlink(self):
        raise PermissionError(13, "Permission denied", self.path)

    def is_dir(self, follow_symlinks=True):
        raise PermissionError(13, "Permission denied", self.path)


class _Listing:
    def __init__(self, entries):
        self.entries = entries

    def __enter__(self):
        return iter(self.entries)

    def __exit__(self, *exc):
        return False


def test_an_entry_whose_type_cannot_be_learnt_is_left_to_the_access_check(tmp_path, monkeypatch):
    """The walk goes on past an entry of a folder it cannot enter on a file system that lists no types: it raised
    PermissionError out of the placeholder check, which then reported that one path (check/pipeline/run.py) and
    none of the workspace's placeholders; a typed listing yields the file, and the access check reports it (LAY011)."""
    root = tmp_path / "rollouts"
    (root / "a").mkdir(parents=True)
    (root / "a" / "main.py").write_text("TODO(osmosis)\n")
    (root / "shut").mkdir()
    real = os.scandir

    def scandir(folder):
        if Path(folder).name == "shut":
            return _Listing([_Untyped(os.path.join(folder, "z.py"))])
        return real(folder)

    monkeypatch.setattr(todos.os, "scandir", scandir)
    assert list(todos._files(root)) == [root / "a" / "main.py"]
