"""Issue 10, point 3: dataset verdicts agree with osmosis-ai 0.3.7's validator (platform/cli/dataset.py).

The cases in tests/cases/datasets/ cover the rest; these are the ones the issue lists, each judged
by the real SDK too when they were written (`dataset validate` rejects every "error" case here and
accepts every "clean" one).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from osmosis_workspace.check.families.datasets import check_dataset_file

from .conftest import codes, run_json


def _jsonl(rows: list[dict]) -> bytes:
    return "".join(json.dumps(r) + "\n" for r in rows).encode()


def _errors(path: Path) -> list[str]:
    return sorted(d.code for d in check_dataset_file(path, path.name) if d.severity.value == "error")


PROMPT_ROWS = [{"system_prompt": "Answer.", "user_prompt": f"{i} * 7", "ground_truth": str(7 * i)} for i in range(1, 6)]
META_ROWS = [{"metadata": {"task_id": i, "answer": str(7 * i)}} for i in range(1, 6)]


def _with(rows: list[dict], index: int, **changes) -> list[dict]:
    rows = json.loads(json.dumps(rows))
    rows[index]["metadata"].update(changes)
    return rows


CASES = [
    ("clean-prompt-mode", "x.jsonl", _jsonl(PROMPT_ROWS), []),
    ("clean-metadata-only", "x.jsonl", _jsonl(META_ROWS), []),
    ("clean-metadata-as-text", "x.jsonl", _jsonl([{"metadata": json.dumps(r["metadata"])} for r in META_ROWS]), []),
    ("clean-int-and-float", "x.jsonl", _jsonl(_with(META_ROWS, 2, task_id=3.5)), []),
    ("clean-null-anywhere", "x.jsonl", _jsonl(_with(META_ROWS, 2, answer=None)), []),
    ("clean-uppercase", "x.JSONL", _jsonl(PROMPT_ROWS), []),
    ("clean-csv-bom-before-other-column", "x.csv", b"\xef\xbb\xbfid,user_prompt,ground_truth,system_prompt\n"
     + b"".join(f"{i},{i} * 7,{7 * i},Answer.\n".encode() for i in range(5)), []),
    ("json-array", "x.json", json.dumps(PROMPT_ROWS).encode(), ["DAT001"]),
    ("type-drift", "x.jsonl", _jsonl(_with(META_ROWS, 3, task_id="four")), ["DAT013"]),
    ("type-drift-bool-vs-number", "x.jsonl", _jsonl(_with(META_ROWS, 1, task_id=True)), ["DAT013"]),
    ("type-drift-in-a-list", "x.jsonl", _jsonl(_with(_with(META_ROWS, 0, tags=["a"]), 4, tags=[1])), ["DAT013"]),
    ("nested-empty", "x.jsonl", _jsonl(_with(META_ROWS, 2, extra={"deeper": [{}]})), ["DAT013"]),
    ("int64-overflow", "x.jsonl", _jsonl(_with(META_ROWS, 1, task_id=2**63)), ["DAT013"]),
    ("int64-underflow", "x.jsonl", _jsonl(_with(META_ROWS, 1, task_id=-(2**63) - 1)), ["DAT013"]),
    ("beyond-uint64", "x.jsonl", _jsonl(_with(META_ROWS, 1, task_id=2**70)), ["DAT013"]),
    ("metadata-null", "x.jsonl", _jsonl(META_ROWS[:4] + [{"metadata": None}]), ["DAT013"]),
    ("metadata-blank-text", "x.jsonl", _jsonl(META_ROWS[:4] + [{"metadata": "  "}]), ["DAT013"]),
    ("jsonl-bom", "x.jsonl", b"\xef\xbb\xbf" + _jsonl(PROMPT_ROWS), ["DAT025"]),
    ("csv-bom-before-user-prompt", "x.csv", b"\xef\xbb\xbfuser_prompt,ground_truth,system_prompt\n"
     + b"".join(f"{i} * 7,{7 * i},Answer.\n".encode() for i in range(5)), ["DAT025"]),
    ("csv-blank-line", "x.csv", b"user_prompt,ground_truth,system_prompt\n1 * 7,7,A\n\n2 * 7,14,A\n3 * 7,21,A\n4 * 7,28,A\n", ["DAT022"]),
]


@pytest.mark.parametrize("name, filename, data, expected", CASES, ids=[c[0] for c in CASES])
def test_dataset_verdicts_match_the_sdk(tmp_path: Path, name: str, filename: str, data: bytes, expected: list[str]):
    path = tmp_path / filename
    path.write_bytes(data)
    assert _errors(path) == expected


def test_metadata_mode_needs_no_user_prompt_even_with_empty_prompts(tmp_path: Path):
    rows = [{"user_prompt": "" if i == 2 else "q", "metadata": {"id": i}} for i in range(5)]
    path = tmp_path / "m.jsonl"
    path.write_bytes(_jsonl(rows))
    assert _errors(path) == []


def test_type_drift_names_the_key_and_the_first_row(tmp_path: Path):
    path = tmp_path / "m.jsonl"
    path.write_bytes(_jsonl(_with(META_ROWS, 3, task_id="four")))
    [finding] = check_dataset_file(path, "m.jsonl")
    assert finding.line == 4 and "$.task_id" in finding.message and "line 1" in finding.message


def test_csv_bom_finding_says_what_the_platform_sees(tmp_path: Path):
    path = tmp_path / "x.csv"
    path.write_bytes(CASES[-2][2])
    [finding] = check_dataset_file(path, "x.csv")
    assert (finding.code, finding.severity.value) == ("DAT025", "error")
    assert "user_prompt" in finding.message


def test_validate_accepts_an_uppercase_extension(tmp_path: Path):
    path = tmp_path / "rows.JSONL"
    path.write_bytes(_jsonl(PROMPT_ROWS))
    assert run_json("validate", str(path)) == (0, [])
    path.write_bytes(_jsonl(PROMPT_ROWS[:2]))
    code, found = run_json("validate", str(path))
    assert (code, codes(found)) == (1, ["DAT011"])


def test_doctor_checks_uppercase_and_rejects_json_in_data(tmp_path: Path, platform_template: Path):
    (platform_template / "data/rows.CSV").write_bytes(b"system_prompt,user_prompt,ground_truth\ns,1,1\n")
    (platform_template / "data/rows.json").write_text(json.dumps(PROMPT_ROWS))
    code, found = run_json("doctor", str(platform_template), "--select", "DAT")
    assert code == 1
    assert sorted((d["path"], d["code"]) for d in found) == [("data/rows.CSV", "DAT011"), ("data/rows.json", "DAT001")]


def test_parquet_metadata_rows_are_checked(tmp_path: Path):
    pa = pytest.importorskip("pyarrow")  # the [parquet] extra; the test extra installs it
    import pyarrow.parquet as pq

    rows = [{"task_id": 1}, {"task_id": 2}, {"task_id": 3}, {"task_id": 4}]
    path = tmp_path / "m.parquet"
    pq.write_table(pa.table({"metadata": [json.dumps(r) for r in rows[:3]] + ['{"task_id": "four"}']}), path)
    found = check_dataset_file(path, "m.parquet")
    assert [(d.code, "row 4" in d.message) for d in found] == [("DAT013", True)]
    pq.write_table(pa.table({"metadata": pa.array([[("k", "v")]] * 4, pa.map_(pa.string(), pa.string()))}), path)
    assert [d.code for d in check_dataset_file(path, "m.parquet")] == ["DAT013"]  # the platform takes struct or string only


# Issue 10, point 2: where we stay stricter than osmosis-ai 0.3.7 on purpose, the finding is a
# warning that says the platform accepts the file. Each file below was run through the SDK's
# `dataset validate` (platform/cli/dataset.py `_validate_file`) and `eval run`'s reader
# (eval/local/dataset.py `select_rows`): both accept every "accepted" case and `eval run` rejects
# every "rejected" one (an empty or null prompt/answer is missing to it).
def _csv(header: str, rows: list[str]) -> bytes:
    return (header + "\n" + "".join(r + "\n" for r in rows)).encode()


def _row(i: int, **changes) -> dict:
    return {**PROMPT_ROWS[i], **changes}


ACCEPTED = [
    ("label-and-ground-truth", "x.jsonl", _jsonl([_row(i, label=r["ground_truth"]) for i, r in enumerate(PROMPT_ROWS)]),
     ["DAT007"], "uses `ground_truth`"),
    ("number-ground-truth", "x.jsonl", _jsonl([_row(i, ground_truth=7 * (i + 1)) for i in range(5)]), ["DAT008"] * 5,
     "turns it into the text '7'"),
    ("list-ground-truth", "x.jsonl", _jsonl([_row(i) for i in range(4)] + [_row(4, ground_truth=[1, 2])]), ["DAT008"],
     "Python's text of it"),
    ("null-system-prompt", "x.jsonl", _jsonl([_row(i) for i in range(4)] + [_row(4, system_prompt=None)]), ["DAT008"],
     "without a system message"),
    ("duplicate-csv-column", "x.csv", _csv("system_prompt,user_prompt,ground_truth,ground_truth",
                                            [f"s,{i} * 7,{7 * i},{7 * i}" for i in range(5)]), ["DAT016"], "keeps the last"),
    ("csv-text-after-closing-quote", "x.csv", _csv("system_prompt,user_prompt,ground_truth",
                                                    ['s,"1 * 7"x,7'] + [f"s,{i} * 7,{7 * i}" for i in range(2, 6)]),
     ["DAT023"], "appends that text to the field"),
    ("jsonl-nan-in-an-extra-column", "x.jsonl",
     b"".join(b'{"system_prompt": "s", "user_prompt": "q%d", "ground_truth": "1", "score": %s}\n' % (i, c)
              for i, c in enumerate((b"1.5", b"NaN", b"2", b"Infinity", b"-Infinity"))), ["DAT023"] * 3, "Python's json"),
    ("whitespace-only-values", "x.jsonl", _jsonl([_row(0, user_prompt="   "), _row(1, ground_truth=" \t")]
                                                  + [_row(i) for i in range(2, 5)]), ["DAT024", "DAT024"], "only whitespace"),
    ("whitespace-only-csv-cell", "x.csv", _csv("system_prompt,user_prompt,ground_truth",
                                                ["s,   ,7"] + [f"s,{i} * 7,{7 * i}" for i in range(2, 6)]),
     ["DAT024"], "only whitespace"),
]


@pytest.mark.parametrize("name, filename, data, warnings, says", ACCEPTED, ids=[c[0] for c in ACCEPTED])
def test_what_the_sdk_accepts_is_only_a_warning(tmp_path: Path, name, filename, data, warnings, says):
    path = tmp_path / filename
    path.write_bytes(data)
    found = check_dataset_file(path, filename)
    assert _errors(path) == []
    assert sorted(d.code for d in found if d.severity.value == "warning") == sorted(warnings)
    for d in found:
        if d.code in warnings:
            assert "the platform accepts" in d.message or "the platform's reader" in d.message, d.message
    assert any(says in d.message for d in found), [d.message for d in found]


REJECTED = [
    ("empty-user-prompt", "x.jsonl", _jsonl([_row(0, user_prompt="")] + [_row(i) for i in range(1, 5)]), ["DAT009"]),
    ("null-ground-truth", "x.jsonl", _jsonl([_row(i) for i in range(4)] + [_row(4, ground_truth=None)]), ["DAT009"]),
    ("empty-csv-cell", "x.csv", _csv("system_prompt,user_prompt,ground_truth",
                                      ["s,,7"] + [f"s,{i} * 7,{7 * i}" for i in range(2, 6)]), ["DAT009"]),
    ("csv-unclosed-quote-swallows-the-rest", "x.csv", _csv("system_prompt,user_prompt,ground_truth",
                                                            [f"s,{i} * 7,{7 * i}" for i in range(1, 5)] + ['s,"5 * 7,35']),
     ["DAT004"]),
]


@pytest.mark.parametrize("name, filename, data, errors", REJECTED, ids=[c[0] for c in REJECTED])
def test_what_eval_run_rejects_stays_an_error(tmp_path: Path, name, filename, data, errors):
    path = tmp_path / filename
    path.write_bytes(data)
    assert _errors(path) == errors


def test_null_prompt_in_parquet_is_an_error_and_an_int_answer_a_warning(tmp_path: Path):
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    path = tmp_path / "x.parquet"
    pq.write_table(pa.table({"system_prompt": ["s"] * 5, "user_prompt": ["q", None, "q", "q", "q"],
                             "ground_truth": pa.array([1, 2, 3, 4, 5], pa.int64())}), path)
    found = {(d.code, d.severity.value) for d in check_dataset_file(path, "x.parquet")}
    assert found == {("DAT009", "error"), ("DAT008", "warning")}


def test_a_leniently_read_record_spanning_lines_keeps_later_line_numbers(tmp_path: Path):
    # The platform's reader takes `"1"x` as the field `1x` and reads the open quoted field on to
    # line 3; the strict reading goes on at line 4, where an empty prompt is an error.
    path = tmp_path / "x.csv"
    path.write_bytes(_csv("system_prompt,user_prompt,ground_truth",
                          ['s,"1"x,"7', 'seven"', "s,,14", "s,3 * 7,21", "s,4 * 7,28", "s,5 * 7,35"]))
    found = [(d.code, d.line, d.severity.value) for d in check_dataset_file(path, "x.csv")]
    assert found == [("DAT023", 2, "warning"), ("DAT009", 4, "error")]  # DAT023: the lenient reading, a warning of its own
