"""Benchmark `osmosis dataset validate` against jq on the same JSON lines files, and time the
parquet footer check.

For each JSONL size: one warm-up run of each tool, then ``--runs`` runs alternating between them
(so background load hits both alike). Reported per tool: median and best wall time, throughput,
CPU time (user + sys, including worker processes), the largest single process's peak RSS
(its VmHWM) and the peak proportional set size of the whole process tree, both sampled from /proc
every 5 ms (PSS shares copy-on-write pages between forked workers fairly, so it is the honest
total). A process that ends before the first sample (jq on a tiny file) gets wait4's ru_maxrss
instead, an upper bound. The CLI's start-up counts: both tools are timed as whole processes.

    python bench/bench_dataset.py            # 10 MB and 1 GB JSONL, 5M-row parquet
    python bench/bench_dataset.py --quick    # 10 MB and 100 MB JSONL, 500k-row parquet

Generated files are kept in bench/.work/ (git-ignored) and reused when present.

Measured 2026-11-22 on the 2-CPU development VM, shared with other jobs, so wall times are noisy;
CPU time is the steadier figure. Median of 5, two runs (load average 3.6 / 5.5 at the start):

| file | osmosis s (CPU s) | jq s (CPU s) | jq / osmosis | osmosis max RSS / tree PSS |
|---|---|---|---|---|
| 10 MB JSONL | 0.24 / 0.42 (0.22 / 0.19) | 0.15 / 0.25 (0.14 / 0.12) | 0.63x / 0.60x | 36 MB / 30 MB |
| 1 GB JSONL | 5.02 / 9.53 (4.69 / 4.80) | 16.09 / 28.67 (14.09 / 13.05) | 3.2x / 3.0x | 36 MB / 61 MB |
| 5M-row parquet | 0.76 / 1.07 (0.39 / 0.44) | - | - | 78 MB / 69 MB |

On 10 MB the Python interpreter's start-up alone (about 0.2 s for `python -c pass` here) is more
than jq's whole run; the check itself takes about 0.05 s.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
WORK = HERE / ".work"
JQ_FILTER = 'select(.user_prompt|type != "string")'

sys.path.insert(0, str(HERE))
import gen_dataset  # noqa: E402  (bench/ is not a package)
from checkouts import other_checkout_cmd  # noqa: E402


@dataclass
class Sample:
    wall: float
    cpu: float
    maxrss_mb: float
    tree_pss_mb: float
    exit_code: int


@dataclass
class Series:
    label: str
    samples: list[Sample] = field(default_factory=list)

    def median(self, attr: str) -> float:
        return statistics.median(getattr(s, attr) for s in self.samples)

    def best(self, attr: str) -> float:
        return min(getattr(s, attr) for s in self.samples)

    def peak(self, attr: str) -> float:
        return max(getattr(s, attr) for s in self.samples)


def _descendants(pid: int) -> list[int]:
    """Every live descendant of ``pid``, from /proc/PID/task/TID/children (no psutil needed)."""
    found, frontier = [], [pid]
    while frontier:
        current = frontier.pop()
        try:
            tasks = os.listdir(f"/proc/{current}/task")
        except OSError:
            continue
        for task in tasks:
            try:
                with open(f"/proc/{current}/task/{task}/children") as fh:
                    kids = [int(k) for k in fh.read().split()]
            except OSError:
                continue
            found.extend(kids)
            frontier.extend(kids)
    return found


def _memory_kb(pid: int) -> tuple[int, int]:
    """(PSS, peak RSS) of one process in KiB; zeros once it has gone.

    Peak RSS is the process's own high-water mark (VmHWM): unlike wait4's ru_maxrss it does not
    include the memory of the (large) benchmark process it was forked from before exec.
    """
    pss = hwm = 0
    try:
        with open(f"/proc/{pid}/smaps_rollup") as fh:
            for line in fh:
                if line.startswith("Pss:"):
                    pss = int(line.split()[1])
                    break
        with open(f"/proc/{pid}/status") as fh:
            for line in fh:
                if line.startswith("VmHWM:"):
                    hwm = int(line.split()[1])
                    break
    except (OSError, ValueError):
        pass
    return pss, hwm


def run(cmd: list[str], cwd: Path = ROOT) -> Sample:
    """Run ``cmd`` in ``cwd`` (stdout to /dev/null) and measure it, sampling memory every 5 ms."""
    peak_pss, peak_rss = [0], {}
    done = threading.Event()
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=cwd)

    def exec_done() -> bool:
        # Between fork and exec the child still shows this process's memory: skip those samples.
        try:
            with open(f"/proc/{proc.pid}/cmdline", "rb") as fh:
                return fh.read().split(b"\0")[1 : len(cmd)] == [os.fsencode(a) for a in cmd[1:]]
        except OSError:
            return False

    def sample() -> None:
        while not done.is_set():
            if not exec_done():
                done.wait(0.001)
                continue
            total = 0
            for pid in [proc.pid, *_descendants(proc.pid)]:
                pss, hwm = _memory_kb(pid)
                total += pss
                peak_rss[pid] = max(peak_rss.get(pid, 0), hwm)
            peak_pss[0] = max(peak_pss[0], total)
            done.wait(0.005)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    done.set()
    sampler.join()
    proc.returncode = os.waitstatus_to_exitcode(status)
    err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
    if proc.returncode != 0:
        print(f"  ! {' '.join(cmd[-3:])} exited {proc.returncode}: {err.strip()[:300]}", file=sys.stderr)
    # A process that ended before the first sample: fall back to wait4's figure, an upper bound
    # (it can include this process's memory at fork).
    max_rss = max(peak_rss.values(), default=0) or usage.ru_maxrss
    return Sample(wall, usage.ru_utime + usage.ru_stime, max_rss / 1024, peak_pss[0] / 1024, proc.returncode)


def ours(path: Path) -> list[str]:
    return [sys.executable, "-m", "osmosis_workspace", "dataset", "validate", str(path)]


def theirs_cmd(path: Path, checkout: Path) -> list[str]:
    return [*other_checkout_cmd(checkout), "dataset", "validate", str(path)]


def jq(path: Path) -> list[str]:
    return ["jq", "-c", JQ_FILTER, str(path)]


def ensure_jsonl(size_mb: float) -> Path:
    path = WORK / f"bench-{size_mb:g}mb.jsonl"
    if not path.exists():
        print(f"generating {path} ...", file=sys.stderr)
        gen_dataset.write_jsonl(size_mb, path, seed=7)
    return path


def ensure_parquet(rows: int) -> Path:
    path = WORK / f"bench-{rows}.parquet"
    if not path.exists():
        print(f"generating {path} ...", file=sys.stderr)
        gen_dataset.write_parquet(rows, path, seed=7)
    return path


def bench_pair(path: Path, runs: int) -> tuple[Series, Series]:
    mine, theirs = Series("osmosis"), Series("jq")
    run(ours(path)), run(jq(path))  # warm-up: page cache, .pyc files
    for _ in range(runs):
        mine.samples.append(run(ours(path)))
        theirs.samples.append(run(jq(path)))
    return mine, theirs


def bench_before(path: Path, runs: int, before: Path) -> tuple[Series, Series]:
    """This checkout against ``before`` (another checkout's package, see theirs_cmd), round by round."""
    mine, theirs = Series("osmosis"), Series("before")
    run(ours(path)), run(theirs_cmd(path, before))
    for _ in range(runs):
        mine.samples.append(run(ours(path)))
        theirs.samples.append(run(theirs_cmd(path, before)))
    return mine, theirs


def row(label: str, size_mb: float, s: Series, ratio: str) -> str:
    wall = s.median("wall")
    return (
        f"| {label} | {s.label} | {wall:.2f} | {s.best('wall'):.2f} | {size_mb / wall:.0f} | "
        f"{s.median('cpu'):.2f} | {s.peak('maxrss_mb'):.0f} | {s.peak('tree_pss_mb'):.0f} | {ratio} |"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="10 MB + 100 MB JSONL and a 500k-row parquet")
    parser.add_argument("--sizes", type=float, nargs="+", help="JSONL sizes in MiB (default 10 1024)")
    parser.add_argument("--parquet-rows", type=int, help="rows in the parquet file (default 5000000)")
    parser.add_argument("--runs", type=int, default=5, help="timed runs per tool and file (median reported)")
    parser.add_argument("--json", type=Path, help="also write the raw samples here")
    parser.add_argument("--before", type=Path, metavar="CHECKOUT",
                        help="compare with another checkout of this repository (its own package, not the installed one) instead of jq, "
                             "JSON lines only: the cost of a change to the dataset checks")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    if args.before:
        return compare_before(args)
    if not shutil.which("jq"):
        print("jq is not on PATH; install it to compare", file=sys.stderr)
        return 2
    sizes = args.sizes or ([10, 100] if args.quick else [10, 1024])
    parquet_rows = args.parquet_rows or (500_000 if args.quick else 5_000_000)

    lines = [
        f"runs: {args.runs} (median; warm-up excluded); CPUs: {len(os.sched_getaffinity(0))}; "
        f"load average before: {os.getloadavg()[0]:.2f}",
        "",
        "| file | tool | median s | best s | MB/s | CPU s | max RSS MB | tree PSS MB | jq / osmosis |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    raw: dict[str, dict] = {}
    for size in sizes:
        path = ensure_jsonl(size)
        size_mb = path.stat().st_size / 1e6
        mine, theirs = bench_pair(path, args.runs)
        ratio = theirs.median("wall") / mine.median("wall")
        lines.append(row(f"{path.name} ({size_mb:.0f} MB)", size_mb, mine, f"**{ratio:.2f}x**"))
        lines.append(row(f"{path.name} ({size_mb:.0f} MB)", size_mb, theirs, ""))
        raw[path.name] = {"osmosis": [s.__dict__ for s in mine.samples], "jq": [s.__dict__ for s in theirs.samples]}
        if any(s.exit_code for s in mine.samples):
            lines.append(f"|   | (osmosis exited non-zero on {path.name}: the file should be clean) |||||||")

    path = ensure_parquet(parquet_rows)
    pq = Series("osmosis")
    run(ours(path))
    pq.samples = [run(ours(path)) for _ in range(args.runs)]
    size_mb = path.stat().st_size / 1e6
    lines.append(row(f"{path.name} ({parquet_rows} rows, {size_mb:.0f} MB)", size_mb, pq, "n/a (footer only)"))
    raw[path.name] = {"osmosis": [s.__dict__ for s in pq.samples]}

    print("\n".join(lines))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(raw, indent=2))
    return 0


def compare_before(args: argparse.Namespace) -> int:
    sizes = args.sizes or ([10, 100] if args.quick else [10, 1024])
    lines = [f"runs: {args.runs} (median; warm-up excluded); CPUs: {len(os.sched_getaffinity(0))}; before: {args.before}", "",
             "| file | checkout | median s | best s | MB/s | CPU s | max RSS MB | tree PSS MB | this / before (wall, CPU) |",
             "|---|---|---|---|---|---|---|---|---|"]
    for size in sizes:
        path = ensure_jsonl(size)
        size_mb = path.stat().st_size / 1e6
        mine, theirs = bench_before(path, args.runs, args.before.resolve())
        ratio = f"**{mine.median('wall') / theirs.median('wall'):.2f}x**, {mine.median('cpu') / theirs.median('cpu'):.2f}x"
        lines.append(row(f"{path.name} ({size_mb:.0f} MB)", size_mb, mine, ratio))
        lines.append(row(f"{path.name} ({size_mb:.0f} MB)", size_mb, theirs, ""))
        if any(s.exit_code for s in mine.samples + theirs.samples):
            lines.append(f"|   | (a run exited non-zero on {path.name}: the file should be clean) |||||||")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
