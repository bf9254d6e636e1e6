"""The walk behind doctor's cache key (check/cache.py): every entry under the workspace and the git
folder, a file's content hashed or taken from the last run's hashes, each path's span of lines, and
each entry's status compared with the index of an earlier walk (check/cache_index.py): what changed
since it (``delta``), which decides the units reused by a set test and whether a stored run still holds."""

from __future__ import annotations

import bisect
import hashlib
import os
import stat
from pathlib import Path

from osmosis_workspace.core.tool_folders import TOOL_FOLDERS, is_tool_folder, listed_inside

RACY_NS = 2_000_000_000  # a file modified this close to its hashing is hashed again next time
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
    """The walk behind the key: every entry's identity, a file's content hashed (or taken from the memo)."""

    def __init__(self, memo: dict, started_ns: int, index: dict | None = None):
        self.memo, self.started_ns = memo, started_ns
        # the index of an earlier walk (path -> status record, check/cache_index.py; as read, so of any
        # shape: a record is only ever compared with ``==``) and this walk's: an entry is in ``stats`` when
        # every entry is in ``stats`` (`_note`), and in ``delta`` when it is not as ``index`` has it (new,
        # changed, or, after ``finish``, gone); None: no such entry
        self.index = index if index is not None else {}
        self.trusted_before = started_ns - RACY_NS
        self.stats: dict[str, list | None] = {}
        self.delta: dict[str, list | None] = {}
        self.above: set[str] = set()  # the paths in delta and every folder above them (after ``finish``)
        self.states: dict[str, int] = {}  # path -> FINE, TOUCHED or UNCOVERED (``state``)
        self.fresh: dict[str, list] = {}
        self.lines: list[str] = []
        self.spans: dict[str, tuple[int, int]] = {}  # path -> its lines (a folder's run to its last entry)
        self.links: list[int] = []  # the lines of symlinks, in order: what they lead to is not in the walk
        self.listed: set[str] = set()  # folders whose every name the walk saw (what is not there is absent)
        self.skipped: set[str] = set()  # entries kept as one line: their content is not in the walk
        self.entries = 0
        # core/tool_folders.py's folders, found where the walk lists their places (the root, each real
        # folder in its real rollouts/) instead of asking for every tool's name in every place: complete
        # (what tool_folders(root) gives) unless a place could not be listed
        self.tool_root: str | None = None
        self.tools: set[str] = set()
        self.tools_complete = False

    def digest(self, extra: str) -> str:
        self.lines.append(extra)
        return hashlib.sha256("\n".join(self.lines).encode("utf-8", "surrogateescape")).hexdigest()

    def state(self, path: str) -> int:
        """FINE when the walk entered ``path`` (a folder with all below it, no link among them, or a name its
        listed folder lacks) and none of it is in ``delta``; TOUCHED when some of it is; UNCOVERED when the
        walk did not enter it or saw a link there (what a link leads to is not in the walk)."""
        span = self.spans.get(path)
        if span is None:
            # a name its folder's listing lacks is known to be absent: a unit may depend on that too
            parent = os.path.dirname(path)
            # (a listed folder was reached through real folders only: the walk follows no link)
            if not (parent in self.listed and path not in self.skipped and parent != path):
                return UNCOVERED
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
        """``path`` and all below it; entries named in ``skip`` (at any depth: the git folder's objects),
        the paths in ``left`` (the root's .git, walked on its own) and, with ``tools``, the tool folders of
        the workspace at ``path`` (``self.tools``) are one line each."""
        if tools and not path.endswith("/"):  # (the root `/`: its tool folders' contents stay in the key)
            self.tool_root = path
            self.tools_complete = False  # until the root is listed
        start = len(self.lines)
        self._add(path, skip, depth, left)
        self.spans[path] = (start, len(self.lines))

    def _add(self, path: str, skip: frozenset[str], depth: int, left: frozenset[str]) -> None:
        lines = self.lines
        try:
            info = os.lstat(path)
        except OSError as err:
            self._missing(path)
            lines.append(f"{path}\0missing {err.errno}")
            return
        # the entry's status, compared with the index's below (inline: tens of thousands of entries)
        record = [info.st_mode, info.st_uid, info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino, info.st_dev]
        trusted = info.st_mtime_ns < self.trusted_before and info.st_ctime_ns < self.trusted_before
        self.entries += 1
        if self.entries > ENTRY_CAP:
            raise OverflowError
        mode = info.st_mode
        if stat.S_ISREG(mode):
            # the last run's hash, unless the file changed since or was modified too close to its hashing
            known = self.memo.get(path)
            if (type(known) is list and len(known) == 6 and known[0] == info.st_size and known[1] == info.st_mtime_ns
                    and known[2] == info.st_ctime_ns and known[3] == info.st_ino and type(known[4]) is int
                    and info.st_mtime_ns < known[4] - RACY_NS and type(sha := known[5]) is str):
                self.fresh[path] = known
            else:
                sha = _sha_file(path) or "unreadable"
                self.fresh[path] = [info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino, self.started_ns, sha]
            lines.append(f"{path}\0{mode}\0{info.st_uid}\0{info.st_size}\0{sha}")
            if trusted and self.index.get(path) == record:
                self.stats[path] = record
            else:
                self._note(path, record, trusted, sha)
        elif stat.S_ISDIR(mode):
            if depth >= 64:  # deeper than any check reads, but a key must cover it: no cache for this one
                raise OverflowError
            lines.append(f"{path}\0{mode}\0{info.st_uid}")
            place = self.tool_root is not None and (path == self.tool_root or os.path.dirname(path) == f"{self.tool_root}/rollouts")
            try:
                names = sorted(os.listdir(path))
            except OSError as err:
                lines.append(f"{path}\0unlisted {err.errno}")
                self._note(path, record, trusted, f"unlisted {err.errno}")
                if place:
                    self.tools_complete = False
                return
            if trusted and self.index.get(path) == record:
                self.stats[path] = record
            else:
                self._note(path, record, trusted, _names_digest(names))
            if place:
                if path == self.tool_root:
                    self.tools_complete = True
                self.tools.update(child for child in (f"{path}/{n}" for n in names if n in TOOL_FOLDERS) if is_tool_folder(child))
            self.listed.add(path)
            spans, depth, tools = self.spans, depth + 1, self.tools
            for name in names:
                child = f"{path}/{name}"
                if name in skip or child in left or child in tools:  # no check looks inside (core/tool_folders.py)
                    self.skipped.add(child)
                    lines.append(f"{child}\0skipped")
                    # but for the names a check reads in a rollout's .venv (the root's, which `uv sync`
                    # and pip change often, no check reads)
                    if (child in left or child in tools) and os.path.basename(os.path.dirname(path)) == "rollouts":
                        for inner in listed_inside(child):
                            self._names(inner)
                else:
                    start = len(lines)
                    self._add(child, skip, depth, left)
                    spans[child] = (start, len(lines))
        elif stat.S_ISLNK(mode):
            try:
                target = os.readlink(path)
            except OSError:
                target = "?"
            self.links.append(len(lines))
            lines.append(f"{path}\0{mode}\0{info.st_uid}\0{target}")
            self._note(path, record, trusted, target)
        else:
            lines.append(f"{path}\0{mode}\0{info.st_uid}")
            self._note(path, record, trusted, "")

    def _names(self, path: str) -> None:
        """A folder's names alone (the packages of a tool's .venv that a check counts)."""
        try:
            info, names = os.lstat(path), sorted(os.listdir(path))
        except OSError as err:
            self._missing(path)
            self.lines.append(f"{path}\0unlisted {err.errno}")
            return
        record = [info.st_mode, info.st_uid, info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino, info.st_dev]
        self._note(path, record, info.st_mtime_ns < self.trusted_before and info.st_ctime_ns < self.trusted_before, _names_digest(names))
        self.lines.append(f"{path}\0names\0" + _names_digest(names))

    def _note(self, path: str, record: list, trusted: bool, content: str) -> None:
        """The entry's record in this walk's index, and in ``delta`` unless the index has it so. A record
        whose times are too recent to trust (modified within RACY_NS of the walk, or after it: a clock set
        back) carries the entry's content too (a file's hash, a folder's names, a link's target): the same
        status is then the same entry only with the same content (a file system with coarse times may
        change a file twice within one tick)."""
        if not trusted:
            record = [*record, content]
        self.stats[path] = record
        known = self.index.get(path)
        if known == record:
            return
        if trusted and type(known) is list and len(known) == 8 and known[:7] == record and known[7] == content:
            return  # untrusted when indexed, the same status and content now
        self.delta[path] = record

    def _missing(self, path: str) -> None:
        self.stats[path] = None
        if path not in self.index or self.index[path] is not None:
            self.delta[path] = None


def git_inputs(tree: Tree, git_root: Path) -> None:
    """What git reads for the checks besides the paths the key names: the git folder behind a `.git`
    link, every configuration value (an `include` may name any file), and the ignore and attributes
    files the configuration names (`core.excludesFile = ~/.gitignore_global`)."""
    from osmosis_workspace.core import safe_git

    git_dir = git_root / ".git"
    if os.path.islink(git_dir):
        tree.add(os.path.realpath(git_dir), skip=SKIP_IN_GIT)
    try:
        listed = safe_git.run_capped(git_root, "config", "--list", "--show-origin", "-z", limit=1 << 20)
    except safe_git.GitError:
        tree.lines.append("git config\0unreadable")
        return
    tree.lines.append(hashlib.sha256(listed).hexdigest())
    named = {}
    for item in listed.split(b"\0")[1::2]:  # origin, then key\nvalue
        key, _, value = item.decode("utf-8", "surrogateescape").partition("\n")
        if key in ("core.excludesfile", "core.attributesfile"):
            named[key] = value  # the last one wins, as in git
    for value in named.values():
        path = os.path.join(str(git_root), os.path.expanduser(value))
        if os.path.isdir(path):  # git reads no folder there; a repository's own config may name `/`
            tree.lines.append(f"{path}\0folder")
        else:
            tree.add(path)
