"""Run the CLI in a process that file permissions bind.

Tests and CI run as root, and root reads a mode-000 file anyway (CAP_DAC_OVERRIDE,
CAP_DAC_READ_SEARCH). As root the command is prefixed with `setpriv`, which drops every capability
from the bounding and inheritable sets, so the child is a root that `chmod 000` stops like any user.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

LIMIT = 120


def prefix() -> list[str]:
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.fail("these tests run as root, where chmod 000 does not stop a read; they need `setpriv` "
                    "(util-linux) to drop CAP_DAC_OVERRIDE: install util-linux")
    return [setpriv, "--bounding-set=-all", "--inh-caps=-all"]


def run(*command, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([*prefix(), *map(str, command)], capture_output=True, text=True, timeout=LIMIT, cwd=cwd)


def osmosis(*args, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return run(sys.executable, "-m", "osmosis_workspace", *args, cwd=cwd)


@contextmanager
def no_access(*paths: Path, mode: int = 0) -> Iterator[None]:
    """``paths`` at ``mode`` (000: neither read nor listed) inside the block, as they were after it."""
    before = [(p, stat.S_IMODE(p.lstat().st_mode)) for p in paths]
    for path in paths:
        path.chmod(mode)
    try:
        yield
    finally:
        for path, old in reversed(before):
            path.chmod(old)
