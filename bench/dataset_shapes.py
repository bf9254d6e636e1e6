"""Dataset shapes of issue 18 point 9, timed with `osmosis validate` / `doctor` in a child process:
a dictionary-encoded `metadata` column of many rows in a tiny file, a parquet file of many row groups,
and a data/ folder of many one-line datasets.

    python bench/dataset_shapes.py                      # moderate sizes (~1 min)
    python bench/dataset_shapes.py --rows 2000000 --groups 200000 --files 100000   # the campaign's

Runs from a scratch folder, so `PYTHONPATH=<another checkout>` measures that checkout.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

_RSS_TO_MIB = 1 / (1024 * 1024) if sys.platform == "darwin" else 1 / 1024


def _run(argv: list[str], cwd: Path) -> tuple[int, float, float]:
    start = time.perf_counter()
    proc = subprocess.Popen(argv, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    return proc.returncode, time.perf_counter() - start, usage.ru_maxrss * _RSS_TO_MIB


def _make(root: Path, rows: int, groups: int, files: int) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    meta = pa.array(['{"id": 1, "tag": "a"}', '{"id": 2, "tag": "b"}'] * (rows // 2)).dictionary_encode()
    (root / "data").mkdir()
    pq.write_table(pa.table({"user_prompt": pa.array(["q"] * len(meta)).dictionary_encode(), "metadata": meta}),
                   root / "data" / "dict.parquet")
    table = pa.table({"user_prompt": ["q"] * groups, "ground_truth": ["a"] * groups})
    pq.write_table(table, root / "data" / "groups.parquet", row_group_size=1)
    many = root / "many" / "data"
    many.mkdir(parents=True)
    for i in range(files):
        (many / f"d{i}.jsonl").write_text('{"x": 1}\n')


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=500_000)
    parser.add_argument("--groups", type=int, default=50_000)
    parser.add_argument("--files", type=int, default=5_000)
    parser.add_argument("--make", type=Path, help=argparse.SUPPRESS)  # the child that writes the files
    args = parser.parse_args()
    if args.make:
        _make(args.make, args.rows, args.groups, args.files)
        return 0
    py = [sys.executable, "-m", "osmosis_workspace"]
    print(f"{'shape':>24} {'exit':>4} {'wall s':>7} {'peak MiB':>9}")
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        # the files are written by a child: this process stays small, so the measured children (which
        # Linux charges with their parent's resident pages until exec) start from little
        subprocess.run([sys.executable, __file__, "--make", str(root), "--rows", str(args.rows), "--groups",
                        str(args.groups), "--files", str(args.files)], check=True)
        for label, target in ((f"dict rows {args.rows:,}", root / "data" / "dict.parquet"),
                              (f"row groups {args.groups:,}", root / "data" / "groups.parquet"),
                              (f"one-line files {args.files:,}", root / "many" / "data")):
            code, wall, peak = _run([*py, "validate", str(target)], root)
            size = f"  ({target.stat().st_size // 1024} KB)" if target.is_file() else ""
            print(f"{label:>24} {code:>4} {wall:>7.2f} {peak:>9.0f}{size}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
