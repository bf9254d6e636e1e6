"""Stage 1, run: every check of the chosen families over the workspace, or the findings a previous
run left in the cache for the very same inputs (check/cache.py says what "the same" covers)."""

from __future__ import annotations

import gc
import time
from contextlib import contextmanager

from osmosis_workspace.core.records import dataclass, field
from osmosis_workspace.core.workspace import Workspace
from osmosis_workspace.check.pipeline.attributed import Finding


class CheckCrashed(Exception):
    """A check raised: a bug in osmosis, not in the workspace (exit 3)."""


@dataclass
class RunResult:
    findings: list[Finding]
    timings: dict[str, float]  # seconds per family; empty when the findings came from the cache
    files_read: int
    suppressions: list  # suppress.Suppression: the comments the files carry, read with them
    unreadable: dict[str, bool] = field(default_factory=dict)  # paths this process may not open -> is a folder
    from_cache: bool = False
    cache_note: str = ""  # what the cache did, for --verbose


def run_checks(ws: Workspace, families: list[str], timings: dict[str, float] | None = None, around=None) -> list[Finding]:
    """(family, finding) for every check of ``families``; a crashing check is a CheckCrashed.
    ``timings``, when given, receives each family's seconds (its checks added up); ``around(fn, call)``,
    when given, answers for each check, calling ``call()`` when it must run (check/live.py)."""
    from osmosis_workspace.check.families import CHECKS

    found: list[Finding] = []
    for family, fn in CHECKS:
        if family not in families:
            continue
        started = time.perf_counter()
        try:
            found.extend(Finding(family, d) for d in (fn(ws) if around is None else around(fn, lambda fn=fn: list(fn(ws)))))
        except PermissionError as err:  # a path the access walk missed: still a finding, not a crash
            from osmosis_workspace.check.families.access import from_error

            if (d := from_error(ws, err)) is None:
                name = getattr(fn, "__qualname__", repr(fn))
                raise CheckCrashed(f"the {family} check {name} crashed: {type(err).__name__}: {err}") from err
            found.append(Finding("layout", d))
        except Exception as err:  # noqa: BLE001  reported as an internal error, with the culprit named
            name = getattr(fn, "__qualname__", repr(fn))
            raise CheckCrashed(f"the {family} check {name} crashed: {type(err).__name__}: {err}") from err
        if timings is not None:
            timings[family] = timings.get(family, 0.0) + time.perf_counter() - started
    return found


@contextmanager
def frozen_heap():
    """What is alive when the checks start (at 2,000 rollouts, millions of objects: the units and
    hashes the cache decoded) left out of the cycle collector's passes while they run, which walked it
    all again each time, for a tenth of a warm run's CPU. What the checks make is collected as usual
    (a cold run's memory stays flat), and the frozen objects are the collector's again afterwards."""
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


@contextmanager
def uncollected():
    """No cycle collection inside: for work that makes many objects and no cycles (the families' imports;
    the key's walk and the cache's files: at 2,000 rollouts, the collector's full passes over the decoded
    `units.json` as it grew were a twentieth of a warm run's CPU). Collection is as it was afterwards."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def run(ws: Workspace, families: list[str], cache=None) -> RunResult:
    """The checks' findings and the suppression comments of the files they concern; from ``cache``
    (a check.cache.Cache) when it holds this exact run, else computed and stored there."""
    from osmosis_workspace.check import suppress
    from osmosis_workspace.check.families.access import unreadable_paths

    with uncollected():
        key = cache.key(ws, families) if cache is not None else None
        if key is not None and (hit := cache.load(key)) is not None:
            hit.cache_note = "answered from the cache"
            return hit
        # a miss still reuses the units whose inputs did not change
        ws.units = cache.units() if key is not None else None
    if key is not None and (tools := cache.tool_folders) is not None:
        ws.memo("tool-folders-listed", lambda: tools)  # the key's walk found them (the re-walk after the run checks)
    timings: dict[str, float] = {}
    from osmosis_workspace.check.pipeline import pool

    workers = pool.start(ws, families, ws.units, run_checks)  # a cold run of a large workspace: its units on every core
    if workers is not None:
        ws.units = workers
    else:
        if "git" in families:  # cold or warm: Git Sync's answer is never taken from the cache (buffers=False)
            from osmosis_workspace.check.families import gitsync_early

            gitsync_early.start(ws)  # its gits run beside the other families (check/families/gitsync_early.py)
        if "secrets" in families:  # and the tracked .env files' `git ls-files`, never cached either
            from osmosis_workspace.check.families.secrets import start_tracked_env_files

            start_tracked_env_files(ws)
    try:
        with frozen_heap():
            findings = run_checks(ws, families, timings)
        read = ws.files_read() | {str(p) for p in ws.data_files}  # what the checks actually read
        marks = suppress.scan(ws, [f.diagnostic.path for f in findings if f.diagnostic.path])
    finally:
        ws.units = None
        if workers is not None:
            workers.close()
        from osmosis_workspace.core import safe_git

        safe_git.stop_early()
    result = RunResult(findings, timings, len(read), marks, unreadable_paths(ws))
    result.cache_note = _cache_note(cache, key)
    if workers is not None:
        result.cache_note += f"; {workers.computed} units of work computed by {len(workers.futures)} worker processes"
    # The findings are stored only when the workspace did not change under the run (they must be
    # those of the key's tree); else the units whose inputs did not change
    if key is not None:
        with uncollected():  # a re-walk and the files written: no cycles either
            cache.keep(key, result)
    return result


def _cache_note(cache, key: str | None) -> str:
    if cache is None:
        return "cache not used: --no-cache"
    if key is None:
        return "this workspace is not cached (too large, or its git folder lives elsewhere)"
    units = cache.unit_memo
    if units is None or not units.reused:
        return "nothing reused from the cache; filled for the next run"
    return f"{units.reused} of {units.reused + units.computed} units of work reused from the cache"
