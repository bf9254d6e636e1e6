"""Issue 18 point 9: dataset checks bounded in time and memory whatever the file's shape.

- a dictionary-encoded `metadata` column: each distinct text is parsed once, not once per row (the
  campaign's 42 KB file of 2M rows took ~68 s);
- a parquet footer too big to parse, and more row groups than are read, are said, not parsed whole;
- one run keeps at most RUN_FINDINGS_CAP dataset findings and says how many files it left out.
Counted as work (JSON parses, findings), never as time."""

from __future__ import annotations

import pyarrow as pa
import pyarrow.parquet as pq

from osmosis_workspace.check.families import datasets as family
from osmosis_workspace.check.families.datasets import check_dataset_file
from osmosis_workspace.readers.datasets import columns, parquetfile
from hostile import cli


def _metadata_file(path, rows: int, values: list[str], **kwargs):
    column = pa.array([values[i % len(values)] for i in range(rows)]).dictionary_encode()
    table = pa.table({"user_prompt": pa.array(["q"] * rows), "metadata": column})
    pq.write_table(table, path, **kwargs)
    return path


def test_a_dictionary_column_is_parsed_once_per_distinct_value(tmp_path, monkeypatch):
    parsed = []
    plain = columns.loads_exact
    monkeypatch.setattr(columns, "loads_exact", lambda text: parsed.append(text) or plain(text))
    path = _metadata_file(tmp_path / "m.parquet", 200_000, ['{"id": 1}', "not json", '{"id": 2}', '{"id": "three"}'])
    found = check_dataset_file(path, "m.parquet")
    assert len(parsed) <= 8, len(parsed)  # 200,000 before
    bad = [d for d in found if d.code == "DAT013"]
    shown = [d for d in bad if d.message.startswith("row ")]
    assert any(d.message == "row 2: `metadata` is not valid JSON text" for d in shown), [d.message for d in shown][:4]
    assert any(d.message.startswith("row 4: `metadata` at $.id is a string") for d in shown), [d.message for d in shown][:4]
    summary = [d for d in bad if "more" in d.message]
    assert summary and "99980 more" in summary[0].message, [d.message for d in summary]  # 100,000 bad rows, 20 listed


def test_plain_and_dictionary_columns_find_the_same(tmp_path):
    values = ['{"a": 1}', "", '{"a": {}}', '{"a": [1]}', "[1]"]
    dictionary = _metadata_file(tmp_path / "d.parquet", 50, values)
    table = pq.read_table(dictionary).cast(pa.schema([("user_prompt", pa.string()), ("metadata", pa.string())]))
    plain = tmp_path / "p.parquet"
    pq.write_table(table, plain, use_dictionary=False)
    assert [d.message for d in check_dataset_file(dictionary, "x")] == [d.message for d in check_dataset_file(plain, "x")]


def test_a_footer_over_the_cap_is_not_parsed(tmp_path, monkeypatch):
    monkeypatch.setattr(parquetfile, "FOOTER_CAP", 2_000)  # the default, 16 MB, needs ~100,000 row groups to pass
    path = _metadata_file(tmp_path / "g.parquet", 400, ['{"id": 1}'], row_group_size=5)
    found = check_dataset_file(path, "g.parquet")
    assert [d.code for d in found] == ["DAT014"] and "footer" in found[0].message, [d.message for d in found]


def test_row_groups_past_the_cap_are_counted_as_left_out(tmp_path, monkeypatch):
    monkeypatch.setattr(parquetfile, "STAT_GROUPS", 10)
    path = _metadata_file(tmp_path / "g.parquet", 400, ['{"id": 1}'], row_group_size=5)
    found = check_dataset_file(path, "g.parquet")
    assert any(d.code == "DAT014" and "first 10 of 80 row groups" in d.message and "70 were left out" in d.message
               for d in found), [d.message for d in found]


def test_one_run_keeps_a_bounded_number_of_dataset_findings(make_workspace, monkeypatch):
    monkeypatch.setattr(family, "RUN_FINDINGS_CAP", 30)
    ws = make_workspace(template="blank", name="ws")
    for i in range(40):  # each: too few rows, and a row without its columns
        (ws / "data" / f"d{i:02}.jsonl").write_text('{"x": 1}\n')
    result = cli("doctor", ws, "--format", "json")
    import json

    report = json.loads(result.output[result.output.index("{"):])
    capped = [d for d in report["diagnostics"] if d["code"] == "DAT021"]
    assert len(capped) == 1 and "not checked" in capped[0]["message"], capped
    left = int(capped[0]["message"].split("; ")[1].split()[0])
    checked = {d["path"] for d in report["diagnostics"] if d["code"].startswith("DAT") and d["code"] != "DAT021"}
    assert left + len(checked) == len(list((ws / "data").glob("*.jsonl")))  # the template's own, and the 40


def test_validate_keeps_a_bounded_number_of_findings_and_counts_the_rest(tmp_path, monkeypatch):
    from osmosis_workspace.check import validate

    monkeypatch.setattr(validate, "RUN_FINDINGS_CAP", 25)
    data = tmp_path / "data"
    data.mkdir()
    for i in range(30):
        (data / f"d{i:02}.jsonl").write_text('{"x": 1}\n')
    result = cli("validate", data)
    assert result.exit_code == 1, result.output
    assert "more files)" in result.output and "not checked" in result.output, result.output[-800:]
