"""The index of the walk behind doctor's cache (`walk.json` beside `units.json`): every entry's status as
one walk saw it (``entries``: path -> [mode, uid, size, mtime_ns, ctime_ns, inode, device], with the entry's
content digest after them when its times were too recent to trust, git's racy rule, `Tree._note`; None
for an entry that was not there), and each listed folder's names (``folders``: path -> sorted names, taken
by the next walk for a folder whose status is unchanged instead of listing it again: a name made, removed
or renamed in a folder moves its times). It replaces the re-walk after each run and a digest per unit:

- ``units.json`` names the index it was written with (``gen``): each unit in it was computed after that
  walk, or reused by a run whose walk found its inputs as that index has them. A later walk that finds
  every entry under a unit's inputs as the index has them (``Tree.state``) reuses the unit by that set test.
  Whatever changed after the walk, while a run was reading, changed an entry's change time, so the next
  walk sees it: no re-walk is needed to keep a unit safe.
- A stored run's findings (`<key>.json`) name the index and the entries their walk found not as it has them
  (``delta``): they answer a later run only when its walk's delta is the same, entry for entry.

The cache folder is the user's (0700), but what it holds is read as hostile input: the file is bounded like
every cache file, and anything else than the expected shape, another tool or environment (``base``), or an
index written after this walk started (a clock set back) is no index: a cold run. A record is only ever
compared with ``==`` against one this walk made, so a crafted record can only make its entry changed; a
folder's names that could not be a listing (`Tree._plain`) are listed anew. A well-formed forgery of the
whole folder (an index, names and units that agree) can hide a change, as a forged `units.json` always could:
the cache is no defence against whoever can write the user's cache folder."""

from __future__ import annotations

import os

FORMAT = 1
REWRITE_MIN = 64  # an index (and units.json with it) is written again when more entries than this...
REWRITE_SHARE = 100  # ...or than 1 in this many are not as it has them, or as many units were computed


PATH_CHARS = 4096 + 256  # the longest path a walk records: a listable folder's (PATH_MAX) and a name
PATH_PARTS = 128  # and the most parts: a root 60 folders deep and the walk's 64 levels


class Index:
    def __init__(self, gen: str, entries: dict, folders: dict):
        self.gen, self.entries, self.folders = gen, entries, folders


def from_json(data, base: str, started_ns: int) -> Index | None:
    """The index a walk starting at ``started_ns`` compares with, from what `walk.json` decoded to, or None."""
    if not (isinstance(data, dict) and data.get("format") == FORMAT and data.get("base") == base):
        return None
    gen, at, entries, folders = data.get("gen"), data.get("at"), data.get("entries"), data.get("folders", {})
    if not (type(gen) is str and 0 < len(gen) <= 64 and type(at) is int and type(entries) is dict and type(folders) is dict):
        return None
    if at > started_ns:  # written by a walk that started later than this one: the clock went back
        return None
    # a path no walk makes (longer than a listable folder's path and a name, or deeper than a deep root and the
    # walk's 64 levels) is no index: the next walk marks every folder above each one (`Tree.finish`), a cost
    # that grows with the square of a path's length (a crafted 200 kB key took half a minute)
    if any(len(path) > 256 and (len(path) > PATH_CHARS or path.count("/") > PATH_PARTS) for path in entries):
        return None
    return Index(gen, entries, folders)


def to_json(gen: str, base: str, started_ns: int, stats: dict, folders: dict) -> dict:
    return {"format": FORMAT, "base": base, "gen": gen, "at": started_ns, "entries": stats, "folders": folders}


def new_gen() -> str:
    return os.urandom(12).hex()


def worth_writing(index: Index | None, tree, units) -> bool:
    """Whether this run writes a new index and units.json with it: none was usable, or enough entries
    changed since it (each run until then computes their units again), or enough units were computed."""
    if index is None or (tree.folders and not index.folders):  # (none, or one without the folders' names)
        return True
    most = max(REWRITE_MIN, len(tree.stats) // REWRITE_SHARE)
    if len(tree.delta) > most:
        return True
    return units is not None and units.computed > max(REWRITE_MIN, (units.reused + units.computed) // REWRITE_SHARE)
