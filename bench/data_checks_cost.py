"""What the data checks (DAT026-DAT030) cost the JSON lines reader, in CPU, on one file.

    python bench/data_checks_cost.py FILE [--runs 5] [--before CHECKOUT_OR_GENERATOR_DIR] [--instructions ROWS]

Each run is a fresh process that reads FILE with the serial reader (``jsonl.scan_range``, one process,
so the figure is CPU, not how it spreads over cores), once with the rows' profile (the data checks)
and once without it (the row rules only), alternating; with ``--before`` a third process runs the
other source tree's reader with its profile (PYTHONPATH put first, so its package is imported).
Printed: medians of the CPU seconds and the ratio with / without the data checks.

With ``--instructions ROWS`` each side runs once instead, under ``valgrind --tool=callgrind`` on the
first ROWS rows of FILE (``PYTHONHASHSEED=0``), and the figure is instructions a row, the imports
(a run that reads nothing) subtracted: the load of a shared machine does not move it. ``--before`` may
then be a build from before the data checks (1d40999: its reader is ``generator.formats.datasets``).
"""

from __future__ import annotations

import argparse
import itertools
import os
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

_CHILD = """
import os, resource, sys, time
from pathlib import Path
if os.environ.get("OSMOSIS_BENCH_LAYOUT") == "generator":  # a build from before the data checks (1d40999)
    from generator.formats.datasets import jsonl
    rows = None  # no profile to turn off
else:
    from osmosis_workspace.readers.datasets import jsonl, rows
path, profiled = Path(sys.argv[1]), sys.argv[2] == "1"
if rows is not None:
    real = rows.RowChecker.__init__
    def init(self, findings, spec=None, profile=True, digest_cap=None):
        real(self, findings, spec, profiled, digest_cap)
    rows.RowChecker.__init__ = init
import orjson
if sys.argv[3:] == ["imports"]:
    sys.exit()
start = time.process_time()
result = jsonl.scan_range(path, 0, path.stat().st_size, None)
print(time.process_time() - start, result.rows, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024)
"""


def _package_dir(tree: Path) -> Path:
    """The folder to put on PYTHONPATH for a source tree (either layout: generator/osmosis_workspace or generator/)."""
    generator = tree / "generator" if (tree / "generator").is_dir() else tree
    return generator if (generator / "osmosis_workspace").is_dir() else generator.parent


def _env(tree: Path) -> dict[str, str]:
    """The environment that makes a child import ``tree``'s reader (its package folder first on the path)."""
    old = (tree / "generator" / "formats" / "datasets" / "jsonl.py").is_file()  # 1d40999's layout: package `generator`
    return {**os.environ, "PYTHONPATH": str(_package_dir(tree)), "OSMOSIS_BENCH_LAYOUT": "generator" if old else ""}


def one(path: Path, profiled: bool, tree: Path) -> tuple[float, int, int]:
    env = _env(tree)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    out = subprocess.run([sys.executable, "-c", _CHILD, str(path), "1" if profiled else "0"], env=env, check=True,
                         capture_output=True, text=True).stdout.split()
    return float(out[0]), int(out[1]), int(out[2])


def instructions(path: Path, profiled: bool, tree: Path) -> float:
    """Instructions a row of ``path`` (callgrind), the imports' instructions subtracted."""
    env = {**_env(tree), "PYTHONHASHSEED": "0"}
    counts = []
    for extra in (["imports"], []):
        run = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, "-c", _CHILD,
                              str(path), "1" if profiled else "0", *extra], env=env, check=True, capture_output=True, text=True)
        counts.append(int(re.search(r"Collected : (\d+)", run.stderr)[1]))
        if not extra:
            rows = int(run.stdout.split()[1])
    return (counts[1] - counts[0]) / rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", type=Path)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--before", type=Path, help="another source tree (e.g. `git archive REF | tar -x -C DIR`)")
    parser.add_argument("--instructions", type=int, metavar="ROWS", help="count instructions a row on the first ROWS rows")
    args = parser.parse_args(argv)
    sides = {"with the data checks": (True, ROOT), "without them (row rules only)": (False, ROOT)}
    if args.before:
        sides["before, with its data checks"] = (True, args.before.resolve())
    if args.instructions:
        with tempfile.TemporaryDirectory() as tmp:
            part = Path(tmp) / "part.jsonl"
            with open(args.file, "rb") as src, open(part, "wb") as out:
                out.writelines(itertools.islice(src, args.instructions))
            counts = {name: instructions(part, profiled, tree) for name, (profiled, tree) in sides.items()}
        print(f"{args.file}, first {args.instructions:,} rows, serial reader, callgrind (PYTHONHASHSEED=0), imports subtracted")
        for name, count in counts.items():
            print(f"  {name:32s} {count:,.0f} instructions a row")
        if "before, with its data checks" in counts:
            print(f"  with the data checks / before: {counts['with the data checks'] / counts['before, with its data checks']:.2f}x")
        return 0
    cpu: dict[str, list[float]] = {name: [] for name in sides}
    rss: dict[str, int] = {}
    for _ in range(args.runs):
        for name, (profiled, tree) in sides.items():
            seconds, rows, peak = one(args.file, profiled, tree)
            cpu[name].append(seconds)
            rss[name] = max(rss.get(name, 0), peak)
    load = Path("/proc/loadavg").read_text().split()[:3] if Path("/proc/loadavg").exists() else ["n/a"]
    print(f"{args.file} ({rows:,} rows), serial reader, median of {args.runs}; load average now {' '.join(load)}")
    for name, values in cpu.items():
        print(f"  {name:32s} {statistics.median(values):.3f} s CPU (peak RSS {rss[name]} MB)")
    base = statistics.median(cpu["without them (row rules only)"])
    print(f"  with / without the data checks: {statistics.median(cpu['with the data checks']) / base:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
