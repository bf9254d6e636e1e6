"""`osmosis doctor --watch`: check the workspace again whenever one of its files changes.

Changes are found by polling each file's modification time and size: no dependency, no OS-specific
notification API, and the same on every file system (network mounts and containers included). The
scan is bounded (folders no check reads are skipped, at most MAX_ENTRIES entries, links not
followed), so a huge or hostile tree costs a fixed amount per poll. On a terminal each report
replaces the last (the screen is cleared); elsewhere a separator line names what changed.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

from osmosis_workspace.core.diagnostics import printable
from osmosis_workspace.core.errors import EXIT_OK, UserError

INTERVAL = 0.5  # seconds between polls
MAX_ENTRIES = 50_000
MAX_DEPTH = 24
# Folders with nothing a check reads, and often many files: tools' caches and environments.
SKIP = frozenset({".git", ".venv", "venv", "node_modules", "__pycache__", ".mypy_cache", ".ruff_cache",
                  ".pytest_cache", ".tox", ".nox", "build", "dist"})
CLEAR = "\x1b[H\x1b[2J"

Snapshot = dict[str, tuple[int, int]]


def snapshot(root: Path) -> Snapshot:
    """{relative path: (mtime in ns, size)} of the workspace's files and links, bounded."""
    from osmosis_workspace.core.journal import PREFIX

    seen: Snapshot = {}
    stack: list[tuple[str, str, int]] = [(str(root), "", 0)]
    while stack and len(seen) < MAX_ENTRIES:
        folder, rel, depth = stack.pop()
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            name = f"{rel}{entry.name}"
            try:
                if entry.is_dir(follow_symlinks=False):
                    if entry.name not in SKIP and not entry.name.startswith(PREFIX) and depth < MAX_DEPTH:
                        stack.append((entry.path, name + "/", depth + 1))
                    continue
                info = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            seen[name] = (info.st_mtime_ns, info.st_size)
            if len(seen) >= MAX_ENTRIES:
                break
    return seen


def changed(before: Snapshot, after: Snapshot) -> list[str]:
    return sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))


def _timed(root: Path) -> tuple[Snapshot, float]:
    started = time.perf_counter()
    return snapshot(root), time.perf_counter() - started


def wait_for_change(root: Path, before: Snapshot, interval: float) -> tuple[Snapshot, list[str]]:
    """Poll until a file changes; then wait until the tree holds still for one interval (an editor's
    save is often several writes), and return the new snapshot and what changed. A big tree is
    polled less often: a scan takes at most a fifth of the time."""
    pause = interval
    while True:
        time.sleep(pause)
        now, took = _timed(root)
        pause = max(interval, 4 * took)
        if now != before:
            break
    while True:
        time.sleep(pause)
        settled, _ = _timed(root)
        if settled == now:
            return now, changed(before, now)
        now = settled


def _redraw(stream, what: list[str]) -> None:
    if getattr(stream, "isatty", lambda: False)():
        stream.write(CLEAR)
        return
    names = ", ".join(printable(n) for n in what[:3]) + (f" and {len(what) - 3} more" if len(what) > 3 else "")
    stream.write(f"\n--- {time.strftime('%H:%M:%S')} changed: {names}; checked again ---\n\n")


def watch_command(path: Path, run: Callable[[], int], refuse: list[str] = (), interval: float | None = None) -> int:
    """Run ``run`` (one doctor), then again after every change under the workspace; Ctrl-C ends it, exit 0."""
    from osmosis_workspace.check.doctor import find_workspace

    if refuse:
        raise UserError(f"--watch cannot be combined with {refuse[0]}", hint="run that once, without --watch")
    root = find_workspace(path).root
    wait = interval if interval is not None else float(os.environ.get("OSMOSIS_WATCH_INTERVAL", INTERVAL))
    out = sys.stdout
    try:
        before = snapshot(root)
        while True:
            try:
                run()
            except UserError as err:  # e.g. the workspace's pyproject.toml made unreadable meanwhile: keep watching
                print(f"error: {printable(err.message)}", file=sys.stderr)
            out.flush()
            print(f"watching {printable(str(root))} for changes; Ctrl-C stops", file=sys.stderr, flush=True)
            before, what = wait_for_change(root, before, wait)
            _redraw(out, what)
    except KeyboardInterrupt:
        print("stopped watching", file=sys.stderr)
        return EXIT_OK
