"""Processes a run leaves behind: stand-in commands that start a grandchild with a marker in its argv,
and the processes still alive with that marker (Linux: /proc).

Shared by tests/rehearse/test_rehearse_orphans.py (`from tests.orphans import ...`) and
bench/adversarial/round3_lsp_rehearse.py (which puts the repository's root on its sys.path)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

SLEEPER = "import time; time.sleep(3600)"


def shell_script(path: Path, body: str) -> Path:
    """An executable `/bin/sh` script at ``path`` (a stand-in for uv or the SDK's `osmosis`)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(0o755)
    return path


def grandchild(marker: str, then: str) -> str:
    """Shell: a Python that starts a grandchild sleeping with ``marker``, then runs ``then`` (Python code)."""
    code = (f"import subprocess, sys, time; subprocess.Popen([sys.executable, '-c', {SLEEPER!r}, {marker!r}]); "
            "time.sleep(0.3); " + then)
    return f"{sys.executable} -c \"{code}\"\n"


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
