"""Parquet datasets: footer-only checks, and the documented path without pyarrow."""

from __future__ import annotations

import sys

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from osmosis_workspace.check.families.datasets import check_dataset_file
from tests.datasets.conftest import good_row


def _write(path, columns: dict, **kwargs):
    pq.write_table(pa.table(columns), path, **kwargs)
    return path


def _good_columns(n: int = 5) -> dict:
    rows = [good_row(i) for i in range(n)]
    return {k: [r[k] for r in rows] for k in rows[0]}


def codes(found):
    return [(d.code, d.line, d.column) for d in found]


def test_good_parquet_passes(tmp_path):
    path = _write(tmp_path / "ok.parquet", _good_columns())
    assert check_dataset_file(path, "ok.parquet") == []


def test_metadata_struct_column_is_accepted_without_ground_truth(tmp_path):
    cols = _good_columns()
    del cols["ground_truth"]
    cols["metadata"] = [{"id": i} for i in range(5)]
    assert check_dataset_file(_write(tmp_path / "m.parquet", cols), "m.parquet") == []


def test_non_string_column_type(tmp_path):
    cols = _good_columns()
    cols["ground_truth"] = pa.array([1, 2, 3, 4, 5], pa.int64())
    found = check_dataset_file(_write(tmp_path / "t.parquet", cols), "t.parquet")
    assert codes(found) == [("DAT008", None, None)]
    assert "`ground_truth` has type int64" in found[0].message


def test_nulls_and_empty_strings_come_from_the_statistics(tmp_path):
    cols = _good_columns()
    cols["user_prompt"][1] = None
    cols["ground_truth"][2] = ""
    found = check_dataset_file(_write(tmp_path / "n.parquet", cols), "n.parquet")
    assert sorted((d.code, d.severity.value) for d in found) == [("DAT009", "error")] * 2  # a null is missing, as "" is
    assert any("`user_prompt` has 1 null value" in d.message for d in found)


def test_without_statistics_only_the_schema_is_checked(tmp_path):
    cols = _good_columns()
    cols["ground_truth"][2] = ""
    path = _write(tmp_path / "s.parquet", cols, write_statistics=False)
    assert check_dataset_file(path, "s.parquet") == []


def test_missing_column_near_miss_and_row_count(tmp_path):
    cols = _good_columns(3)
    cols["Ground_Truth"] = cols.pop("ground_truth")
    found = check_dataset_file(_write(tmp_path / "c.parquet", cols), "c.parquet")
    assert [d.code for d in found] == ["DAT006", "DAT011"]
    assert "rename `Ground_Truth` to `ground_truth`" in found[0].hint


def test_not_a_parquet_file(write):
    found = check_dataset_file(write("x.parquet", b"PAR1 but not really"), "x.parquet")
    assert codes(found) == [("DAT004", None, None)]


def test_corrupt_footer_is_a_finding_not_a_crash(tmp_path):
    path = _write(tmp_path / "ok.parquet", _good_columns())
    data = bytearray(path.read_bytes())
    data[-12:-4] = b"\xff" * 8  # footer length and its last bytes
    path.write_bytes(bytes(data))
    found = check_dataset_file(path, "bad.parquet")
    assert [d.code for d in found] == ["DAT004"]
    assert "parquet footer" in found[0].message


def test_without_pyarrow_the_file_is_reported_unchecked(tmp_path, monkeypatch):
    path = _write(tmp_path / "ok.parquet", _good_columns())
    # A None entry in sys.modules makes `import pyarrow.parquet` raise ImportError.
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    monkeypatch.setitem(sys.modules, "pyarrow.parquet", None)
    found = check_dataset_file(path, "ok.parquet")
    assert codes(found) == [("DAT014", None, None)]
    assert found[0].severity.value == "warning"
    assert "pip install 'osmosis-workspace[parquet]'" in found[0].hint


def test_without_pyarrow_a_non_parquet_file_is_still_caught(write, monkeypatch):
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    monkeypatch.setitem(sys.modules, "pyarrow.parquet", None)
    assert [d.code for d in check_dataset_file(write("x.parquet", "user_prompt\n"), "x.parquet")] == ["DAT004"]


@pytest.mark.parametrize("rows", [0, 3])
def test_too_few_rows(tmp_path, rows):
    cols = {k: pa.array(v[:rows], pa.string()) for k, v in _good_columns().items()}
    found = check_dataset_file(_write(tmp_path / "few.parquet", cols), "few.parquet")
    assert [d.code for d in found] == ["DAT011"]
    assert f"has {rows} rows" in found[0].message


def test_duplicate_column_names(tmp_path):
    values = pa.array([f"v{i}" for i in range(5)])
    table = pa.Table.from_arrays([values] * 4, names=["system_prompt", "user_prompt", "ground_truth", "ground_truth"])
    pq.write_table(table, tmp_path / "dup.parquet")
    found = check_dataset_file(tmp_path / "dup.parquet", "dup.parquet")
    assert codes(found) == [("DAT016", None, None)]
