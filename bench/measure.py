"""Time one command line as a child process: wall time and the OS's peak resident memory.

Memory comes from os.wait4's rusage for that one child (ru_maxrss, KiB on Linux), so two rows
measured in the same run never share a counter the way getrusage(RUSAGE_CHILDREN) would.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Mapping, Sequence

# ru_maxrss is KiB on Linux and bytes on macOS
_RSS_TO_MIB = 1 / (1024 * 1024) if sys.platform == "darwin" else 1 / 1024


class CommandFailed(RuntimeError):
    """The measured command exited with a code it was not expected to."""


@dataclass(frozen=True)
class Sample:
    wall_s: float
    peak_mib: float
    returncode: int


@dataclass
class Timing:
    """Samples of one command after its warm-up runs."""

    argv: list[str]
    samples: list[Sample] = field(default_factory=list)

    @property
    def median_s(self) -> float:
        return statistics.median(s.wall_s for s in self.samples)

    @property
    def min_s(self) -> float:
        return min(s.wall_s for s in self.samples)

    @property
    def peak_mib(self) -> float:
        return max(s.peak_mib for s in self.samples)

    def as_dict(self) -> dict:
        return {
            "argv": self.argv,
            "median_s": round(self.median_s, 6),
            "min_s": round(self.min_s, 6),
            "runs_s": [round(s.wall_s, 6) for s in self.samples],
            "peak_rss_mib": round(self.peak_mib, 2),
        }


def run_once(
    argv: Sequence[str],
    *,
    cwd: Path | None = None,
    env: Mapping[str, str] | None = None,
    ok_codes: Sequence[int] = (0,),
) -> Sample:
    """Run ``argv`` once; raise CommandFailed (with the tail of its output) on an unexpected exit."""
    # Output goes to files, not pipes: nothing has to drain them while the clock runs.
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen(
            list(argv), cwd=cwd, env=None if env is None else dict(env),
            stdin=subprocess.DEVNULL, stdout=out, stderr=err,
        )
        # wait4 rather than proc.wait(): it hands back this child's own rusage
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)  # so Popen does not wait again
        if proc.returncode not in ok_codes:
            tail = []
            for stream in (err, out):
                stream.seek(0)
                tail += stream.read().decode("utf-8", "replace").strip().splitlines()[-4:]
            raise CommandFailed(
                f"{' '.join(map(str, argv))} exited {proc.returncode} (expected {list(ok_codes)}): "
                + " | ".join(line.strip() for line in tail if line.strip())
            )
    return Sample(wall_s=wall, peak_mib=usage.ru_maxrss * _RSS_TO_MIB, returncode=proc.returncode)


@dataclass
class Command:
    """One command line to time, and how to run it.

    ``prepare`` (if given) runs before every run, outside the timed span: for commands that need
    a fresh destination each time (init, copier copy).
    """

    argv: Sequence[str]
    cwd: Path | None = None
    env: Mapping[str, str] | None = None
    ok_codes: Sequence[int] = (0,)
    prepare: Callable[[], None] | None = None


def measure(commands: Sequence[Command], *, runs: int, warmup: int = 1) -> list[Timing]:
    """``warmup`` untimed rounds, then ``runs`` timed rounds; each round runs every command once.

    Interleaving a subject with its reference round by round means a slow spell of the machine
    (another job, a cold cache) hits both sides instead of skewing their ratio.
    """
    timings = [Timing(argv=[str(a) for a in c.argv]) for c in commands]
    for round_no in range(warmup + runs):
        for command, timing in zip(commands, timings):
            if command.prepare is not None:
                command.prepare()
            sample = run_once(command.argv, cwd=command.cwd, env=command.env, ok_codes=command.ok_codes)
            if round_no >= warmup:
                timing.samples.append(sample)
    return timings
