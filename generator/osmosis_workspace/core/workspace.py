"""A read-only view of a workspace that checks run over.

Finding the root, listing the files checks care about, and caching reads so that several checks
looking at one file read it once. Nothing here imports or runs user code.
"""

from __future__ import annotations

import os
import sys
from functools import cached_property
from pathlib import Path
from collections.abc import Callable
from typing import Any, TypeVar

from osmosis_workspace.core.bounded import toml_loads, utf8_size_over
from osmosis_workspace.core.access import access_denied, listing, unreadable_under
from osmosis_workspace.core.paths import is_dir, is_file, rglob_files
from osmosis_workspace.core.records import dataclass, field
from osmosis_workspace.core.tool_folders import PRUNED, tool_folders

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

CONFIG_KINDS = ("eval", "training", "benchmark")
# Contract section 1: what every workspace holds. Layout checks them, `doctor --fix` restores them.
REQUIRED_FOLDERS = ("rollouts", "configs/eval", "configs/training", "data")
AGENT_FILES = ("AGENTS.md", "CLAUDE.md", "configs/AGENTS.md")
# Files checked as datasets, in any letter case: what the platform reads, and .json, which it
# rejects (checks.datasets says so rather than leaving the file unchecked).
DATASET_SUFFIXES = (".jsonl", ".json", ".csv", ".parquet")
# Configs, pyproject files and agent notes are a few KB; a file this big is a mistake or an attack
# (a million-key config took 36 s and 900 MB), so it is reported unread instead of parsed.
MAX_TEXT_BYTES = 2_000_000
NOT_UTF8 = "cannot be read as UTF-8 text"
FILE_PERMISSIONS_HINT = "Check the file's permissions: osmosis, git and the platform's tools must be able to read it (e.g. `chmod u+r FILE`)."
FOLDER_PERMISSIONS_HINT = "Check the folder's permissions: osmosis and git must be able to list and enter it (e.g. `chmod u+rx FOLDER`)."
def text_on_disk(path: Path) -> str | None:
    """The file's text as doctor reads it (capped at MAX_TEXT_BYTES, UTF-8, CRLF as LF); None when it
    cannot be read so: what an editor's buffer is compared with."""
    from osmosis_workspace.core.bounded import Unreadable, read_capped

    try:
        return read_capped(path, MAX_TEXT_BYTES).decode("utf-8").replace("\r\n", "\n")
    except (Unreadable, UnicodeDecodeError, OSError):
        return None


def permission_hint(is_folder: bool) -> str:
    return FOLDER_PERMISSIONS_HINT if is_folder else FILE_PERMISSIONS_HINT


T = TypeVar("T")


class NotAWorkspace(Exception):
    """PATH is not inside an Osmosis workspace (exit code 2)."""


def find_git_root(start: Path, *, strict: bool = False) -> Path | None:
    """The top of the git work tree holding ``start``, found without running git.

    In ``start`` itself any .git counts (a broken one is doctor's GIT004 to report); above it, and
    everywhere when ``strict``, only what git would take for a repository."""
    if not strict and os.path.exists(start / ".git"):  # False, not PermissionError, inside a folder nobody may enter
        return start
    for candidate in (start, *start.parents) if strict else start.parents:
        if _is_git_marker(candidate / ".git"):
            return candidate
    return None


def _is_git_marker(dot_git: Path) -> bool:
    """What git itself takes for a repository: a `gitdir:` file, or a folder with HEAD and objects/.
    A stray `.git` folder (say an empty /tmp/.git) is not one, and must not swallow every folder below."""
    try:
        if os.path.isfile(dot_git):  # False, not PermissionError, inside a folder nobody may enter
            with open(dot_git, "rb") as handle:
                return handle.read(8) == b"gitdir: "
        return os.path.isfile(dot_git / "HEAD") and os.path.isdir(dot_git / "objects")
    except OSError:
        return False


# What `osmosis init` (and the SDK's scaffold) puts at a workspace root. A folder is a workspace when it
# holds one of the structural folders and at least two markers in all: `configs/` alone is common in any
# project (doctor used to report ten errors there, and `--fix` scaffolded into it), and a rollout folder
# holds a pyproject and copier answers but neither structural folder.
STRUCTURAL_MARKERS = ("rollouts/", "configs/eval/", "configs/training/")
SUPPORTING_MARKERS = (".osmosis/", ".copier-answers.yml", "AGENTS.md", "pyproject.toml naming osmosis")
_MARKER_READ_BYTES = 65_536  # enough for any root pyproject's dependency list; bounded whatever the file is


def _mentions_osmosis(path: Path) -> bool:
    from osmosis_workspace.core.bounded import read_head

    return b"osmosis" in read_head(path, _MARKER_READ_BYTES).lower()  # a FIFO named pyproject.toml reads as b""


def workspace_markers(folder: Path) -> tuple[list[str], list[str]]:
    """(structural, supporting) markers present in ``folder``."""
    structural = [m for m in STRUCTURAL_MARKERS if is_dir(folder / m)]
    if "configs/eval/" in structural and "configs/training/" in structural:
        structural.remove("configs/training/")  # one marker: the configs folder
    supporting = [m for m in (".osmosis/", ".copier-answers.yml") if os.path.exists(folder / m.rstrip("/"))]
    if _mentions_osmosis(folder / "AGENTS.md"):
        supporting.append("AGENTS.md")
    if _mentions_osmosis(folder / "pyproject.toml"):
        supporting.append("pyproject.toml naming osmosis")
    return structural, supporting


def is_workspace_root(folder: Path) -> bool:
    structural, supporting = workspace_markers(folder)
    return bool(structural) and len(structural) + len(supporting) >= 2


def find_root(start: Path) -> Path:
    """The nearest folder from ``start`` up to the git top level that is a workspace root
    (:func:`is_workspace_root`). A rollout folder is never one (no rollouts/ or configs/eval/ inside).

    Raises NotAWorkspace when none is found.
    """
    start = start.resolve()
    try:
        start.lstat()
    except PermissionError:  # inside a folder nobody may enter: that folder is where to look from
        start = start.parent
    except OSError:
        raise NotAWorkspace(f"{start} does not exist") from None
    if is_file(start):
        start = start.parent
    git_root = find_git_root(start)
    candidates = []
    for candidate in (start, *start.parents):
        candidates.append(candidate)
        if candidate == git_root:
            break
    for candidate in candidates:
        if is_workspace_root(candidate):
            return candidate
    raise NotAWorkspace(_not_a_workspace(start, candidates))


def _missing(structural: list[str], supporting: list[str]) -> list[str]:
    """The markers a folder with one structural marker lacks, named as a user would look for them."""
    has_configs = any(m.startswith("configs/") for m in structural)
    wanted = [] if "rollouts/" in structural else ["rollouts/"]
    wanted += [] if has_configs else ["configs/eval/"]
    labels = {".osmosis/": ".osmosis/", ".copier-answers.yml": ".copier-answers.yml",
              "AGENTS.md": "an AGENTS.md naming osmosis", "pyproject.toml naming osmosis": "an osmosis pyproject.toml"}
    return wanted + [label for marker, label in labels.items() if marker not in supporting]


def _not_a_workspace(start: Path, candidates: list[Path]) -> str:
    message = f"{start} is not inside an Osmosis workspace"
    for candidate in candidates:  # the nearest folder with some evidence: say why it is not enough
        structural, supporting = workspace_markers(candidate)
        found = structural + supporting or (["configs/"] if is_dir(candidate / "configs") else [])
        if found:
            wanted = "rollouts/ or configs/eval/" if not structural else "one more of " + ", ".join(_missing(structural, supporting))
            return (f"{message}: {candidate} has {', '.join(found)}, but not the rest of a workspace ({wanted}); "
                    "run `osmosis init` to create one")
    return f"{message} (no rollouts/ or configs/eval/ folder found); run `osmosis init` to create one"


@dataclass
class Workspace:
    """A snapshot of one workspace. Paths given to and returned by it are absolute unless named rel."""

    root: Path
    _texts: dict[Path, str | None] = field(default_factory=dict, repr=False)
    _memo: dict[str, Any] = field(default_factory=dict, repr=False)
    overlays: dict[Path, str] = field(default_factory=dict, repr=False)  # see overlay()
    units: Any = field(default=None, repr=False)  # doctor's per-unit cache while it runs the checks (see remember)
    _reads: list[str] = field(default_factory=list, repr=False)  # files read or counted (absolute), in order

    @classmethod
    def at(cls, path: Path) -> "Workspace":
        return cls(find_root(path))

    def rel(self, path: Path) -> str:
        """``path`` relative to the root, POSIX-style (as diagnostics report it)."""
        if os.sep == "/":  # Path.relative_to's answer under the root, by string (it runs for every file of a run)
            text, prefix = str(path), self._root_prefix
            if text.startswith(prefix):
                return text[len(prefix):]
        if not path.is_absolute():
            return path.as_posix()
        # Not resolved first: a symlink inside the workspace is reported where it is, not where it
        # points, and a symlink loop must not raise.
        try:
            return path.relative_to(self.root).as_posix()
        except ValueError:
            pass
        try:
            return path.resolve().relative_to(self.root.resolve()).as_posix()
        except (ValueError, RuntimeError, OSError):
            return path.as_posix()

    def outside(self, path: Path) -> bool:
        """Whether ``path`` leads, through symlinks, out of the workspace (doctor never reads there: on an untrusted
        pull request a link could point at any file on the CI machine) or into a tool's folder (core/tool_folders.py)."""
        return self.where(path) is not None

    def where(self, path: Path) -> str | None:
        """"out" or "tool" when ``path`` leads out or into a tool's folder; None inside (once per path a snapshot)."""
        known = self._memo.setdefault("where", {})
        if path not in known:
            known[path] = self._where(path)
        return known[path]

    def _where(self, path: Path) -> str | None:
        try:
            real = self._resolved(path)
        except (OSError, RuntimeError):  # a symlink loop (RuntimeError before 3.13) leads nowhere
            return None
        text = os.path.normcase(real)  # by string, both resolved (as `real == root or root in real.parents`): 4,000 a run
        if not (text + os.sep).startswith(self._real_root_prefix):
            return "out"
        if PRUNED.isdisjoint(text.split(os.sep)):  # a tool folder's real path ends in its name (core/tool_folders.py)
            return None
        tools = self.memo("tool-folders", lambda: frozenset(Path(p).resolve() for p in self.tool_folders()))
        return "tool" if tools and (real in tools or not tools.isdisjoint(real.parents)) else None

    def tool_folders(self) -> list[str]:
        """core/tool_folders.py's folders of this workspace, listed once per snapshot."""
        return self.memo("tool-folders-listed", lambda: tool_folders(self.root))

    @cached_property
    def _root_prefix(self) -> str:
        return str(self.root).rstrip("/") + "/" if self.root.is_absolute() else "\0"  # a relative root: no fast path

    @cached_property
    def _real_root(self) -> Path:
        return self.root.resolve()
    _real_root_prefix = cached_property(lambda self: os.path.join(os.path.normcase(self._real_root), ""))  # with its last /

    def real_spelling(self, path: Path) -> list[Path]:
        """Where ``path`` really is, spelled under the root as an editor's buffer of it is laid (lsp/session.py),
        when that differs from ``path`` (a link on the way) and is inside; else nothing."""
        known = self._memo.setdefault("real-spelling", {})  # once a snapshot (an editor's: once a full run)
        if path not in known:
            try:
                resolved = self._resolved(path)  # each folder on the way resolved once, not once per rollout
            except (OSError, RuntimeError):
                resolved = Path(os.path.realpath(path))
            try:
                real = resolved.relative_to(self._real_root)
            except ValueError:
                known[path] = []
            else:
                known[path] = [] if self.root / real == path else [self.root / real]
        return known[path]

    def _resolved(self, path: Path) -> Path:
        """``path.resolve()``, each folder resolved once per snapshot: doctor asks this before every
        read, and resolving the whole path each time was a quarter of a large workspace's run."""
        name = path.name
        if name in ("", ".", "..") or os.path.islink(path):
            return path.resolve()
        folders = self._memo.setdefault("resolved-folders", {})
        if (real_parent := folders.get(parent := path.parent)) is None:
            real_parent = folders[parent] = parent.resolve()
        return real_parent / name

    def read_text(self, path: Path) -> str | None:
        """The file's text, or None when it is missing, not UTF-8 or outside the workspace; read once per snapshot."""
        if path not in self._texts:
            # is_file: a FIFO or device would block the read forever
            if self.outside(path) or self._too_big(path) or not is_file(path):
                self._texts[path] = None
                return None
            try:
                # CRLF read as LF, but a lone CR kept: TOML rejects it, so the config check must see it
                self._texts[path] = path.read_bytes().decode("utf-8").replace("\r\n", "\n")
                self._reads.append(str(path))
            except (OSError, UnicodeDecodeError):
                self._texts[path] = None
        elif path in self.overlays and (saw := getattr(self.units, "saw", None)) is not None:
            saw(path)  # a buffer's text is in hand before any check runs: an editor's run is told who reads it
        return self._texts[path]

    def overlay(self, path: Path, text: str) -> None:
        """Have every check read ``text`` for ``path`` instead of the file: an editor's unsaved buffer
        (`osmosis lsp`). ``path`` as the checks name it: under ``root``. A buffer over MAX_TEXT_BYTES
        is what a file that size is: unread, and reported as too big (a 3 MB buffer cost 440 MB parsed)."""
        self.overlays[path] = text
        self._texts[path] = None if self._too_big(path) else text.replace("\r\n", "\n")
        if self._texts[path] is not None:
            self._reads.append(str(path))

    def files_read(self) -> set[str]:
        """The files this snapshot has read successfully so far, as absolute paths (what "files checked" counts)."""
        return set(self._reads)

    def read_mark(self) -> int:
        return len(self._reads)

    def read_since(self, mark: int, absolute: bool = False) -> list[str]:
        """What was read since ``mark``, relative to the root (as a cache entry keeps it), or absolute (an editor's memory)."""
        if absolute:
            return self._reads[mark:]
        prefix = self._root_prefix  # as rel's own fast path
        return [p[len(prefix):] if p.startswith(prefix) else self.rel(Path(p)) for p in self._reads[mark:]]

    def count_read(self, paths: list[Path] | list[str]) -> None:
        """Count ``paths`` (absolute) as read (a file read outside ``read_text``)."""
        self._reads.extend(map(str, paths))

    def count_read_rel(self, rels: list[str]) -> None:
        """Count root-relative ``rels`` as read: a cached unit's files, read by the run that computed it."""
        self._reads.extend(map(f"{self.root}/".__add__, rels))

    def remember(self, unit: str, inputs: list[Path | str], extra: str, compute: Callable[[], list], codec: tuple | None = None,
                 buffers: bool = True) -> list:
        """``compute()``, or its result from an earlier doctor run in which ``inputs`` (files or folders under the
        root, with all below them) and ``extra`` were the same (``units``, set by doctor's run stage, or an editor
        session's memory: check/live.py; an input may be given as the string of its absolute path). The result is a
        list of findings, or of what ``codec`` (to_dict, from_dict) keeps. ``buffers=False``: ``compute`` reads no
        editor buffer, only the files and git (an edit in the editor keeps its result; doctor's cache on disk never
        keeps it: the whole run's key is its key)."""
        if self.units is None or (self.overlays and not getattr(self.units, "sees_buffers", False)):
            return compute()
        return self.units.recall(self, unit, inputs, extra, compute, codec, buffers)

    def _too_big(self, path: Path) -> bool:
        if path in self.overlays:  # an editor's buffer: its size, not the file's
            return utf8_size_over(self.overlays[path], MAX_TEXT_BYTES)
        try:
            return path.stat().st_size > MAX_TEXT_BYTES
        except OSError:
            return False

    def unread_reason(self, path: Path) -> str:
        """Why read_text gave None for an existing file, for a finding's message."""
        if (where := self.where(path)) is not None:
            return "links outside the workspace, so it was not read" if where == "out" else "lies in a tool's folder (.venv), so it was not read"
        if self._too_big(path):
            return f"is larger than {MAX_TEXT_BYTES} bytes, so it was not read"
        if (denied := access_denied(path)) is not None:
            return f"cannot be read: {denied}"
        return NOT_UTF8

    def unread_hint(self, path: Path) -> str:
        """How to fix what unread_reason says."""
        if (where := self.where(path)) is not None:
            return "Copy the file into the workspace and commit it, instead of linking to it." if where == "out" else "Keep your own files out of .venv."
        if self._too_big(path):
            return "Keep settings files small: move generated or bulk content out of it (datasets belong in data/)."
        if access_denied(path) is not None:
            return FILE_PERMISSIONS_HINT
        return "Re-save the file as UTF-8 (e.g. `iconv -f latin1 -t utf-8 FILE`), or fix the reported bytes."

    def memo(self, key: str, compute: Callable[[], T]) -> T:
        """``compute()`` once per snapshot: views several families share (parsed configs) cost one pass however many read them."""
        if key not in self._memo:
            track = getattr(self.units, "derive", None)  # an editor's run keeps what each view was made from
            self._memo[key] = compute() if track is None else track(self, key, compute)
        elif (used := getattr(self.units, "derived", None)) is not None:
            used(key)
        return self._memo[key]

    @cached_property
    def git_root(self) -> Path | None:
        return find_git_root(self.root)

    @cached_property
    def repo_prefix(self) -> str:
        """The root relative to the git top level ("" when they are the same or there is no git):
        CI annotations and SARIF locations are resolved against the repository."""
        if self.git_root is None:
            return ""
        rel = self.root.resolve().relative_to(self.git_root.resolve()).as_posix()
        return "" if rel == "." else rel

    @cached_property
    def rollout_dirs(self) -> list[Path]:
        base = self.root / "rollouts"
        if not is_dir(base):
            return []
        # A folder linked in from outside the workspace is reported by the layout check, never read.
        return [p for p in listing(base) if p.is_dir() and not p.name.startswith((".", "_")) and not self.outside(p)]

    def config_files(self, kind: str) -> list[Path]:
        base = self.root / "configs" / kind
        # once per snapshot (eleven checks ask); sorted by name, as Path order within one folder
        return self.memo(f"config-files:{kind}", lambda: sorted(base.glob("*.toml"), key=lambda p: p.name) if is_dir(base) else [])

    @cached_property
    def data_entries(self) -> list[Path]:
        """Every file under data/, datasets or not (notes, a README, a mistyped name)."""
        base = self.root / "data"
        if not is_dir(base):
            return []
        # is_symlink too: a link that never reaches a file (a loop, a dangling link) is not is_file(),
        # but it is a file the user meant to ship, so the dataset check reports it.
        return sorted(p for p in rglob_files(base) if p.is_file() or p.is_symlink())

    @cached_property
    def data_files(self) -> list[Path]:
        return [p for p in self.data_entries if p.suffix.lower() in DATASET_SUFFIXES]

    @cached_property
    def resolved_data_files(self) -> frozenset[Path]:
        """``data_files`` with links resolved, for "is this file one doctor checks anyway" tests."""
        # os.path.realpath, unlike Path.resolve() before Python 3.13, does not raise on a symlink loop
        return frozenset(Path(os.path.realpath(p)) for p in self.data_files)

    @cached_property
    def skill_dirs(self) -> list[Path]:
        base = self.root / ".agents" / "skills"
        return [p for p in listing(base) if p.is_dir()] if is_dir(base) else []

    def hidden(self, path: Path) -> bool:
        """Whether ``path`` lies inside a folder this process may not enter (:attr:`unreadable`):
        nothing can be known about it, and its folder is the one finding."""
        return any(is_folder and folder in path.parents for folder, (_, is_folder) in self.unreadable.items())

    @cached_property
    def unreadable(self) -> dict[Path, tuple[str, bool]]:
        """Files and folders doctor reads that this process may not open: path -> (the OS's reason,
        is a folder). Links are not followed (the checks that read through them report those)."""
        return unreadable_under(self.root, self.git_root)

    @cached_property
    def opted_in(self) -> bool:
        """Whether our own conventions apply (the `#:schema` first line, `.osmosis/schemas/`, the
        bundled skills): `osmosis init` made the workspace (it left `.copier-answers.yml`), its
        pyproject has `[tool.osmosis]`, or it already carries the schema files. The platform's own
        workspace template does none of these, and the platform does not need them."""
        tool = self.pyproject.get("tool")
        return (
            is_file(self.root / ".copier-answers.yml")
            or (isinstance(tool, dict) and "osmosis" in tool)
            or is_dir(self.root / ".osmosis" / "schemas")
        )

    @cached_property
    def pyproject(self) -> dict[str, Any]:
        """The root pyproject.toml as data ({} when missing or unparsable: the layout check says why)."""
        text = self.read_text(self.root / "pyproject.toml")
        if text is None:
            return {}
        try:
            return toml_loads(text)
        except tomllib.TOMLDecodeError:
            return {}
