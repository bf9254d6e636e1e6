"""Property tests: whatever bytes or JSON a dataset holds, the checker returns diagnostics and
never raises; JSON lines and a JSON array of the same rows get the same verdicts."""

from __future__ import annotations

import io
import json
import tempfile
from collections import Counter
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from osmosis_workspace.check.families.datasets import check_dataset_file
from osmosis_workspace.readers.datasets.blocks import line_blocks, text_chunks
from osmosis_workspace.readers.datasets.capped import Findings
from osmosis_workspace.core.diagnostics import Diagnostic
from osmosis_workspace.check.registry import RULES

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
NAMES = ["user_prompt", "ground_truth", "label", "system_prompt", "metadata", "User_Prompt", "id", ""]

# Finite floats: json.dumps writes NaN and Infinity, which are not JSON (tested in test_files.py).
scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=8)
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3), max_leaves=6)
rows = st.dictionaries(st.sampled_from(NAMES), values, max_size=6) | values
# Bytes that look like datasets often enough to reach deep paths: JSON-ish and CSV-ish tokens.
tokens = st.sampled_from([b"{", b"}", b"[", b"]", b'"', b",", b":", b"\n", b"\r\n", b" ", b"\xef\xbb\xbf", b"\xff", b"\xc3",
                          b'"user_prompt"', b'"ground_truth"', b'"x"', b"1", b"null", b"user_prompt", b"ground_truth", b"PAR1"])
noisy_bytes = st.lists(tokens | st.binary(max_size=6), max_size=60).map(b"".join)


def _check(data: bytes, suffix: str) -> list[Diagnostic]:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"data{suffix}"
        path.write_bytes(data)
        found = check_dataset_file(path, f"data/data{suffix}")
    for d in found:
        assert isinstance(d, Diagnostic) and d.code in RULES and d.path == f"data/data{suffix}"
        assert d.message and "\n" not in d.message
        assert d.line is None or d.line >= 1
        assert d.column is None or d.column >= 1
    return found


@SETTINGS
@given(data=noisy_bytes, suffix=st.sampled_from([".jsonl", ".json", ".csv", ".parquet"]))
def test_random_bytes_never_raise(data, suffix):
    found = _check(data, suffix)
    if suffix != ".parquet" and len(data.splitlines()) < 4:
        assert found, "fewer than 4 lines can never be a valid dataset"


@SETTINGS
@given(lines=st.lists(rows, max_size=30))
def test_random_json_lines_never_raise(lines):
    found = _check("".join(json.dumps(r) + "\n" for r in lines).encode(), ".jsonl")
    if len([r for r in lines if isinstance(r, dict)]) < 4:
        assert any(d.code == "DAT011" for d in found)


@SETTINGS
@given(lines=st.lists(rows, min_size=1, max_size=30))
def test_a_json_array_is_rejected_whatever_its_rows(lines):
    as_array = _check(("[\n" + ",\n".join(json.dumps(r) for r in lines) + "\n]\n").encode(), ".json")
    assert [d.code for d in as_array] == ["DAT001"]  # the platform reads .jsonl, .csv, .parquet only


@SETTINGS
@given(data=st.binary(max_size=300) | noisy_bytes, block=st.integers(1, 40))
def test_block_readers_match_reading_whole(data, block):
    lines = [line for b in line_blocks(io.BytesIO(data), 0, len(data), block) for line in b]
    expected = data.split(b"\n")
    assert lines == (expected[:-1] if expected[-1] == b"" else expected)
    findings = Findings()
    text = "".join(text_chunks(io.BytesIO(data), findings, block))
    body = data[3:] if data.startswith(b"\xef\xbb\xbf") else data
    assert text == body.decode("utf-8", "replace")
    whole = Findings()
    "".join(text_chunks(io.BytesIO(data), whole, 1 << 20))
    assert findings.shown == whole.shown  # same bad bytes at the same places, whatever the block size


PARQUET_TYPES = {
    "string": (st.none() | st.text(max_size=5), "string"),
    "int": (st.none() | st.integers(-5, 5), "int64"),
    "struct": (st.none() | st.fixed_dictionaries({"id": st.integers(0, 3)}), None),
    "list": (st.none() | st.lists(st.text(max_size=2), max_size=2), None),
}


@SETTINGS
@given(
    columns=st.lists(st.tuples(st.sampled_from(NAMES), st.sampled_from(sorted(PARQUET_TYPES))), max_size=6),
    n_rows=st.integers(0, 6),
    data=st.data(),
)
def test_random_parquet_tables_never_raise(columns, n_rows, data):
    import pyarrow as pa
    import pyarrow.parquet as pq

    arrays = []
    for _, kind in columns:
        values = data.draw(st.lists(PARQUET_TYPES[kind][0], min_size=n_rows, max_size=n_rows))
        type_name = PARQUET_TYPES[kind][1]
        arrays.append(pa.array(values, type=getattr(pa, type_name)() if type_name else None))
    table = pa.Table.from_arrays(arrays, names=[name for name, _ in columns]) if columns else pa.table({})
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "t.parquet"
        pq.write_table(table, path)
        found = check_dataset_file(path, "data/t.parquet")
    assert all(isinstance(d, Diagnostic) and d.code in RULES for d in found)
    if n_rows < 4:
        assert any(d.code == "DAT011" for d in found)
