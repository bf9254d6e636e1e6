"""The benchmark measures the clean path: what bench/gen_dataset.py writes must pass every check."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from osmosis_workspace.check.families.datasets import check_dataset_file

GEN = Path(__file__).resolve().parents[2] / "bench" / "gen_dataset.py"


def _gen():
    spec = importlib.util.spec_from_file_location("gen_dataset", GEN)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_generated_jsonl_and_parquet_are_clean(tmp_path):
    gen = _gen()
    rows = gen.write_jsonl(0.2, tmp_path / "rows.jsonl", seed=1)
    assert rows > 100 and (tmp_path / "rows.jsonl").stat().st_size >= 0.2 * 1024 * 1024
    gen.write_parquet(2500, tmp_path / "rows.parquet", seed=1)
    assert check_dataset_file(tmp_path / "rows.jsonl", "rows.jsonl") == []
    assert check_dataset_file(tmp_path / "rows.parquet", "rows.parquet") == []


def test_generated_rows_vary_in_length(tmp_path):
    gen = _gen()
    gen.write_jsonl(0.05, tmp_path / "rows.jsonl", seed=2)
    lengths = {len(line) for line in (tmp_path / "rows.jsonl").read_bytes().splitlines()}
    assert max(lengths) > 2 * min(lengths)
