"""A cold doctor run on a large workspace uses every core: each rollout's units of work run in worker processes.

Most of a large workspace's run is per-rollout work that checks already hand to `Workspace.remember`
(entrypoints, the SDK requirement, the lock, placeholders, leftovers, suppression comments: a unit
each). Here, worker processes run the families that hold such units, each on its own snapshot of
the same root, computing only the units of its shard of rollouts and skipping the rest; the main
process meanwhile runs every family as usual, and each unit it reaches is answered by the worker
that computed it (waiting for that worker if it must). A unit no worker computed (a worker failed,
a unit of no rollout) is computed in the main process. So the findings are those of one process,
by construction: the same functions over the same tree, only where they run differs.

Used on a cold run only (no per-unit results in the cache to reuse) of at least MIN_ROLLOUTS
rollouts, with more than one core; `OSMOSIS_DOCTOR_JOBS=N` sets the worker count (1: never).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from osmosis_workspace.core.workspace import Workspace

if TYPE_CHECKING:  # the pool's modules (about a tenth of a cold run's imports) load only when workers start
    from concurrent.futures import Future, ProcessPoolExecutor

# Measured on 2 cores (docs/performance.md, "Cold doctor on every core"): two workers took 0.80x the
# one-process wall time at 10 rollouts, 0.75x at 20, 0.59x at 500, 0.57x at 2,000; below 10 the
# saving is a few tens of milliseconds and within the noise, so one process does it.
MIN_ROLLOUTS = 10
# The families whose checks call Workspace.remember (a test keeps this list true), plus suppress.scan.
UNIT_FAMILIES = ("layout", "configs", "secrets", "entrypoints", "dependencies", "datasets")
# Families whose one unit is git's answer for the whole workspace (never on disk, never sharded): not pooled.
WHOLE_WORKSPACE_UNITS = ("git",)


def workers_wanted(rollouts: int) -> int:
    """How many worker processes a run over ``rollouts`` rollouts should start (0: none)."""
    raw = os.environ.get("OSMOSIS_DOCTOR_JOBS", "").strip()
    if raw:
        try:
            asked = int(raw)
        except ValueError:
            asked = 0
        return asked if asked > 1 else 0
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return min(cores, 8) if cores > 1 and rollouts >= MIN_ROLLOUTS else 0


def _subject(unit: str) -> str:
    """The rollout a unit belongs to: the last segment of what follows ``kind:`` (a folder name or path;
    a config's or a dataset's name less its suffix, as they are named after their rollouts: any other
    name still has one shard and one only)."""
    last = unit.partition(":")[2].rstrip("/").rsplit("/", 1)[-1]
    stem, dot, suffix = last.rpartition(".")
    return stem if dot and suffix in _NAMED_AFTER_ROLLOUTS else last


_NAMED_AFTER_ROLLOUTS = frozenset({"toml", "jsonl", "csv", "parquet"})


class _ShardMemo:
    """In a worker: compute the units of this shard's rollouts, skip every other unit (its result is dropped)."""

    def __init__(self, mine: frozenset[str]):
        self.mine = mine
        self.results: dict[str, tuple[list, list[str]]] = {}

    def recall(self, ws: Workspace, unit: str, inputs, extra, compute, codec=None, buffers=True) -> list:
        # Any unit a worker computes is that unit's true result (same function, same tree): the shard
        # only decides who does the work, never what the answer is.
        if _subject(unit) not in self.mine:
            return []
        mark = ws.read_mark()
        found = compute()
        self.results[unit] = (found, sorted(ws.read_since(mark)))
        return found


def _work(root: str, families: list[str], mine: list[str], run_checks) -> dict:
    from osmosis_workspace.check import suppress

    ws = Workspace(Path(root))
    memo = _ShardMemo(frozenset(mine))
    ws.units = memo
    run_checks(ws, [f for f in families if f in UNIT_FAMILIES])
    suppress.scan(ws, [])
    return memo.results


def _answered(ws: Workspace, found: list, read: list[str]):
    """A worker's result standing in for the unit's computation (what it read counted as read here)."""

    def answer() -> list:
        ws.count_read_rel(read)
        return list(found)

    return answer


class PooledUnits:
    """In the main process: each unit from the worker whose shard holds it, else from ``inner`` (the
    cache's per-unit memo, which also keeps it for the next run) or computed here."""

    def __init__(self, pool: ProcessPoolExecutor, futures: list[Future], owner: dict[str, int], inner):
        self.pool, self.futures, self.owner, self.inner = pool, futures, owner, inner
        self.results: list[dict | None] = [None] * len(futures)
        self.computed = 0  # units a worker answered

    def _shard(self, index: int) -> dict:
        if self.results[index] is None:
            try:
                self.results[index] = self.futures[index].result()
            except Exception:  # noqa: BLE001  a worker that failed leaves its units to this process
                self.results[index] = {}
        return self.results[index]

    def recall(self, ws: Workspace, unit: str, inputs, extra, compute, codec=None, buffers=True) -> list:
        index = self.owner.get(_subject(unit))
        done = self._shard(index).get(unit) if index is not None else None
        answer = compute if done is None else _answered(ws, *done)
        self.computed += done is not None
        if self.inner is not None:
            return self.inner.recall(ws, unit, inputs, extra, answer, codec, buffers)
        return answer()

    def close(self) -> None:
        for future in self.futures:
            future.cancel()
        self.pool.shutdown(wait=True, cancel_futures=True)


def start(ws: Workspace, families: list[str], inner, run_checks) -> PooledUnits | None:
    """Workers for a cold run worth them, already computing ``run_checks`` (run.py's, handed over so the
    two modules do not import each other) over their shards; None when one process is better."""
    if not any(f in UNIT_FAMILIES for f in families) or (inner is not None and getattr(inner, "previous", None)):
        return None
    if ws.overlays:  # an editor's unsaved buffers: the workers would read the files instead (and remember() is off)
        return None
    names = sorted(p.name for p in ws.rollout_dirs)
    count = workers_wanted(len(names))
    if count < 2 or not names:
        return None
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    # fork where there is one: the workers start with doctor's modules already imported
    context = multiprocessing.get_context("fork" if sys.platform.startswith("linux") else "spawn")
    size = -(-len(names) // count)
    shards = [names[i:i + size] for i in range(0, len(names), size)]
    pool = ProcessPoolExecutor(max_workers=len(shards), mp_context=context)
    futures = [pool.submit(_work, str(ws.root), families, shard, run_checks) for shard in shards]
    owner = {name: index for index, shard in enumerate(shards) for name in shard}
    return PooledUnits(pool, futures, owner, inner)
