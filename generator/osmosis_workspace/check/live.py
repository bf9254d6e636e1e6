"""doctor in an editor's session: what the last run over a workspace found, kept in memory, so that a
run after typing re-checks only what the edited buffers touch.

An editor changes the text of its open buffers between runs; the files on disk are taken as they
were at the session's last full run. Between the two, a check's answer can change only through a
buffer it read (`Workspace.read_text` is where a buffer is laid over its file), or a unit of work
whose inputs hold one (`Workspace.remember`: a rollout's folder holds the buffer of its main.py). So:

- a **full run** (the first, after a save, an open, a close, a change on disk the editor reported, or
  `FULL_AFTER` seconds after the last) runs every check; the units whose inputs hold no unsaved
  buffer come from doctor's own cache on disk when it has them (check/cache.py), and go back to it.
  When no buffer differs from its file and doctor's cache holds the run for this very key, that is
  the answer (`served_from_disk`); it records nothing per check, so the next run is a full one, which
  the language server starts at once to have the memory edit runs need;
- an **edit run** (only buffer texts changed since the last run) takes each check's findings from
  the last run unless the check read a changed buffer or reached a unit holding one; a check that
  must run takes each of its units from memory unless that unit holds a changed buffer. A check that
  reached changed buffers only through loops of check/units.remember_each (items of one function) and
  views of check/units.view keeps its findings when those items and views, made again on the new
  snapshot, equal what they were (early cutoff): renaming a config's rollout re-runs the configs check only.

Each check and unit records what it read and which inputs it named, in both kinds of run.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from osmosis_workspace.check.pipeline.run import RunResult, frozen_heap, run_checks
from osmosis_workspace.core.workspace import Workspace, text_on_disk

FULL_AFTER = 60.0  # seconds: files changed outside the editor are seen at most this late without a save
# What a snapshot learns from the files alone (listings, access, git's root) or from the root
# pyproject.toml (an edit of which is a full run): an edit run starts from the last run's.
DISK_PROPERTIES = ("_real_root", "git_root", "repo_prefix", "rollout_dirs", "data_entries", "resolved_data_files",
                   "skill_dirs", "unreadable", "opted_in", "pyproject")
DISK_VIEWS = ("tool-folders", "tool-folders-listed", "resolved-folders", "real-spelling", "where", "local-datasets", "config-files:eval",
              "config-files:training", "config-files:benchmark", "placeholder-files:eval", "placeholder-files:training", "leftover-rejects", "leftover-candidates",
              "rollout-is-folder", "rollout-names", "config-judgement", "tracked-env-files",
              "misnamed-candidates")


def _with_folders(paths: set[str]) -> frozenset[str]:
    """``paths`` and every folder above each: an input holds a changed path when it is one of these."""
    found = set()
    for path in paths:
        while path not in found:
            found.add(path)
            parent = os.path.dirname(path)
            if parent == path:
                break
            path = parent
    return frozenset(found)


class _Units:
    """`Workspace.units` during a live run: each unit from memory (an edit run) or from the disk cache
    (a full run), computed when it holds a changed buffer; every answer recorded for the next run."""

    sees_buffers = True  # Workspace.remember hands units to it with buffers laid over the files

    def __init__(self, live: "Live", changed: set[str] | None, disk, dirty: set[str]):
        self.live, self.changed, self.disk, self.dirty = live, changed, disk, dirty
        self.touched: set[str] = set()  # the inputs the running check reached
        self.used: set[str] = set()  # the views (Workspace.memo keys) it used
        self.batches: list[_Batch] = []  # its loops of check/units.remember_each that reached nothing else
        self.views: dict[str, frozenset[str]] = {}  # view -> what it was made from
        self.fresh: set[str] = set()  # the units an edit run computed (a probe's, reused by the check's own run)
        self.spans: list[tuple[int, int]] = []  # the reads of the compared views (check/units.view) the running check made
        self.made: dict[str, tuple[frozenset[str], object]] = {}  # compared view -> (what it was made from, its value)

    def start(self) -> None:
        self.touched, self.used, self.batches, self.spans = set(), set(), [], []

    def reached(self, compared: bool = True) -> set[str]:
        """What the running check (or view) reached, the views it used included (``compared=False``:
        but those check/units.view made, which an edit run compares by value)."""
        found = set(self.touched)
        for key in self.used:
            if compared or key not in self.live.makers:
                found |= self.views.get(key, frozenset())
        return found

    def maker(self, key: str, fn) -> None:
        self.live.makers[key] = fn

    def derive(self, ws: Workspace, key: str, compute):
        """A view several checks share (`Workspace.memo`), made once a run: what it read and reached is
        charged to every check that uses it, not only to the first."""
        outer = self.touched, self.used, self.batches, self.spans
        self.start()
        mark = ws.read_mark()
        try:
            value = compute()
        finally:
            root = str(ws.root)
            self.views[key] = frozenset({*(f"{root}/{r}" for r in ws.read_since(mark)), *self.reached(),
                                         *(p for batch in self.batches for p in batch.items)})
            self.touched, self.used, self.batches, self.spans = outer
            self.used.add(key)
        if key in self.live.makers:  # compared by value in the next edit run: its reads are its own
            self.made[key] = (self.views[key], value)
            self.spans.append((mark, ws.read_mark()))
        return value

    def saw(self, path: Path) -> None:
        """A buffer read through `Workspace.read_text` (laid over its file before the run, so never
        among the reads the run records): the running check or view depends on it."""
        self.touched.add(str(path))

    def derived(self, key: str) -> None:
        self.used.add(key)  # expanded when the check ends: a view is used once per item of a loop

    def recall(self, ws: Workspace, unit: str, inputs, extra, compute, codec=None, buffers=True) -> list:
        # tens of thousands of look-ups an edit run at 2,000 rollouts: the kept case stays short
        # (str of a str is itself; a tuple is judgement's, of strings already; most units have one input)
        names = inputs if type(inputs) is tuple else (str(inputs[0]),) if len(inputs) == 1 else tuple(map(str, inputs))
        if buffers:  # (a unit that reads no buffer holds none: its inputs are no roots)
            self.touched.update(names)
        if self.changed is not None:  # an edit run
            kept = self.live.units.get(unit)
            if kept is not None and kept[0] == names and kept[1] == extra and (not buffers or unit in self.fresh or self.changed.isdisjoint(names)):
                if kept[3]:
                    ws.count_read(kept[3])
                return list(kept[2]) if kept[2] else []
            self.fresh.add(unit)
        mark = ws.read_mark()
        if self.changed is None and self.disk is not None and (not buffers or self.dirty.isdisjoint(names)):
            found = self.disk.recall(ws, unit, inputs, extra, compute, codec, buffers)  # the files alone: the disk cache's to keep
        else:
            found = compute()
        self.live.units[unit] = (names, extra, list(found), ws.read_since(mark, absolute=True))
        return found

    def recall_each(self, ws: Workspace, prefix: str, paths: list[Path], fn, codec) -> list:
        """check/units.remember_each in a live run: an edit run keeps each item none of whose files
        changed without a call; the loop is recorded apart from the check (`_Batch`) when its items
        reached nothing but what lies under them."""
        outer = self.touched, self.used, self.batches, self.spans
        self.start()
        start, found, reads = ws.read_mark(), [], []
        units, changed, fresh = self.live.units, self.changed, self.fresh
        try:
            for path in paths:
                name = str(path)
                unit = _unit_name(ws, prefix, name)
                kept = units.get(unit) if changed is not None else None
                if kept is not None and kept[0] == (name,) and kept[1] == "" and (name not in changed or unit in fresh):
                    reads += kept[3]
                    found += kept[2]
                else:
                    found += self.recall(ws, unit, (name,), "", lambda: fn(ws, path), codec)
        finally:
            ws.count_read(reads)
            items = frozenset(map(str, paths))
            touched, used, inner = self.touched, self.used, self.batches
            self.touched, self.used, self.batches, self.spans = outer
            if not used and not inner and all(_under(t, items) for t in touched - items):
                self.batches.append(_Batch(start, ws.read_mark(), prefix, fn, codec, items))
            else:  # it reached more: the check's own inputs, as any other unit's
                self.touched |= touched | items | {p for batch in inner for p in batch.items}
                self.used |= used
        return found

    def recall_items(self, ws: Workspace, key: str, items, judge, compute, make, codec) -> list:
        """check/units.remember_items in a live run: an edit run keeps an item whose id (the same object:
        an edit run's listings are the last run's) had the same token last run and none of whose inputs
        changed, without a call (its inputs still reached, its reads counted)."""
        items = items if isinstance(items, list) else list(items)
        last = self.live.items.pop(key, None) if self.changed is not None else None  # a run that fails keeps none
        place = _places(last[0], items) if last is not None else None
        changed, touched, units = self.changed, self.touched, self.live.units
        rows, out, reads = [], [], []
        for i, item in enumerate(items):
            old = last[1][j] if place is not None and (j := place(i, item[0])) >= 0 else None
            if old is not None and old[0] is item[1] and old[1] is not None and changed.isdisjoint(old[1]):
                touched.update(old[1])
                reads += old[3]
                rows.append(old)
                out.append(old[2])
                continue
            unit, inputs, extra = judge(item)
            if inputs is None:  # judged afresh each run: its reads are the check's own
                found, names, read = compute(item), None, ()
            else:
                found = self.recall(ws, unit, inputs, extra, lambda: compute(item), codec)
                names, _, _, read = units[unit]
            value = found if make is None else make(item, found)
            rows.append((item[1], names, value, read))
            out.append(value)
        ws.count_read(reads)
        self.live.items[key] = ([item[0] for item in items], rows)
        return out

    def config_entries(self, ws: Workspace, key: str, refs: list, entry, combine):
        """check/config_refs.by_config in a live run: each config's entry is last run's while its ConfigRef
        is the same object (its file unchanged: config_refs keeps it), and the value is last run's when
        every entry is, or the configs changed are where they were and their entries are equal; else combined again."""
        last = self.live.entries.pop(key, None) if self.changed is not None else None  # a run that fails keeps none
        place = _places(last[0], refs) if last is not None else None
        same = last is not None and len(last[0]) == len(refs)
        out = []
        for i, ref in enumerate(refs):
            if place is not None and (j := place(i, ref)) >= 0:
                out.append(last[1][j])
                continue
            value = entry(ws, ref)
            same = same and last[0][i].path == ref.path and last[1][i] == value
            out.append(value)
        combined = last[2] if same else combine(ws, out)
        self.live.entries[key] = (list(refs), out, combined)
        return combined

    def unchanged(self, ws: Workspace, batch: "_Batch", hit: frozenset[str]) -> bool:
        """Whether the items of ``batch`` an edit reached (``hit``) give what they gave last run
        (computed now, kept for the check's own run if it must run all the same)."""
        for name in sorted(hit):
            unit = _unit_name(ws, batch.prefix, name)
            kept = self.live.units.get(unit)
            if kept is None or kept[0] != (name,) or kept[1] != "":
                return False
            before = kept[2]
            if self.recall(ws, unit, (name,), "", lambda: batch.fn(ws, Path(name)), batch.codec) != before:
                return False
        return True


def _unit_name(ws: Workspace, prefix: str, name: str) -> str:
    """The unit of remember_each's item ``name`` (an absolute path): its path from the root after ``prefix``."""
    root = f"{ws.root}/"
    return prefix + (name[len(root):] if name.startswith(root) else ws.rel(Path(name)))


def _places(before: list, now: list):
    """Where each of ``now``'s items was in ``before`` (by the identity of its key: itself or its id): a function
    (index now, key) -> index before, or -1. The same place when the lists are as long (an edit run's
    listings are the last run's objects), else by ``id`` (``before`` keeps its objects alive, so an id names one)."""
    if len(before) == len(now):
        return lambda i, obj: i if before[i] is obj else -1
    where = {id(obj): j for j, obj in enumerate(before)}
    return lambda i, obj: j if (j := where.get(id(obj), -1)) >= 0 and before[j] is obj else -1


def _under(path: str, items: frozenset[str]) -> bool:
    """Whether ``path`` is one of ``items`` or lies below one."""
    while path not in items:
        parent = os.path.dirname(path)
        if parent == path:
            return False
        path = parent
    return True


class _Batch:
    """One loop of remember_each in a check: its reads (``start``..``end`` of the run's), its function
    and items. A check whose other inputs did not change keeps its findings when the items an edit
    reached give what they gave (`_Units.unchanged`): its findings are its own inputs and these items'."""

    __slots__ = ("start", "end", "prefix", "fn", "codec", "items")

    def __init__(self, start: int, end: int, prefix: str, fn, codec, items: frozenset[str]):
        self.start, self.end, self.prefix, self.fn, self.codec, self.items = start, end, prefix, fn, codec, items


class _Check:
    """One check's memory: what it read or reached but through its batches and compared views (``reached``),
    its ``findings``, what it ``read`` (absolute, counted again when kept), its ``batches``, the ``key`` it
    ran with (the suppression scan's files) and the compared ``views`` it used."""

    __slots__ = ("reached", "findings", "read", "batches", "key", "views")

    def __init__(self, reached: frozenset[str], findings: list, read: list[str], batches: tuple, key, views: tuple[str, ...]):
        self.reached, self.findings, self.read, self.batches, self.key, self.views = reached, findings, read, batches, key, views


class Live:
    """One workspace's memory in an editor session: each check's findings with what it depended on,
    each unit's result with its inputs, the buffers as last checked."""

    def __init__(self) -> None:
        self.units: dict[str, tuple] = {}  # unit -> (inputs, extra, result, read: absolute paths)
        self.checks: dict[str, _Check] = {}  # check -> what it found and what it depended on
        self.texts: dict[str, str] | None = None  # the buffers of the last run (absolute path -> text)
        self.full_at = 0.0
        self.full_runs = self.edit_runs = 0
        self.last_rerun: list[str] = []  # the checks the last run ran (the rest came from memory)
        self.disk_views: tuple[dict, dict] = ({}, {})
        # remember_items loop -> (its items' ids, a row per item: (token, inputs, value, read)), as last run
        self.items: dict[str, tuple[list, list[tuple]]] = {}
        self.entries: dict[str, tuple[list, list, object]] = {}  # by_config view -> (its ConfigRefs, their entries, value)
        self.makers: dict = {}  # compared view (check/units.view) -> the function that makes it from a snapshot
        self.made: dict[str, tuple[frozenset[str], object]] = {}  # compared view -> (what it was made from, value), as last made
        self._pending: tuple | None = None  # (snapshot, its changed buffers) between begin and run
        self.served_from_disk = False  # the last run was doctor's cached answer: nothing recorded per check

    def disk_changed(self) -> None:
        """The next run is a full one: a save, an open, a close, or the editor saw files change."""
        self.texts = None

    def _changed(self, ws: Workspace) -> set[str] | None:
        texts = {str(p): t for p, t in ws.overlays.items()}
        if self.texts is None or texts.keys() != self.texts.keys() or time.monotonic() - self.full_at > FULL_AFTER:
            return None
        changed = {p for p, t in texts.items() if self.texts[p] != t}
        # the root pyproject.toml is read once into the snapshot's own properties (settings, opted-in),
        # which no run records: an edit to it is a full run
        return None if str(ws.root / "pyproject.toml") in changed else changed

    def begin(self, ws: Workspace) -> None:
        """Before anything reads ``ws``: an edit run's snapshot starts from what the last run learnt
        of the files (settings are read before the checks run)."""
        self._pending = (ws, self._changed(ws))
        if self._pending[1] is not None:
            ws.__dict__.update(self.disk_views[0])
            ws._memo.update(self.disk_views[1])

    def run(self, ws: Workspace, families: list[str]) -> RunResult:
        from osmosis_workspace.check import suppress
        from osmosis_workspace.check.families.access import unreadable_paths

        if self._pending is None or self._pending[0] is not ws:
            self.begin(ws)
        changed, self._pending = self._pending[1], None
        disk = dirty = None
        if changed is None:
            self.units.clear()
            self.checks.clear()
            self.made.clear()
            self.items.clear()
            self.entries.clear()
            dirty = {str(p) for p, t in ws.overlays.items() if text_on_disk(p) != t.replace("\r\n", "\n")}
            disk = self._disk_units(ws, families)
            if not dirty and not self.served_from_disk and disk is not None and (hit := disk[0].load(disk[1])) is not None:
                # every buffer is its file: doctor's answer for this very key is the answer. It records
                # nothing per check, so the next run is a full one (the server starts it at once: prime)
                self.served_from_disk, self.texts = True, None
                self.full_at, self.full_runs = time.monotonic(), self.full_runs + 1
                hit.cache_note = "full run answered from doctor's cache (editor session)"
                return hit
        self.served_from_disk = False
        # from here on, a set of paths and every folder above them: an input holds one if it is among them
        changed = _with_folders(changed) if changed is not None else None
        # the units on disk are read only when the run is not answered whole (10 MB at 2,000 rollouts)
        units = _Units(self, changed, disk[0].units() if disk else None, _with_folders(dirty or set()))
        rerun: list[str] = []

        def kept_or_run(name: str, key, call, ran: list[str]) -> list:
            kept = self.checks.get(name)
            if changed is not None and kept is not None and kept.key == key and kept.reached.isdisjoint(changed):
                # what it reached but through its batches and compared views is unchanged: the batches'
                # items and the views the edit reached decide, each made again and compared with its last answer
                if all(units.unchanged(ws, batch, hit) for batch in kept.batches if (hit := batch.items & changed)) \
                        and all(self._same_view(ws, view, changed) for view in kept.views):
                    ws.count_read(kept.read)
                    return list(kept.findings)
            mark = ws.read_mark()
            units.start()
            found = call()
            read = ws.read_since(mark, absolute=True)
            own = [*read]
            # the batches' and compared views' reads are theirs, not the check's (spans in the order made)
            for start, end in sorted([*((b.start, b.end) for b in units.batches), *units.spans], reverse=True):
                del own[start - mark:end - mark]
            views = tuple(sorted(k for k in units.used if k in self.makers))
            self.checks[name] = _Check(frozenset({*own, *units.reached(compared=False)}), list(found), read, tuple(units.batches), key, views)
            ran.append(name)
            return found

        def around(fn, call) -> list:
            return kept_or_run(f"{getattr(fn, '__module__', '')}.{getattr(fn, '__qualname__', repr(fn))}", None, call, rerun)

        ws.units = units
        try:
            with frozen_heap():
                findings = run_checks(ws, families, around=around)
            paths = [f.diagnostic.path for f in findings if f.diagnostic.path]
            # the suppression comments of the files with findings, kept as a check's findings are
            marks = kept_or_run("suppress.scan", tuple(paths), lambda: suppress.scan(ws, paths), [])
        finally:
            ws.units = None
        if changed is None:
            self.full_at, self.full_runs = time.monotonic(), self.full_runs + 1
            if disk is not None:
                disk[0].keep()  # the units whose inputs did not change under the run
        else:
            self.edit_runs += 1
        self.made.update(units.made)
        self.texts = {str(p): t for p, t in ws.overlays.items()}
        self.disk_views = ({k: ws.__dict__[k] for k in DISK_PROPERTIES if k in ws.__dict__},
                           {k: ws._memo[k] for k in DISK_VIEWS if k in ws._memo})
        self.last_rerun = rerun
        # ws.unreadable: walked in a full run, the last full run's in an edit run (DISK_PROPERTIES)
        result = RunResult(findings, {}, len(ws.files_read()), marks, unreadable_paths(ws))
        result.cache_note = ("full run" if changed is None else f"edit run: {len(rerun)} check(s) re-run") + " (editor session)"
        return result

    def _same_view(self, ws: Workspace, key: str, changed: frozenset[str]) -> bool:
        """Whether compared view ``key`` is what it was when last made: made from nothing the edit
        changed, or made again now (once a run, for every check that uses it) and equal."""
        if key not in self.made or key not in self.makers:
            return False
        paths, value = self.made[key]
        return paths.isdisjoint(changed) or ws.memo(key, lambda: self.makers[key](ws)) == value

    def _disk_units(self, ws: Workspace, families: list[str]):
        """doctor's cache on disk, for the units no unsaved buffer touches (None when it cannot serve)."""
        from osmosis_workspace.check.cache import Cache

        cache = Cache.for_workspace(ws)  # its key walks the files, never reads a buffer
        key = cache.key(ws, families)
        return (cache, key) if key is not None else None
