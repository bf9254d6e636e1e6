"""File-level behaviour beyond the corpus: unreadable and oversized files, capping, hints."""

from __future__ import annotations

import json

import pytest

from osmosis_workspace.check.families import datasets as checks
from osmosis_workspace.check.families.datasets import check_dataset_file
from osmosis_workspace.readers.datasets import jsonl
from osmosis_workspace.readers.datasets.capped import SHOWN_PER_KIND
from tests.datasets.conftest import good_row, jsonl_bytes


def test_a_folder_named_like_a_dataset_is_unreadable(tmp_path):
    (tmp_path / "rows.jsonl").mkdir()
    found = check_dataset_file(tmp_path / "rows.jsonl", "rows.jsonl")
    assert [(d.code, d.message) for d in found] == [("DAT002", "not a regular file")]


def test_missing_file_is_unreadable(tmp_path):
    assert [d.code for d in check_dataset_file(tmp_path / "gone.csv", "gone.csv")] == ["DAT002"]


def test_file_over_5_gb_is_reported_without_reading_it(tmp_path):
    path = tmp_path / "huge.parquet"
    with open(path, "wb") as fh:  # sparse: no disk space used, and parquet is checked by its footer
        fh.truncate(checks.MAX_BYTES + 1)
    found = check_dataset_file(path, "huge.parquet")
    assert [d.code for d in found] == ["DAT004", "DAT012"]  # all zeros: no parquet magic either
    assert any("at most 5 GB" in d.message for d in found)


def test_ground_truth_near_miss_of_the_alias(write):
    rows = [{"system_prompt": "s", "user_prompt": f"q{i}", "Label": "a"} for i in range(4)]
    found = check_dataset_file(write("l.jsonl", jsonl_bytes(rows)), "l.jsonl")
    assert [d.code for d in found] == ["DAT006"]
    assert found[0].hint == "rename `Label` to `label`"


def test_system_prompt_near_miss_is_an_error_not_an_info(write):
    rows = [{"System_Prompt": "s", "user_prompt": f"q{i}", "ground_truth": "a"} for i in range(4)]
    found = check_dataset_file(write("s.jsonl", jsonl_bytes(rows)), "s.jsonl")
    assert [(d.code, d.severity.value) for d in found] == [("DAT006", "error")]


def test_metadata_mode_needs_no_prompt_column(write):
    """osmosis-ai's validator requires no column besides `metadata` in metadata mode (issue 10)."""
    rows = [{"system_prompt": "s", "prompt": "q", "metadata": {"id": i}} for i in range(4)]
    assert check_dataset_file(write("m.jsonl", jsonl_bytes(rows)), "m.jsonl") == []


def _many_bad_lines(n_bad: int) -> bytes:
    good = [json.dumps(good_row(i)) for i in range(5)]
    return ("\n".join(good + ['{"user_prompt": oops}'] * n_bad) + "\n").encode()


@pytest.mark.parametrize("n_bad", [SHOWN_PER_KIND + 1, 250])
def test_first_20_problems_of_a_kind_then_one_count(write, n_bad):
    found = check_dataset_file(write("bad.jsonl", _many_bad_lines(n_bad)), "bad.jsonl")
    listed = [d for d in found if d.code == "DAT004"]
    assert len(listed) == SHOWN_PER_KIND + 1
    assert [d.line for d in listed[:SHOWN_PER_KIND]] == list(range(6, 6 + SHOWN_PER_KIND))
    summary = listed[-1]
    rest = n_bad - SHOWN_PER_KIND
    assert summary.line == 6 + SHOWN_PER_KIND
    assert summary.message.startswith(f"{rest} more malformed row")
    assert "the first 20 are listed" in summary.message


def test_caps_are_per_kind(write):
    lines = [json.dumps(good_row(i)) for i in range(5)]
    lines += ['{"user_prompt": oops}'] * 25 + ["[1]"] * 3 + [""] * 22
    found = check_dataset_file(write("mix.jsonl", ("\n".join(lines) + "\n").encode()), "mix.jsonl")
    by_code = {c: [d for d in found if d.code == c] for c in {d.code for d in found}}
    assert len(by_code["DAT004"]) == 21 and len(by_code["DAT005"]) == 3 and len(by_code["DAT015"]) == 21


def _mixed_file() -> bytes:
    """A file with problems of several kinds spread over it, for comparing serial and parallel scans."""
    lines = []
    for i in range(3000):
        row = good_row(i)
        if i % 97 == 5:
            lines.append('{"system_prompt": "s", "user_prompt": "x", "ground_truth": ]')
            continue
        if i % 131 == 7:
            row["ground_truth"] = i
        if i % 151 == 9:
            row["extra"] = True
        if i % 211 == 3:
            lines.append("")
        lines.append(json.dumps(row))
    return ("\n".join(lines) + "\n").encode()


@pytest.mark.parametrize("prefix", [b"", b"\xef\xbb\xbf", b"not json\n"], ids=["plain", "bom", "bad-first-line"])
def test_parallel_scan_reports_what_the_serial_scan_does(write, monkeypatch, prefix):
    path = write("mixed.jsonl", prefix + _mixed_file())
    size = path.stat().st_size
    serial, parallel = checks.Findings(), checks.Findings()
    rows_serial = jsonl.scan_file(path, size, serial, parallel=False)
    monkeypatch.setattr(jsonl, "_workers", lambda: 3)  # three ranges even on a one-CPU machine
    rows_parallel = jsonl.scan_file(path, size, parallel, parallel=True)
    assert rows_serial == rows_parallel > 2900
    assert checks.to_diagnostics(serial, "m") == checks.to_diagnostics(parallel, "m")
    assert serial.counts == parallel.counts and serial.counts["malformed"] > 20


def test_parallel_ranges_start_at_line_starts(write):
    data = b"".join(b"line %d\n" % i for i in range(1000))
    path = write("lines.jsonl", data)
    with open(path, "rb") as fh:
        for offset in (0, 1, 5, 6, 7, 100, len(data) - 1, len(data)):
            start = jsonl.line_start_after(fh, offset)
            assert start == len(data) or data[start - 1 : start] in (b"\n", b"") and start >= offset


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_are_not_json_but_the_platform_reads_them(write, constant):
    # osmosis-ai reads JSON lines with Python's json, which takes these constants: a warning, not an error.
    rows = [json.dumps(good_row(i)) for i in range(4)] + ['{"system_prompt": "s", "user_prompt": "q", "ground_truth": %s}' % constant]
    found = check_dataset_file(write("n.jsonl", "\n".join(rows)), "n.jsonl")
    # one root cause, one finding: not also DAT008 ("a number, not a string") on the same line
    assert [(d.code, d.line, d.severity.value) for d in found] == [("DAT023", 5, "warning")]
    assert f"`{constant}` is not JSON" in found[0].message


def test_odd_column_names_are_quoted_in_one_line_messages(write):
    rows = [{"user_prompt": "q", "ground_truth": "a", "system_prompt": "s"}] + [
        {"user_prompt": f"q{i}", "ground_truth": "a", "system_prompt": "s", "bad\nname": 1, "": 2} for i in range(4)
    ]
    found = check_dataset_file(write("o.jsonl", jsonl_bytes(rows)), "o.jsonl")
    # the first row is the odd one out: one finding there (issue 12, point 11)
    assert [(d.code, d.line) for d in found] == [("DAT010", 1)]
    assert found[0].message.endswith('lacks "", "bad\\nname"')


def test_divergent_row_with_a_misspelt_key_gets_a_rename_hint(write):
    rows = [good_row(i) for i in range(4)]
    rows[2]["User_prompt"] = rows[2].pop("user_prompt")
    found = check_dataset_file(write("d.jsonl", jsonl_bytes(rows)), "d.jsonl")
    assert [(d.code, d.line) for d in found] == [("DAT010", 3)]
    assert found[0].hint == "rename `User_prompt` to `user_prompt`"
