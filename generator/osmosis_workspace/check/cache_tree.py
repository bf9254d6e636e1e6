"""The walk behind doctor's cache key (check/cache.py): every entry under the workspace and the git
folder, a file's content hashed or taken from the last run's hashes, each path's span of lines (a
unit's digest), and a re-walk that says whether anything changed since."""

from __future__ import annotations

import bisect
import hashlib
import os
import stat
from pathlib import Path

from osmosis_workspace.core.tool_folders import TOOL_FOLDERS, is_tool_folder, listed_inside

RACY_NS = 2_000_000_000  # a file modified this close to its hashing is hashed again next time
SKIP_IN_GIT = frozenset({"objects", "logs", "hooks", "lfs", "fsmonitor--daemon"})
ENTRY_CAP = 200_000  # past this many entries (or 64 folders deep) the workspace is not cached
CHANGED_CAP = 64  # past this many entries changed under a run, none of its units is kept


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

    def __init__(self, memo: dict, started_ns: int):
        self.memo, self.started_ns = memo, started_ns
        self.fresh: dict[str, list] = {}
        self.lines: list[str] = []
        self.spans: dict[str, tuple[int, int]] = {}  # path -> its lines (a folder's run to its last entry)
        self.links: list[int] = []  # the lines of symlinks, in order: what they lead to is not in the walk
        self.listed: set[str] = set()  # folders whose every name the walk saw (what is not there is absent)
        self.skipped: set[str] = set()  # entries kept as one line: their content is not in the walk
        self.digests: dict[str, str | None] = {}  # subtree's answers
        self.seen: list[tuple] = []  # (path, lstat or None, a folder's names): what `unchanged` compares
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

    def subtree(self, path: str) -> str | None:
        """The digest of ``path``'s entries as this walk saw them (a folder with all below it), or None
        when the walk did not enter it."""
        if path in self.digests:  # a rollout's folder is the input of several units
            return self.digests[path]
        self.digests[path] = digest = self._subtree(path)
        return digest

    def _subtree(self, path: str) -> str | None:
        span = self.spans.get(path)
        if span is None:
            # a name its folder's listing lacks is known to be absent: a unit may depend on that too
            parent = os.path.dirname(path)
            # (a listed folder was reached through real folders only: the walk follows no link)
            if parent in self.listed and path not in self.skipped and parent != path:
                return "absent"
            return None
        if self._has_link(*span):
            return None
        return hashlib.sha256("\n".join(self.lines[span[0]:span[1]]).encode("utf-8", "surrogateescape")).hexdigest()

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
            self.seen.append((path, None, None))
            lines.append(f"{path}\0missing {err.errno}")
            return
        self.seen.append((path, info, None))
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
        elif stat.S_ISDIR(mode):
            if depth >= 64:  # deeper than any check reads, but a key must cover it: no cache for this one
                raise OverflowError
            lines.append(f"{path}\0{mode}\0{info.st_uid}")
            place = self.tool_root is not None and (path == self.tool_root or os.path.dirname(path) == f"{self.tool_root}/rollouts")
            try:
                names = sorted(os.listdir(path))
            except OSError as err:
                lines.append(f"{path}\0unlisted {err.errno}")
                if place:
                    self.tools_complete = False
                return
            if place:
                if path == self.tool_root:
                    self.tools_complete = True
                self.tools.update(child for child in (f"{path}/{n}" for n in names if n in TOOL_FOLDERS) if is_tool_folder(child))
            self.seen[-1] = (path, info, names)
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
        else:
            lines.append(f"{path}\0{mode}\0{info.st_uid}")

    def _names(self, path: str) -> None:
        """A folder's names alone (the packages of a tool's .venv that a check counts)."""
        try:
            info, names = os.lstat(path), sorted(os.listdir(path))
        except OSError as err:
            self.seen.append((path, None, None))
            self.lines.append(f"{path}\0unlisted {err.errno}")
            return
        self.seen.append((path, info, names))
        self.lines.append(f"{path}\0names\0" + hashlib.sha256("\0".join(names).encode("utf-8", "surrogateescape")).hexdigest())

    def changed(self, most: int = CHANGED_CAP) -> list[str] | None:
        """The entries of the walk that are no longer as they were, or None past ``most`` of them: an
        entry's status differs, or, for what changed too close to the walk for time stamps to tell (a
        file system's clock ticks coarsely), its content or names do. A fraction of a second's walk:
        a run's findings are kept only if it finds nothing."""
        found: list[str] = []
        lstat, recent = os.lstat, self.started_ns - RACY_NS
        for path, before, names in self.seen:
            try:
                now = lstat(path)
            except OSError:
                now = None
            # the plain case inline (tens of thousands of entries): the same status, old enough to trust
            if now is not None and before is not None and now.st_ctime_ns == before.st_ctime_ns and now.st_mtime_ns == before.st_mtime_ns \
                    and now.st_size == before.st_size and now.st_ino == before.st_ino and now.st_mode == before.st_mode \
                    and now.st_uid == before.st_uid and now.st_mtime_ns < recent and now.st_ctime_ns < recent:
                continue
            if self._differs(path, before, names, now):
                found.append(path)
                if len(found) > most:
                    return None
        return found

    def _differs(self, path: str, before, names, now) -> bool:
        if before is None or now is None:
            return before is not now
        if (now.st_mode, now.st_size, now.st_mtime_ns, now.st_ctime_ns, now.st_ino, now.st_uid) != \
                (before.st_mode, before.st_size, before.st_mtime_ns, before.st_ctime_ns, before.st_ino, before.st_uid):
            return True
        if max(now.st_mtime_ns, now.st_ctime_ns) < self.started_ns - RACY_NS:
            return False
        if stat.S_ISREG(now.st_mode):
            known = self.fresh.get(path)
            return known is None or _sha_file(path) != known[5]
        if stat.S_ISDIR(now.st_mode):
            try:
                return names is not None and sorted(os.listdir(path)) != names
            except OSError:
                return True
        if stat.S_ISLNK(now.st_mode):
            try:
                return f"{path}\0{now.st_mode}\0{now.st_uid}\0{os.readlink(path)}" not in self.lines
            except OSError:
                return True
        return False


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
