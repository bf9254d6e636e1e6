"""doctor's cache: the run stage's findings for a workspace whose every input is unchanged, and,
when some input changed, each per-rollout unit whose own inputs did not (`UnitMemo`).

Where: ``$XDG_CACHE_HOME/osmosis-workspace/doctor/<hash of the workspace's path>/`` (``~/.cache`` by
default; ``$OSMOSIS_DOCTOR_CACHE/<hash>/`` when set): outside the workspace, so a checkout stays clean and a pull request cannot plant entries.

What "unchanged" means: the checks are whole-workspace functions that list folders, read files, look
at permissions and ask git, so their one honest input set is the whole tree. The key's walk takes the
status of every entry under the root (a tool's folder, as core/tool_folders.py recognises it and every
check leaves it unread, as its name), the git folder (all but its objects and logs, which change only with
the refs and index it does take; through a `.git` link too), git's user config files, the ignore and
attributes files git's configuration names and the journal key, and compares each with the index of an
earlier walk (check/cache_index.py: size, times, inode, device, mode, owner; an entry changed within two
seconds of its walk by its content too). The key holds what is not as the index has it, every
configuration value git reads (an `include` may name any file), the variables doctor reads (GIT_*,
PRE_COMMIT, OSMOSIS_*), the user id, the Python version, this package's files and the families run. Any
change re-runs the checks, but for the units a check hands to `Workspace.remember`.

Safe under concurrent runs: every file is written to an exclusive temp file and renamed into place;
an entry that does not decode is ignored; a cache folder that cannot be written is no cache. Nothing is
walked again after a run: what changed while it ran (a `git gc` packing refs during a long cold run) is
seen by the next run's walk against the index of this one's (check/cache_index.py), which then reuses
no findings of this run and none of its units whose inputs hold the change.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import time
from pathlib import Path

from osmosis_workspace.check import cache_index
from osmosis_workspace.check.cache_tree import FINE, SKIP_IN_GIT, UNCOVERED, Tree, git_inputs
from osmosis_workspace.core.diagnostics import Diagnostic, Severity
from osmosis_workspace.core.workspace import Workspace

FORMAT = 2
KEEP = 16  # entries kept per workspace: a few branches' worth
FILE_CAP = 64 << 20  # a cache file larger than this is not read (a big workspace's findings take a few MB)


def cache_home() -> Path:
    if own := os.environ.get("OSMOSIS_DOCTOR_CACHE"):  # tests and CI runners that keep a cache folder
        return Path(own)
    base = os.environ.get("XDG_CACHE_HOME") or ""
    return (Path(base) if os.path.isabs(base) else Path.home() / ".cache") / "osmosis-workspace" / "doctor"


def _write_atomic(folder: Path, name: str, data: bytes) -> None:
    """Through the one writer (exclusive temp file, never through a link); a file another run
    replaced meanwhile is left to it: either run's entry is as good."""
    from osmosis_workspace.core.errors import UserError
    from osmosis_workspace.core.safe_write import write_bytes

    try:
        write_bytes(folder, folder / name, data, mode=0o600, durable=False)
    except UserError as err:
        raise OSError(str(err)) from None


def _package_identity() -> str:
    """This package's files (size and mtime): an edited checkout is a different tool."""
    import osmosis_workspace

    root = Path(osmosis_workspace.__file__).parent
    h = hashlib.sha256(f"{osmosis_workspace.__version__}\0{sys.version}".encode())
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(files):
            try:
                info = os.stat(os.path.join(folder, name))
            except OSError:
                continue
            h.update(f"{folder}/{name}\0{info.st_size}\0{info.st_mtime_ns}\n".encode("utf-8", "surrogateescape"))
    return h.hexdigest()


class Cache:
    def __init__(self, folder: Path):
        self.folder = folder
        self.tree: Tree | None = None  # the last key's walk
        self.index: cache_index.Index | None = None  # the index that walk compared with (walk.json), if usable
        self.root = self.extra = ""
        self.base = ""  # what every unit's key shares: tool, Python, environment, user, workspace
        self.unit_memo: UnitMemo | None = None
        self.tool_folders: frozenset[str] | None = None

    @classmethod
    def for_workspace(cls, ws: Workspace) -> "Cache":
        where = hashlib.sha256(os.fsencode(str(ws.root.resolve()))).hexdigest()[:24]
        return cls(cache_home() / where)

    def key(self, ws: Workspace, families: list[str]) -> str | None:
        """The run's key, or None when this workspace is not cached (too many entries, a git folder elsewhere)."""
        git_root = ws.git_root
        if git_root is not None and not os.path.isdir(git_root / ".git"):
            return None  # a worktree or submodule: its git folder lives elsewhere; not worth guessing
        env = sorted((k, v) for k, v in os.environ.items()
                     if (k.startswith(("GIT_", "OSMOSIS_")) or k == "PRE_COMMIT") and k != "OSMOSIS_DOCTOR_CACHE")
        shared = [FORMAT, _package_identity(), env, os.getuid() if hasattr(os, "getuid") else 0, str(ws.root)]
        self.base = hashlib.sha256(json.dumps(shared).encode("utf-8", "surrogateescape")).hexdigest()
        started = time.time_ns()
        self.index = cache_index.from_json(self._read_json("walk.json"), self.base, started)
        tree = Tree(started, *((self.index.entries, self.index.folders) if self.index is not None else ()))
        root = str(ws.root)
        try:
            # only what no check reads is left out: the root's .git (walked next, as git reads it) and
            # the tool folders the checks treat as outside (one definition, core/tool_folders.py)
            tree.add(root, left=frozenset({f"{root}/.git"}), tools=True)
            if git_root is not None:
                tree.add(str(git_root / ".git"), skip=SKIP_IN_GIT)
                git_inputs(tree, git_root)
                if git_root != ws.root:  # the ignore and attributes files between the repository's root and the workspace
                    for parent in ws.root.resolve().parents:
                        tree.add(str(parent / ".gitignore"))
                        tree.add(str(parent / ".gitattributes"))  # (git reads them too; GIT004 looks at them)
                        if parent == git_root.resolve():
                            break
            xdg = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
            # git's user config (what `git status` ignores), and the key that seals undo journals (LAY111 reads them)
            journal_key = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "osmosis-workspace" / "journal.key"
            for config in (Path.home() / ".gitconfig", Path(xdg) / "git" / "config", Path(xdg) / "git" / "ignore", Path("/etc/gitconfig"), journal_key):
                tree.add_read(str(config))
        except OverflowError:
            return None
        tree.finish()
        # the walk's tool folders, for the run's Workspace to reuse (tool_folders(root) looks for every
        # tool's name in every rollout folder again): None unless it listed every place they may be
        self.tool_folders = frozenset(tree.tools) if tree.tools_complete else None
        from osmosis_workspace.check.families import CHECKS

        checks = [f"{family}:{getattr(fn, '__module__', '')}.{getattr(fn, '__qualname__', '')}" for family, fn in CHECKS if family in families]
        self.tree, self.root, self.extra = tree, root, json.dumps([*shared, families, checks])
        return tree.digest(self.extra, self.index.gen if self.index is not None else "")

    def units(self) -> "UnitMemo | None":
        """The per-unit memo for a run that missed, over the last key's walk (None before a key)."""
        if self.tree is None:
            return None
        saved = self._read_json("units.json") if self.index is not None else None
        # units of another tool, Python or environment are all stale, and those written with another
        # index than the walk compared with are not known to be of what it saw (a run with none to
        # reuse may start the worker pool: check/pipeline/pool.py)
        fresh = (isinstance(saved, dict) and saved.get("base") == self.base and saved.get("gen") == self.index.gen
                 and isinstance(saved.get("units"), dict))
        self.unit_memo = UnitMemo(self.tree, self.base, saved["units"] if fresh else {}, self.root)
        return self.unit_memo

    def _read_json(self, name: str):
        """A cache file as JSON, or None: the folder is anyone's who can write it, so what it holds is
        bounded (size, depth) and every use checks its types; a bad file is a miss, never an error."""
        from osmosis_workspace.core.bounded import Unreadable, json_loads, read_capped

        try:
            data = read_capped(self.folder / name, FILE_CAP)
        except Unreadable:
            return None
        import orjson  # a dependency, as for the dataset readers: ten times json's speed on a large workspace's 10 MB files

        try:
            # it refuses nesting past 1,024 itself (no recursion error); what is kept of an entry
            # is re-encoded from what was decoded (UnitMemo.recall), so a deep value never goes back out
            return orjson.loads(data)
        except ValueError:  # orjson refuses what json.dumps writes for undecodable path bytes: json reads it
            pass
        try:
            return json_loads(data)
        except ValueError:
            return None

    def load(self, key: str):
        """The cached RunResult of ``key``, or None (none, or one that does not decode: ignored)."""
        from osmosis_workspace.check.pipeline.run import RunResult
        from osmosis_workspace.check.pipeline.attributed import Finding
        from osmosis_workspace.check.suppress import Suppression

        data = self._read_json(f"{key}.json")
        # the run that stored it found the same entries not as the index has them, each with the same status:
        # nothing changed since its walk (not even to and fro: a change time moves), while it ran included
        if not (isinstance(data, dict) and self.index is not None and self.tree is not None and data.get("gen") == self.index.gen
                and data.get("delta") == self.tree.delta):
            return None
        if not (data.get("format") == FORMAT and _count(data.get("files_read"))
                and _list_of(data.get("findings"), lambda f: isinstance(f, list) and len(f) == 2 and isinstance(f[0], str))
                and _list_of(data.get("suppressions"), _suppression_ok)
                and isinstance(data.get("unreadable"), dict) and all(type(v) is bool for v in data["unreadable"].values())):
            return None
        try:
            findings = [Finding(family, _diagnostic(d)) for family, d in data["findings"]]
            marks = [Suppression.from_dict(s) for s in data["suppressions"]]
        except BAD_ENTRY:
            return None
        result = RunResult(findings, {}, data["files_read"], marks, dict(data["unreadable"]), from_cache=True)
        return result

    def store(self, key: str, result) -> None:
        """The run's findings, and the index and units when worth it, under the key the next walk gives an
        unchanged tree (``key`` unless the index is new). Stored whatever changed while the run went on:
        the next walk sees any such change, and then does not take them."""
        data = {
            "format": FORMAT,
            "findings": [[f.family, f.diagnostic.to_dict()] for f in result.findings],
            "suppressions": [s.to_dict() for s in result.suppressions],
            "files_read": result.files_read,
            "unreadable": result.unreadable,
        }
        try:
            self.folder.mkdir(parents=True, exist_ok=True, mode=0o700)
            gen, data["delta"] = self._write_index()
            data["gen"] = gen
            # named as the next walk will name it: a new index leaves nothing changed since this walk
            _write_atomic(self.folder, f"{self.tree.digest(self.extra, gen)}.json", _dumps(data))
            self._prune()
        except OSError:  # a read-only or full cache folder: the run stands without it
            pass

    def keep(self, key: str | None = None, result=None) -> None:
        """After a run that missed: its findings (when ``key`` is given: an editor's hold buffers) and units."""
        if key is not None and self.tree is not None:
            self.store(key, result)
        else:
            self.store_units()

    def store_units(self) -> None:
        """Only the per-unit results (an editor's run: its findings hold unsaved buffers, its units do not)."""
        if self.tree is None:
            return
        try:
            self.folder.mkdir(parents=True, exist_ok=True, mode=0o700)
            self._write_index()
        except OSError:
            pass

    def _write_index(self) -> tuple[str | None, dict]:
        """The index a stored run names, and the entries its walk found not as that index has them: the
        one it compared with, or, when worth it (cache_index.worth_writing), this walk's, written after
        the units of this run (each computed after the walk, or reused with its inputs as the index has them)."""
        tree = self.tree
        if not cache_index.worth_writing(self.index, tree, self.unit_memo):
            return self.index.gen, tree.delta
        gen = cache_index.new_gen()
        if self.unit_memo is not None:  # (else the units on disk name another index: none is reused)
            _write_atomic(self.folder, "units.json", _dumps({"base": self.base, "gen": gen, "units": self.unit_memo.written()}))
        _write_atomic(self.folder, "walk.json", _dumps(cache_index.to_json(gen, self.base, tree.started_ns, tree.stats, tree.folders)))
        self.index = cache_index.Index(gen, tree.stats, tree.folders)
        tree.index, tree.delta = tree.stats, {}  # what a run stored now names: nothing changed since this walk
        return gen, tree.delta

    def _prune(self) -> None:
        entries = []
        for p in self.folder.glob("*.json"):
            if p.name not in ("hashes.json", "units.json", "walk.json"):  # (hashes.json: an older version's)
                try:
                    entries.append((p.stat().st_mtime_ns, p))
                except OSError:
                    continue
        for _, old in sorted(entries, reverse=True)[KEEP:]:
            try:
                old.unlink()
            except OSError:
                pass


def _dumps(data) -> bytes:
    """JSON as the cache writes it: orjson's (ten times json's on a large workspace's megabytes), or json's
    for what orjson will not write (a lone surrogate from an undecodable path, an integer past 64 bits)."""
    import orjson

    try:
        return orjson.dumps(data)
    except TypeError:  # orjson.JSONEncodeError is a TypeError
        return json.dumps(data).encode("utf-8", "surrogateescape")


# What a hostile entry may raise on decoding besides: int(1e400) is an OverflowError; str() of a list
# nested a thousand deep (orjson reads up to 1,024) a RecursionError.
BAD_ENTRY = (KeyError, TypeError, ValueError, AttributeError, OverflowError, IndexError, RecursionError)
_OPTIONAL_INT = (int, type(None))
_DIAGNOSTIC_TYPES = {"code": str, "name": str, "message": str, "hint": str, "path": (str, type(None)),
                     "line": _OPTIONAL_INT, "column": _OPTIONAL_INT, "fixable": bool}


def _count(value) -> bool:
    return type(value) is int and 0 <= value


def _list_of(value, ok) -> bool:
    return isinstance(value, list) and all(ok(item) for item in value)


def _suppression_ok(data) -> bool:
    return (isinstance(data, dict) and isinstance(data.get("path"), str) and _count(data.get("line"))
            and _count(data.get("column")) and _list_of(data.get("codes"), lambda c: isinstance(c, str))
            and type(data.get("whole_file")) is bool)


def _diagnostic(data: dict) -> Diagnostic:
    """A finding from a cache entry, every field of the type a run gives it (else ValueError)."""
    import dataclasses

    if not isinstance(data, dict) or not isinstance(data.get("severity"), str):
        raise ValueError("not a finding")
    fields = {}
    for f in dataclasses.fields(Diagnostic):
        if f.name == "severity" or f.name not in data:
            continue
        value = data[f.name]
        wanted = _DIAGNOSTIC_TYPES.get(f.name)
        if wanted is None or not isinstance(value, wanted) or (f.name in ("line", "column") and isinstance(value, bool)):
            raise ValueError(f"a finding's {f.name} of the wrong type")
        fields[f.name] = value
    return Diagnostic(severity=Severity(data["severity"]), **fields)


FINDINGS = (Diagnostic.to_dict, _diagnostic)  # a unit's codec unless it names one


class UnitMemo:
    """The results of one unit of work (one rollout's entrypoint checks, say), reused by a later run whose
    inputs for that unit are the same, so an edit re-checks what it touched, not the whole workspace.

    A unit names its inputs (files or folders under the root: each with all below it) and any value it
    depends on besides (``extra``); the file's units are all of one tool, Python, environment, user and root
    (``base``). One is reused when the walk found every entry of its inputs as the index the file was
    written with has them (``Tree.state``: a set test, no digest). A unit whose input the walk did not
    enter is computed and not kept."""

    def __init__(self, tree: Tree, base: str, previous: dict, root: str = ""):
        self.tree, self.base, self.previous = tree, base, previous
        self.prefix = f"{root}/" if root else "\0"
        self.now: dict[str, dict] = {}
        self.known: dict[str, tuple[int, str]] = {}  # input -> (its Tree.state, as the key spells it)
        self.recode: dict[str, tuple] = {}  # key -> the codec of a reused entry with items, kept as read: see `written`
        self.reused = self.computed = 0

    def written(self) -> dict[str, dict]:
        """The units as the file is to hold them: a reused entry with items written as this run would write it."""
        units = {}
        for key, entry in self.now.items():
            if (codec := self.recode.get(key)) is not None:  # decoded again: a check may have changed what it was given
                encode, decode = codec
                entry = {"items": [encode(decode(d)) for d in entry["items"]], "read": entry["read"]}
            units[key] = entry
        return units

    def _known(self, name: str) -> tuple[int, str]:
        prefix = self.prefix
        got = self.known[name] = (self.tree.state(name), name[len(prefix):] if name.startswith(prefix) else name)
        return got

    def recall(self, ws: Workspace, unit: str, inputs: list[Path], extra: str, compute, codec=None, buffers: bool = True) -> list:
        if not buffers:  # what git says: the whole run's key is its key
            return compute()
        encode, decode = codec or FINDINGS
        # tens of thousands of look-ups a run at 2,000 rollouts: the plain case (no findings, nothing read) stays short
        known = self.known
        worst, parts = FINE, [unit, str(len(inputs))]
        for name in inputs:
            if type(name) is not str:
                name = str(name)
            state, spelled = known.get(name) or self._known(name)
            if state > worst:
                worst = state
            parts.append(spelled)
        if worst == UNCOVERED:
            return compute()
        parts.append(extra)
        # NUL-separated, the count of inputs second: no part holds a NUL but `extra`, which comes last
        key = "\0".join(parts)
        entry = self.previous.get(key) if worst == FINE else None
        if type(entry) is dict and type(items := entry.get("items")) is list and type(read := entry.get("read")) is list:
            try:
                "".join(read)  # every read a string (a TypeError else), in one C-level pass
                if items:
                    found = [decode(d) for d in items]
                    # kept as read until the file is written (most runs leave it: cache_index.worth_writing), then as
                    # this run would write it: what the file held besides the fields read is never written back
                    self.now[key], self.recode[key] = entry, (encode, decode)
                else:
                    found, self.now[key] = [], {"items": [], "read": read}
            except BAD_ENTRY:
                pass  # an entry that does not decode is no entry
            else:
                if read:
                    ws.count_read_rel(read)
                self.reused += 1
                return found
        self.recode.pop(key, None)
        mark = ws.read_mark()
        found = compute()
        self.now[key] = {"items": [encode(d) for d in found], "read": sorted(ws.read_since(mark))}
        self.computed += 1
        return found
