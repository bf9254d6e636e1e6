"""Write realistic benchmark datasets: a JSONL file of about SIZE_MB megabytes and, optionally, a
parquet file of N rows.

Rows follow the multiply task (contract section 2): two signed decimals in the user prompt, their
product as the ground truth, and one of several system prompts of different lengths. Some prompts
carry extra wording so that line lengths vary the way real datasets do. Output is deterministic
for a given --seed.

Usage:
    python bench/gen_dataset.py 1024 bench/.work/1g.jsonl
    python bench/gen_dataset.py 10 bench/.work/10m.jsonl --parquet bench/.work/5m.parquet --parquet-rows 5000000
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

import orjson

SYSTEM_PROMPTS = [
    "Multiply the two numbers. Put the product on its own line after '#### '.",
    "You are a careful calculator. Read val1 and val2, multiply them, and give the product rounded "
    "to four decimal places on its own final line, prefixed with '#### '. Show your working first.",
    "You are a math tutor helping a student check their arithmetic. Work through the multiplication "
    "step by step, explaining each partial product, then state the final answer on its own line "
    "after '#### '. Round to four decimal places. Do not include units or any other text on the "
    "final line, because it is graded automatically.",
]
PREAMBLES = [
    "",
    "",
    "Compute the product.\n",
    "A sensor logged two readings. What is their product?\n",
    "Here are two values from the ledger; multiply them and report the result to four places.\n",
]


def rows(seed: int):
    """An endless stream of multiply rows as dicts."""
    rng = random.Random(seed)
    while True:
        a = round(rng.uniform(-2000, 2000), 4)
        b = round(rng.uniform(-2000, 2000), 4)
        yield {
            "system_prompt": rng.choice(SYSTEM_PROMPTS),
            "user_prompt": f"{rng.choice(PREAMBLES)}val1 = {a}\nval2 = {b}",
            "ground_truth": f"{a * b:.4f}",
        }


def write_jsonl(size_mb: float, out: Path, seed: int) -> int:
    """Write rows until the file holds at least ``size_mb`` MiB; returns the row count."""
    target = int(size_mb * 1024 * 1024)
    written = count = 0
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("wb") as fh:
        batch: list[bytes] = []
        for row in rows(seed):
            line = orjson.dumps(row) + b"\n"
            batch.append(line)
            written += len(line)
            count += 1
            if len(batch) >= 10_000 or written >= target:
                fh.write(b"".join(batch))
                batch.clear()
            if written >= target:
                return count
    return count  # pragma: no cover  (rows() never ends)


def write_parquet(n_rows: int, out: Path, seed: int) -> None:
    """Write ``n_rows`` rows in row groups of 100k so memory stays bounded."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    out.parent.mkdir(parents=True, exist_ok=True)
    schema = pa.schema([("system_prompt", pa.string()), ("user_prompt", pa.string()), ("ground_truth", pa.string())])
    source = rows(seed)
    with pq.ParquetWriter(out, schema) as writer:
        left = n_rows
        while left:
            n = min(left, 100_000)
            batch = [next(source) for _ in range(n)]
            writer.write_table(pa.Table.from_pylist(batch, schema=schema))
            left -= n


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("size_mb", type=float, help="JSONL size in MiB")
    parser.add_argument("out", type=Path, help="JSONL file to write")
    parser.add_argument("--parquet", type=Path, help="also write a parquet file here")
    parser.add_argument("--parquet-rows", type=int, default=5_000_000, help="rows in the parquet file")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)
    n = write_jsonl(args.size_mb, args.out, args.seed)
    print(f"{args.out}: {n} rows, {args.out.stat().st_size / 1e6:.1f} MB", file=sys.stderr)
    if args.parquet:
        write_parquet(args.parquet_rows, args.parquet, args.seed)
        print(f"{args.parquet}: {args.parquet_rows} rows, {args.parquet.stat().st_size / 1e6:.1f} MB", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
