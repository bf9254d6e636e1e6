"""The readers stream: they read in bounded blocks, yield before the file is exhausted, and keep
their memory far below the file's size. (Throughput and RSS are measured in bench/, not here.)"""

from __future__ import annotations

import io
import json
import tracemalloc

import pytest

from osmosis_workspace.readers.datasets import jsonl
from osmosis_workspace.readers.datasets.blocks import line_blocks, text_chunks
from osmosis_workspace.readers.datasets import profile
from osmosis_workspace.readers.datasets.csvfile import scan_csv
from osmosis_workspace.readers.datasets.capped import Findings
from osmosis_workspace.readers.datasets.jsonarray import scan_json_array
from tests.datasets.conftest import good_row, jsonl_bytes

BLOCK = 64 << 10


class RecordingReader(io.BytesIO):
    """A file whose reads are recorded: the largest single read and the bytes read so far."""

    def __init__(self, data: bytes):
        super().__init__(data)
        self.largest = self.total = 0

    def read(self, size: int | None = -1) -> bytes:
        data = super().read(size)
        self.largest = max(self.largest, len(data))
        self.total += len(data)
        return data


def _rows(n: int) -> list[dict]:
    return [good_row(i) for i in range(n)]


@pytest.fixture(scope="module")
def big_jsonl() -> bytes:
    return jsonl_bytes(_rows(12_000))  # ~4 MB: 60 blocks of 64 KiB


def test_line_blocks_yield_before_the_file_is_read(big_jsonl):
    fh = RecordingReader(big_jsonl)
    blocks = line_blocks(fh, 0, len(big_jsonl), BLOCK)
    first = next(blocks)
    assert first and fh.total <= BLOCK < len(big_jsonl)
    rest = sum(len(b) for b in blocks)
    assert len(first) + rest == 12_000
    assert fh.largest <= BLOCK and fh.total == len(big_jsonl)


def test_jsonl_scan_reads_in_bounded_blocks(big_jsonl, tmp_path, monkeypatch):
    path = tmp_path / "big.jsonl"
    path.write_bytes(big_jsonl)
    readers: list[RecordingReader] = []

    def recording_open(p, mode="r", *args, **kwargs):
        assert mode == "rb"
        readers.append(RecordingReader(open(p, "rb").read()))  # the test holds the copy, not the checker
        return readers[-1]

    monkeypatch.setattr(jsonl, "open", recording_open, raising=False)
    result = jsonl.scan_range(path, 0, len(big_jsonl), None, block_size=BLOCK)
    assert result.rows == 12_000 and result.findings.counts == {}
    assert readers[-1].largest <= BLOCK and readers[-1].total == len(big_jsonl)


def test_json_array_reads_in_bounded_chunks():
    data = json.dumps(_rows(6000), separators=(",", ":")).encode()  # one line, ~2 MB
    fh = RecordingReader(data)
    findings = Findings()
    assert scan_json_array(fh, findings, block_size=BLOCK) == (6000, True)
    assert findings.counts == {}
    assert fh.largest <= BLOCK and fh.total == len(data)


def test_csv_reads_in_bounded_chunks():
    rows = _rows(6000)
    text = "system_prompt,user_prompt,ground_truth\n" + "".join(
        f'"{r["system_prompt"]}","{r["user_prompt"]}",{r["ground_truth"]}\n' for r in rows
    )
    fh = RecordingReader(text.encode())
    findings = Findings()
    assert scan_csv(fh, findings, block_size=BLOCK) == 6000
    assert findings.counts == {}
    assert fh.largest <= BLOCK


def _peak_bytes(fn, data: bytes) -> int:
    """Peak Python allocations while ``fn`` reads ``data`` (the data itself is allocated before)."""
    fh = io.BytesIO(data)
    tracemalloc.start()
    try:
        fn(fh)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def _jsonl_from(fh: io.BytesIO, tmp_path) -> None:
    path = tmp_path / "rows.jsonl"
    path.write_bytes(fh.getvalue())
    jsonl.scan_range(path, 0, path.stat().st_size, None, block_size=32 << 10)


def _csv(n: int) -> bytes:
    return ("user_prompt,ground_truth,system_prompt\n" + "2 * 3,6,Multiply.\n" * n).encode()


@pytest.mark.parametrize(
    "fmt, make, read",
    [
        ("jsonl", lambda n: jsonl_bytes(_rows(n)), None),
        ("json", lambda n: json.dumps(_rows(n)).encode(), lambda fh: scan_json_array(fh, Findings(), block_size=32 << 10)),
        ("csv", lambda n: _csv(n * 16), lambda fh: scan_csv(fh, Findings(), block_size=32 << 10)),
    ],
)
def test_memory_is_flat_whatever_the_file_size(fmt, make, read, tmp_path, monkeypatch):
    # The data checks remember up to DIGEST_CAP prompt digests, LABEL_CAP labels and SYSTEM_CAP system
    # prompts a file (about 5 MB at the caps): memory grows with the rows up to the caps and is flat
    # past them. Caps below both sizes show the flat part.
    for cap in ("DIGEST_CAP", "LABEL_CAP", "SYSTEM_CAP"):
        monkeypatch.setattr(profile, cap, 100)
    if read is None:
        read = lambda fh: _jsonl_from(fh, tmp_path)  # noqa: E731
    small, large = make(1500), make(6000)  # ~0.5 MB and ~2 MB
    peak_small, peak_large = _peak_bytes(read, small), _peak_bytes(read, large)
    # Four times the data, about the same memory; and far less than the file.
    assert peak_large < 1.5 * peak_small + (64 << 10), (peak_small, peak_large)
    assert peak_large < len(large) / 4, (peak_large, len(large))


def test_an_oversized_array_element_is_reported_not_held():
    data = b'[{"user_prompt": "' + b"x" * 100_000 + b'", "ground_truth": "1"}]'
    findings = Findings()
    rows, whole = scan_json_array(io.BytesIO(data), findings, block_size=1024, max_element=8192)
    assert (rows, whole) == (0, False)
    assert [(f.kind, f.line, f.column) for f in findings.shown] == [("malformed", 1, 2)]
    assert "larger than 8192 characters" in findings.shown[0].message


@pytest.mark.parametrize("block", [1, 2, 3, 5, 7, 64])
def test_text_chunks_never_split_a_character(block):
    text = "línea 1 ✓\nzweite Zeile 🧮 über\n" * 5
    data = text.encode() + b"bad \xff byte\n"
    findings = Findings()
    joined = "".join(text_chunks(io.BytesIO(data), findings, block))
    assert joined == data.decode("utf-8", "replace")
    assert [(f.kind, f.line, f.column) for f in findings.shown] == [("encoding", 11, 5)]


@pytest.mark.parametrize("block", [1, 2, 3, 10, 1000])
def test_line_blocks_any_block_size(block):
    data = b"a\n\nbb\r\nccc\nlast-without-newline"
    lines = [line for b in line_blocks(io.BytesIO(data), 0, len(data), block) for line in b]
    assert lines == data.split(b"\n")


def test_an_over_long_jsonl_line_is_skipped_not_held(tmp_path, monkeypatch):
    from osmosis_workspace.readers.datasets import blocks

    monkeypatch.setattr(blocks, "MAX_LINE", 4096)
    rows = [json.dumps(good_row(i)) for i in range(5)]
    long_line = json.dumps([good_row(i) for i in range(200)])  # ~30 KB: an array on one line
    path = tmp_path / "long.jsonl"
    path.write_text("\n".join(rows[:2] + [long_line] + rows[2:]) + "\n")
    with open(path, "rb") as fh:
        lines = [line for b in line_blocks(fh, 0, path.stat().st_size, 1024) for line in b]
    assert len(lines) == 6 and lines[2] is blocks.LONG_LINE and max(map(len, lines)) < 4096
    result = jsonl.scan_range(path, 0, path.stat().st_size, None, block_size=1024)
    assert result.rows == 5
    assert [(f.kind, f.line) for f in result.findings.shown] == [("malformed", 3)]
    assert "longer than" in result.findings.shown[0].message


def test_an_over_long_csv_line_stops_the_scan(monkeypatch):
    from osmosis_workspace.readers.datasets import blocks

    monkeypatch.setattr(blocks, "MAX_LINE", 4096)
    data = ("user_prompt,ground_truth\nq,1\nq," + "9" * 20_000 + "\nq,3\n").encode()
    fh = RecordingReader(data)
    findings = Findings()
    assert scan_csv(fh, findings, block_size=1024) is None
    assert [(f.kind, f.line) for f in findings.shown] == [("no-system-prompt", 1), ("malformed", 3)]
