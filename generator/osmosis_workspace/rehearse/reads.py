"""What a rollout reads from outside its own folder, for `rehearse --changed`: links and uv's local sources.

Two kinds of reading a file's place does not show:

- a link under the rollout (a file or a folder) whose target lies elsewhere in the workspace: a change
  to the target changes what the rollout runs;
- the rollout's `pyproject.toml`: `[tool.uv.sources]` entries with a `path` (a local package, editable
  or not; a `workspace = true` entry is the enclosing workspace's member of that name) and its own
  `[tool.uv.workspace] members`, followed into those packages' own `pyproject.toml` the same way.

Everything is read as text within doctor's limits (size, nesting, a bounded number of links and
projects); uv and the workspace's code never run. A link or a source that leads out of the workspace
cannot be seen by a git diff of it, so it is reported (``outside``) and the rollout is rehearsed on any
change, rather than skipped in silence.
"""

from __future__ import annotations

import fnmatch
import os
import re
from itertools import islice
from pathlib import Path

from osmosis_workspace.core import bounded
from osmosis_workspace.core.paths import is_dir, walk
from osmosis_workspace.core.records import dataclass, field

MAX_LINKS = 2000             # links looked at under one rollout
MAX_PROJECTS = 64            # pyproject.toml files followed from one rollout (sources of sources)
MAX_MEMBERS = 500            # workspace members one `members` list may match
MAX_GLOBBED = 5000           # paths one `members` pattern may list (a `**` over a large tree stops there)
MAX_PYPROJECT_BYTES = 1 << 20
_SKIP_DIRS = frozenset({"__pycache__", "node_modules"})


@dataclass
class Reads:
    """Workspace-relative POSIX paths (a file, or a folder read whole) with why, and what leaves the workspace."""
    paths: list[tuple[str, str]] = field(default_factory=list)
    outside: list[str] = field(default_factory=list)

    def covers(self, rel: str) -> list[str]:
        """The reasons ``rel`` (a changed path) is read."""
        return [why for path, why in self.paths if rel == path or rel.startswith(path + "/")]


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _table(data: object, *keys: str) -> dict:
    for key in keys:
        data = data.get(key) if isinstance(data, dict) else None
    return data if isinstance(data, dict) else {}


def _pyproject(folder: Path) -> dict | None:
    try:
        return bounded.toml_loads(bounded.read_capped(folder / "pyproject.toml", MAX_PYPROJECT_BYTES).decode("utf-8"))
    except (bounded.Unreadable, UnicodeDecodeError, ValueError, OSError):
        return None


class _Reader:
    def __init__(self, root: Path, rollout: str):
        self.root = root
        self.real_root = os.path.realpath(root)
        self.own = f"rollouts/{rollout}"
        self.reads = Reads()

    def rel(self, real: str) -> str | None:
        """``real`` relative to the workspace (POSIX), or None when it lies outside."""
        if real == self.real_root:
            return "."
        if not real.startswith(self.real_root + os.sep):
            return None
        return Path(os.path.relpath(real, self.real_root)).as_posix()

    def add(self, rel: str, why: str) -> None:
        if rel == self.own or rel.startswith(self.own + "/") or (rel, why) in self.reads.paths:
            return  # the rollout's own files pick it by where they sit
        self.reads.paths.append((rel, why))

    def links(self) -> None:
        folder = self.root / self.own
        if folder.is_symlink():
            self.link(folder, self.own)
        seen = 0
        for here, dirs, files in walk(folder):
            dirs[:] = [d for d in dirs if not d.startswith(".") and d not in _SKIP_DIRS]
            for name in sorted(files) + sorted(dirs):
                path = Path(here) / name
                if not path.is_symlink():
                    continue
                seen += 1
                if seen > MAX_LINKS:
                    self.reads.outside.append(f"{self.own} holds more than {MAX_LINKS} links; those past it were not followed")
                    return
                self.link(path, Path(os.path.relpath(path, self.root)).as_posix())

    def link(self, path: Path, shown: str) -> None:
        target = self.rel(os.path.realpath(path))
        if target is None:
            try:
                to = os.readlink(path)
            except OSError:
                to = "?"
            self.reads.outside.append(f"{shown} links outside the workspace (to {to})")
        elif target != ".":
            self.add(target, f"the target of the link {shown}")

    def projects(self) -> None:
        queue, done = [os.path.realpath(self.root / self.own)], set()
        while queue and len(done) < MAX_PROJECTS:
            folder = queue.pop(0)
            if folder in done:
                continue
            done.add(folder)
            data = _pyproject(Path(folder))
            if data is None:
                continue
            shown = f"{self.rel(folder) or folder}/pyproject.toml".removeprefix("./")
            queue += self.sources(Path(folder), data, shown)
            queue += self.members(Path(folder), _table(data, "tool", "uv", "workspace"), shown)
        if any(folder not in done for folder in queue):
            self.reads.outside.append(f"{self.own}: more than {MAX_PROJECTS} local projects; those past it were not followed")

    def sources(self, folder: Path, data: dict, shown: str) -> list[str]:
        found = []
        for name, spec in _table(data, "tool", "uv", "sources").items():
            for entry in spec if isinstance(spec, list) else [spec]:
                if not isinstance(entry, dict):
                    continue
                path = entry.get("path")
                if isinstance(path, str) and path and "\0" not in path:
                    kind = "an editable path source" if entry.get("editable") is True else "a path source"
                    found += self.place(folder / path, f"{name} ({kind} in {shown})", f"{shown}: {name} = {{ path = {path!r} }}")
                elif entry.get("workspace") is True:
                    found += self.workspace_member(folder, name, shown)
        return found

    def place(self, path: Path, why: str, shown: str) -> list[str]:
        real = os.path.realpath(path)
        rel = self.rel(real)
        if rel is None:
            self.reads.outside.append(f"{shown} lies outside the workspace")
            return []
        if rel != ".":
            self.add(rel, why)
        return [real] if is_dir(Path(real)) else []

    def member_folders(self, folder: Path, workspace: dict) -> list[Path]:
        members = [m for m in workspace.get("members") or [] if isinstance(m, str)] if isinstance(workspace.get("members"), list) else []
        exclude = [e for e in workspace.get("exclude") or [] if isinstance(e, str)] if isinstance(workspace.get("exclude"), list) else []
        found: list[Path] = []
        for pattern in members:
            if "\0" in pattern or pattern.startswith("/"):
                continue
            try:
                matches = sorted(islice(folder.glob(pattern), MAX_GLOBBED)) if pattern not in (".", "") else [folder]
            except (ValueError, OSError):
                continue
            for match in matches:
                rel = Path(os.path.relpath(match, folder)).as_posix()
                if is_dir(match) and not any(fnmatch.fnmatch(rel, e) for e in exclude) and match not in found:
                    found.append(match)
                if len(found) >= MAX_MEMBERS:
                    return found
        return found

    def members(self, folder: Path, workspace: dict, shown: str) -> list[str]:
        found = []
        for match in self.member_folders(folder, workspace):
            found += self.place(match, f"a workspace member in {shown}", f"{shown}: member {match.name}")
        return found

    def workspace_member(self, folder: Path, name: str, shown: str) -> list[str]:
        """`name = { workspace = true }`: the member of that name of the workspace enclosing ``folder``."""
        here = folder
        while True:
            workspace = _table(_pyproject(here), "tool", "uv", "workspace")
            if workspace:
                break
            if os.path.realpath(here) == self.real_root or here.parent == here:
                return []
            here = here.parent
        members = self.member_folders(here, workspace)
        named = [m for m in members if _normal(str(_table(_pyproject(m), "project").get("name") or "")) == _normal(name)]
        found = []
        for match in named or members:   # no member says its name: every member may be it
            found += self.place(match, f"{name} (a workspace source in {shown})", f"{shown}: {name} = {{ workspace = true }}")
        return found


def rollout_reads(root: Path, rollout: str) -> Reads:
    """What ``rollout`` reads outside ``rollouts/<rollout>/``: link targets and uv's local sources, each with why."""
    reader = _Reader(root, rollout)
    reader.links()
    reader.projects()
    return reader.reads
