"""Every process rehearse starts runs in its own process group, and the whole group ends with it.

Killing only the child was not enough: the preflight's `uv run ... python` left the importing Python
running after a timeout (uv was killed, its child was not), and a rollout's module can start processes
of its own. So each child is a session leader (`start_new_session`), a stop signals its group, and
once the leader is gone whatever is left of the group gets SIGTERM, then SIGKILL (`sweep`). Used by
both paths that run workspace code: `runner.run_eval` (the SDK's `eval run`) and `preflight`.
"""

from __future__ import annotations

import os
import signal
import subprocess
import tempfile
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

from osmosis_workspace.core.records import dataclass

KILL = getattr(signal, "SIGKILL", signal.SIGTERM)  # Windows has no SIGKILL (nor process groups: see stop)
SWEEP_GRACE_S = 2.0   # what is left of a group gets this long after SIGTERM before SIGKILL
TERM_GRACE_S = 5.0
_TICK = 0.05
OUTPUT_CAP = 16 << 20  # of a child's output, the tail kept: its result and its failure are its last lines


def read_tail(handle, cap: int = OUTPUT_CAP) -> str:
    """The last ``cap`` bytes of the temporary file ``handle`` a child wrote (from a line's start when
    cut), any bytes decoded: a rollout that logs gigabytes, or prints bytes that are not UTF-8, is read
    bounded and without an exception."""
    size = os.fstat(handle.fileno()).st_size
    handle.buffer.seek(max(0, size - cap))  # the bytes beneath the text layer (no os.pread on Windows)
    data = handle.buffer.read(cap)
    if size > cap:
        data = data.split(b"\n", 1)[-1]
    return data.decode("utf-8", "replace")


def start(argv: Sequence[str], cwd: Path, env: Mapping[str, str], stdout, stderr) -> subprocess.Popen:
    """``argv`` as the leader of a new session (and so of its own process group); OSError if it cannot start."""
    return subprocess.Popen(list(argv), cwd=cwd, env=dict(env), stdin=subprocess.DEVNULL, stdout=stdout, stderr=stderr,
                            start_new_session=True)


def signal_group(pgid: int, sig: int) -> bool:
    """Send ``sig`` to process group ``pgid``; False when no process of it is left (or it is not ours)."""
    if not hasattr(os, "killpg") or pgid <= 1 or pgid == os.getpgid(0):
        return False  # never our own group, never everyone (and on Windows, no groups to signal)
    try:
        os.killpg(pgid, sig)
        return True
    except (ProcessLookupError, PermissionError, OSError):
        return False


def _group_alive(pgid: int) -> bool:
    return signal_group(pgid, 0)


def sweep(pgid: int, grace: float = SWEEP_GRACE_S) -> None:
    """End whatever is left of group ``pgid`` after its leader: SIGTERM, a grace, SIGKILL."""
    for sig in (signal.SIGTERM, KILL):
        if not signal_group(pgid, sig):
            return
        deadline = time.monotonic() + grace
        while time.monotonic() < deadline and _group_alive(pgid):
            time.sleep(_TICK)


def stop(process: subprocess.Popen, steps: Sequence[tuple[int, float]]) -> None:
    """Signal ``process``'s group with each (signal, grace) in turn until the leader exits, then sweep the group."""
    for sig, grace in steps:
        if process.poll() is not None:
            break
        if hasattr(os, "killpg"):
            signal_group(process.pid, sig)
        else:  # Windows: the child alone, as Popen can end it
            process.terminate()
        try:
            process.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            continue
    if process.poll() is None:  # a leader that outlived SIGKILL's grace (uninterruptible I/O): one last wait
        try:
            process.wait(timeout=TERM_GRACE_S)
        except subprocess.TimeoutExpired:
            pass
    sweep(process.pid)


@dataclass
class Finished:
    returncode: int | None
    stdout: str
    stderr: str
    timed_out: bool


def run(argv: Sequence[str], cwd: Path, env: Mapping[str, str], timeout: float) -> Finished:
    """``argv`` to its end or to ``timeout`` (then its group is stopped), its group swept either way.

    Output goes to unnamed temporary files, not pipes: a grandchild that keeps a pipe open would
    otherwise hold the read past the child's exit."""
    with tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace") as out, \
            tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace") as err:
        process = start(argv, cwd, env, out, err)
        timed_out = False
        try:
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
        finally:  # a timeout, or Ctrl-C while waiting: nothing of the group stays behind
            stop(process, ((signal.SIGTERM, TERM_GRACE_S), (KILL, TERM_GRACE_S)))
        return Finished(None if timed_out else process.returncode, read_tail(out), read_tail(err), timed_out)
