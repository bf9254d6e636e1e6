"""The walk behind doctor's cache key (check/cache.py): every entry under the workspace and the git
folder, its status compared with the index of an earlier walk (check/cache_index.py). What is not as
the index has it (``delta``) stands for the tree in the run's key, and decides the units reused by a
set test (``Tree.state``). No file is read but those changed too recently for their times to tell."""

from __future__ import annotations

import bisect
import hashlib
import os
import stat
from pathlib import Path

from osmosis_workspace.core.tool_folders import TOOL_FOLDERS, is_tool_folder, listed_inside

RACY_NS = 2_000_000_000  # an entry changed this close to a walk is compared by its content too
SKIP_IN_GIT = frozenset({"objects", "logs", "hooks", "lfs", "fsmonitor--daemon"})
FINE, TOUCHED, UNCOVERED = 0, 1, 2  # Tree.state
ENTRY_CAP = 200_000  # past this many entries (or 64 folders deep) the workspace is not cached


def _names_digest(names: list[str]) -> str:
    return hashlib.sha256("\0".join(names).encode("utf-8", "surrogateescape")).hexdigest()


def _sha_file(path: str) -> str | None:
    h = hashlib.sha256()
    try:
        with open(path, "rb", buffering=0) as f:
            while chunk := f.read(1 << 20):
                h.update(chunk)
    except OSError:
        return None
    return h.hexdigest()


class Tree:
    """The walk behind the key: every entry's status, compared with the index of an earlier walk."""

    def __init__(self, started_ns: int, index: dict | None = None, folders: dict | None = None):
        self.started_ns = started_ns
        # the index of an earlier walk (path -> status record, check/cache_index.py; as read, so of any
        # shape: a record is only ever compared with ``==``) and this walk's: every entry is in ``stats``
        # (`_note`), and in ``delta`` when it is not as ``index`` has it (new, changed, or, after ``finish``,
        # gone); None: no such entry
        self.index = index if index is not None else {}
        # the names of each folder the index's walk listed (as read: checked before use, `_plain`), taken for
        # a folder whose status the index has, times old enough to trust: its names are then the same (any
        # name made, removed or renamed in a folder moves its times); and this walk's, for the next index
        self.known_folders = folders if folders is not None else {}
        self.folders: dict[str, list[str]] = {}
        self.trusted_before = started_ns - RACY_NS
        self.stats: dict[str, list | None] = {}
        self.delta: dict[str, list | None] = {}
        self.above: set[str] = set()  # the paths in delta and every folder above them (after ``finish``)
        self.order: list[str] = []  # the entries in the walk's order
        self.notes: list[str] = []  # what the key holds besides the entries (git's configuration, say)
        self.spans: dict[str, tuple[int, int]] = {}  # path -> its entries in ``order`` (a folder's run to its last entry)
        self.links: list[int] = []  # the places of symlinks in ``order``: what they lead to is not in the walk
        self.listed: set[str] = set()  # folders whose every name the walk saw (what is not there is absent)
        self.skipped: set[str] = set()  # entries kept as one name: their content is not in the walk
        self.entries = 0
        # core/tool_folders.py's folders, found where the walk lists their places (the root, each real
        # folder in its real rollouts/) instead of asking for every tool's name in every place: complete
        # (what tool_folders(root) gives) unless a place could not be listed
        self.tool_root: str | None = None
        self.tools: set[str] = set()
        self.tools_complete = False

    def digest(self, extra: str, gen: str) -> str:
        """The key of what this walk saw, given the index it compared with (``gen``): the entries the index
        holds are as it has them, so the ones not as it has them (``delta``) stand for the whole tree."""
        import json

        h = hashlib.sha256("\0".join([extra, gen, *self.notes]).encode("utf-8", "surrogateescape"))
        h.update(json.dumps(sorted(self.delta.items())).encode("utf-8", "surrogateescape"))
        return h.hexdigest()

    def state(self, path: str) -> int:
        """FINE when the walk entered ``path`` (a folder with all below it, no link among them, or a name its
        listed folder lacks) and none of it is in ``delta``; TOUCHED when some of it is (or, for a name its folder
        lacks, the folder is); UNCOVERED when the walk did not enter it or saw a link there (what a link leads to
        is not in the walk)."""
        span = self.spans.get(path)
        if span is None:
            # a name its folder's listing lacks is known to be absent: a unit may depend on that too
            parent = os.path.dirname(path)
            # (a listed folder was reached through real folders only: the walk follows no link)
            if not (parent in self.listed and path not in self.skipped and parent != path):
                return UNCOVERED
            if parent in self.delta:  # its names changed since the index: this one may have been there between
                return TOUCHED  # (made after that walk, read by that run's unit, removed before this walk)
        elif self._has_link(*span):
            return UNCOVERED
        return TOUCHED if path in self.above else FINE

    def finish(self) -> None:
        """After the last ``add``: the index's entries this walk did not see are gone, and every path in
        ``delta`` marks the folders above it as touched."""
        for gone in self.index.keys() - self.stats.keys():
            self.delta[gone] = None
        above = self.above
        for path in self.delta:
            while path not in above:
                above.add(path)
                path, child = os.path.dirname(path), path
                if path == child:
                    break

    def _has_link(self, start: int, end: int) -> bool:
        i = bisect.bisect_left(self.links, start)
        return i < len(self.links) and self.links[i] < end

    def add(self, path: str, skip: frozenset[str] = frozenset(), depth: int = 0, left: frozenset[str] = frozenset(),
            tools: bool = False) -> None:
        """``path`` and all below it; entries named in ``skip`` (at any depth but inside `refs`: the git folder's objects),
        the paths in ``left`` (the root's .git, walked on its own) and, with ``tools``, the tool folders of
        the workspace at ``path`` (``self.tools``) are left unwalked (their folder's status covers their names)."""
        if tools and not path.endswith("/"):  # (the root `/`: its tool folders' contents stay in the key)
            self.tool_root = path
            self.tools_complete = False  # until the root is listed
        start = len(self.order)
        self._add(path, skip, depth, left)
        self.spans[path] = (start, len(self.order))

    def add_read(self, path: str) -> None:
        """A file git reads from outside the tree (a user config, an ignore file the config names): ``path``,
        and where it leads when it is a link (a dotfiles manager's `~/.gitignore_global`), as git reads that."""
        self.add(path)
        if os.path.islink(path):
            self.add(os.path.realpath(path))

    def _add(self, path: str, skip: frozenset[str], depth: int, left: frozenset[str]) -> None:
        order = self.order
        order.append(path)
        try:
            info = os.lstat(path)
        except OSError:
            self._missing(path)
            return
        self.entries += 1
        if self.entries > ENTRY_CAP:
            raise OverflowError
        # the entry's status against the index's (inline: tens of thousands of entries); an entry too recent
        # to trust is compared by its content too (`_note`)
        mode = info.st_mode
        record = [mode, info.st_uid, info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino, info.st_dev]
        trusted = info.st_mtime_ns < self.trusted_before and info.st_ctime_ns < self.trusted_before
        if same := (trusted and self.index.get(path) == record):
            self.stats[path] = record
        elif stat.S_ISREG(mode):
            self._note(path, record, trusted, (lambda: _sha_file(path) or "unreadable"))
        elif stat.S_ISLNK(mode):
            self._note(path, record, trusted, lambda: _readlink(path))
        elif not stat.S_ISDIR(mode):
            self._note(path, record, trusted, lambda: "")
        if stat.S_ISDIR(mode):
            if depth >= 64:  # deeper than any check reads, but a key must cover it: no cache for this one
                raise OverflowError
            place = self.tool_root is not None and (path == self.tool_root or os.path.dirname(path) == f"{self.tool_root}/rollouts")
            try:
                names = self.known_folders.get(path) if same else None
                if not (type(names) is list and _plain(names)):
                    names = sorted(os.listdir(path))
            except OSError as err:
                if path not in self.stats:
                    unlisted = f"unlisted {err.errno}"
                    self._note(path, record, trusted, lambda: unlisted)
                if place:
                    self.tools_complete = False
                return
            if path not in self.stats:
                self._note(path, record, trusted, lambda: _names_digest(names))
            if place:
                if path == self.tool_root:
                    self.tools_complete = True
                self.tools.update(child for child in (f"{path}/{n}" for n in names if n in TOOL_FOLDERS) if is_tool_folder(child))
            self.listed.add(path)
            self.folders[path] = names
            spans, depth, tools = self.spans, depth + 1, self.tools
            for name in names:
                child = f"{path}/{name}"
                if name in skip or child in left or child in tools:  # no check looks inside (core/tool_folders.py)
                    self.skipped.add(child)
                    # but for the names a check reads in a rollout's .venv (the root's, which `uv sync`
                    # and pip change often, no check reads)
                    if (child in left or child in tools) and os.path.basename(os.path.dirname(path)) == "rollouts":
                        for inner in listed_inside(child):
                            self._names(inner)
                else:
                    start = len(order)
                    # (a ref's name is the user's: a branch `logs/x` is the folder refs/remotes/origin/logs)
                    self._add(child, skip if name != "refs" else frozenset(), depth, left)
                    spans[child] = (start, len(order))
        elif stat.S_ISLNK(mode):
            self.links.append(len(order) - 1)

    def _names(self, path: str) -> None:
        """A folder's names alone (the packages of a tool's .venv that a check counts)."""
        self.order.append(path)
        try:
            info, names = os.lstat(path), sorted(os.listdir(path))
        except OSError:
            self._missing(path)
            return
        record = [info.st_mode, info.st_uid, info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino, info.st_dev]
        # the names listed, whatever the times say: a link's status (a site-packages linked to a shared
        # folder) says nothing of the names where it leads
        self._note(path, record, False, lambda: _names_digest(names))

    def _note(self, path: str, record: list, trusted: bool, content) -> None:
        """The entry's record in this walk's index, and in ``delta`` unless the index has it so. A record
        whose times are too recent to trust (modified within RACY_NS of the walk, or after it: a clock set
        back) carries the entry's content too (``content()``: a file's hash, a folder's names, a link's
        target): the same status is then the same entry only with the same content (a file system with
        coarse times may change a file twice within one tick). A changed entry's content is not taken:
        its status stands for it."""
        known = self.index.get(path)
        if not trusted:
            record = [*record, content()]
        elif type(known) is list and len(known) == 8 and known[:7] == record and known[7] == content():
            self.stats[path] = record
            return  # untrusted when indexed, the same status and content now
        self.stats[path] = record
        if known != record:
            self.delta[path] = record

    def _missing(self, path: str) -> None:
        self.stats[path] = None
        if path not in self.index or self.index[path] is not None:
            self.delta[path] = None


def _plain(names: list) -> bool:
    """Whether ``names`` could be a folder's listing as the walk keeps it: names (no separator, no NUL, not
    empty, not `.` or `..`), sorted, each once."""
    try:
        joined = "/".join(names)  # (a TypeError for anything but strings)
    except TypeError:
        return False
    if joined.count("/") != len(names) - 1 or "\0" in joined or "//" in joined or joined.startswith("/") or joined.endswith("/"):
        return names == []
    return "" not in names and "." not in names and ".." not in names and sorted(set(names)) == names


def _readlink(path: str) -> str:
    try:
        return os.readlink(path)
    except OSError:
        return "?"


def git_inputs(tree: Tree, git_root: Path) -> None:
    """What git reads for the checks besides the paths the key names: the git folder behind a `.git`
    link, every configuration value (an `include` may name any file), and the ignore and attributes
    files the configuration names (`core.excludesFile = ~/.gitignore_global`)."""
    from osmosis_workspace.core import safe_git

    git_dir = git_root / ".git"
    if os.path.islink(git_dir):
        tree.add(os.path.realpath(git_dir), skip=SKIP_IN_GIT)
    for name in ("info/exclude", "info/attributes"):  # walked as links in the git folder: git reads where they lead
        if os.path.islink(inside := f"{git_dir}/{name}"):
            tree.add(os.path.realpath(inside))
    try:
        listed = safe_git.run_capped(git_root, "config", "--list", "--show-origin", "-z", limit=1 << 20)
    except safe_git.GitError:
        tree.notes.append("git config\0unreadable")
        return
    tree.notes.append(hashlib.sha256(listed).hexdigest())
    named = {}
    for item in listed.split(b"\0")[1::2]:  # origin, then key\nvalue
        key, _, value = item.decode("utf-8", "surrogateescape").partition("\n")
        if key in ("core.excludesfile", "core.attributesfile"):
            named[key] = value  # the last one wins, as in git
    for value in named.values():
        path = os.path.join(str(git_root), os.path.expanduser(value))
        if os.path.isdir(path):  # git reads no folder there; a repository's own config may name `/`
            tree.notes.append(f"{path}\0folder")
        else:
            tree.add_read(path)
