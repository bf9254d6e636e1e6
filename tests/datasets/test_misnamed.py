"""Files in data/ that are not datasets: notes and READMEs are left alone, a dataset whose extension
is mistyped (`x.jsnol`, `x.jsonl.txt`) is a DAT020 warning naming the right name. The platform
lower-cases extensions, so `x.JSONL` is a dataset and checked as one."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from osmosis_workspace.cli import app
from osmosis_workspace.readers.datasets.extensions import suggested_name
from tests.datasets.conftest import good_row, jsonl_bytes


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("x.jsnol", "x.jsonl"),
        ("x.jsonl.txt", "x.jsonl"),
        ("x.JSONL.txt", "x.jsonl"),
        ("x.jsnl", "x.jsonl"),
        ("x.jsonk", "x.jsonl"),
        ("x.cvs", "x.csv"),
        ("x.parquett", "x.parquet"),
        ("x.paruqet", "x.parquet"),
        ("x.ndjson", "x.jsonl"),
        ("x.pq", "x.parquet"),
    ],
)
def test_a_mistyped_dataset_name_gets_the_right_one(name, expected):
    assert suggested_name(name) == expected


@pytest.mark.parametrize(
    "name",
    [
        "README.md", "notes.txt", "LICENSE", ".gitkeep", ".DS_Store", "make_data.py", "schema.yaml",
        "x.tsv", "x.css", "x.jsonc", "x.json5", "x.js", "x.jsonl.gz", "x.csv.bak", "x.jsonl",
        "x.json", "x.csv", "x.parquet", "jsonl", "x.txt", "x.JSONL", "x.Csv", "x.PARQUET",
        "x.json.txt", "x.jsn",  # never suggest .json: the platform rejects it
    ],
)
def test_other_files_get_no_suggestion(name):
    assert suggested_name(name) is None


def _workspace(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    for folder in ("rollouts", "configs/eval", "configs/training", "data/sub"):
        (root / folder).mkdir(parents=True)
    (root / "data" / "good.jsonl").write_bytes(jsonl_bytes([good_row(i) for i in range(4)]))
    return root


def test_doctor_warns_on_mistyped_names_and_leaves_notes_alone(tmp_path):
    root = _workspace(tmp_path)
    rows = jsonl_bytes([good_row(i) for i in range(4)])
    for name in ("x.jsnol", "y.jsonl.txt", "sub/z.JSONL"):  # z.JSONL is a good dataset
        (root / "data" / name).write_bytes(rows)
    (root / "data" / "README.md").write_text("# data\n")
    (root / "data" / "notes.txt").write_text("where the rows came from\n")
    result = CliRunner().invoke(app, ["doctor", str(root), "--select", "DAT", "--format", "json"])
    assert result.exit_code == 0, result.output  # warnings only
    found = json.loads(result.stdout)["diagnostics"]
    assert sorted((d["path"], d["code"], d["severity"]) for d in found) == [
        ("data/x.jsnol", "DAT020", "warning"),
        ("data/y.jsonl.txt", "DAT020", "warning"),
    ]
    by_path = {d["path"]: d for d in found}
    assert "did you mean x.jsonl" in by_path["data/x.jsnol"]["message"]
    assert "y.jsonl" in by_path["data/y.jsonl.txt"]["hint"]
    strict = CliRunner().invoke(app, ["doctor", str(root), "--select", "DAT", "--strict"])
    assert strict.exit_code == 1, strict.output


@pytest.mark.parametrize("command", [["validate"], ["dataset", "validate"]])
def test_validate_names_the_right_extension_in_its_usage_error(tmp_path, command):
    path = tmp_path / "rows.jsnol"
    path.write_bytes(jsonl_bytes([good_row(i) for i in range(4)]))
    result = CliRunner().invoke(app, [*command, str(path)])
    assert result.exit_code == 2
    assert "did you mean rows.jsonl" in result.output and "Traceback" not in result.output
