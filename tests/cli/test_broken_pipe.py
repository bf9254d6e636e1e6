"""`osmosis doctor | head`: a reader that stops early is not a bug in osmosis.

The report must end quietly (no "internal error", no traceback, no "Exception ignored" from the
interpreter's last flush), whether the pipe breaks mid-report or at the final flush.
"""

from __future__ import annotations

import subprocess
import sys

import pytest


def _run_with_closed_stdout(args: list[str], cwd) -> subprocess.CompletedProcess:
    # The read end is closed before the child writes anything, so its first write (or its final
    # flush) fails with EPIPE, exactly as under `| head -0`.
    proc = subprocess.Popen([sys.executable, "-m", "osmosis_workspace", *args], cwd=cwd,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()
    stderr = proc.stderr.read().decode("utf-8", "replace")
    proc.stderr.close()
    return subprocess.CompletedProcess(args, proc.wait(timeout=120), "", stderr)


@pytest.mark.parametrize("args", [
    ["doctor", "--format", "sarif"],   # large: breaks mid-report
    ["doctor"],                        # small: breaks at the final flush
    ["validate", "configs/eval/multiply.toml", "--format", "json"],
    ["doctor", "--list-checks", "--format", "markdown"],
])
def test_a_closed_pipe_ends_quietly(make_workspace, args):
    ws = make_workspace()
    result = _run_with_closed_stdout(args, ws)
    assert "internal error" not in result.stderr, result.stderr
    assert "Traceback" not in result.stderr and "Exception ignored" not in result.stderr, result.stderr
    assert result.returncode not in (3, 120), result.stderr
