"""Processes a run left behind, found by a marker in their argv (Linux: /proc).

Shared by tests/rehearse/test_rehearse_orphans.py (`from tests.orphans import ...`) and
bench/adversarial/round3_lsp_rehearse.py (which puts the repository's root on its sys.path)."""

from __future__ import annotations

import os
from pathlib import Path


def alive_with(marker: str) -> list[int]:
    """The ids of the live processes whose command line holds ``marker``."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if marker.encode() in (entry / "cmdline").read_bytes():
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


def end_all(marker: str) -> list[int]:
    """:func:`alive_with`, each of them killed: whoever looks for leftovers must not leave them either."""
    pids = alive_with(marker)
    for pid in pids:
        try:
            os.kill(pid, 9)
        except OSError:
            pass
    return pids
