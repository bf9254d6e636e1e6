"""End to end: `osmosis dataset validate` / `osmosis validate` on dataset files, and doctor's
workspace check over data/."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from osmosis_workspace.check.families import run_workspace_checks
from osmosis_workspace.check.families.datasets import check_data_folder
from osmosis_workspace.cli import app
from osmosis_workspace.core.diagnostics import Diagnostic
from osmosis_workspace.core.workspace import Workspace
from tests.datasets.conftest import good_row, jsonl_bytes

CASES = Path(__file__).resolve().parents[1] / "cases" / "datasets"
ROOT = Path(__file__).resolve().parents[2]


def test_dataset_validate_good_files_exit_0():
    result = CliRunner().invoke(app, ["dataset", "validate", *map(str, sorted((CASES / "good").iterdir()))])
    assert result.exit_code == 0, result.output


def test_dataset_validate_bad_file_exits_1_with_location(tmp_path):
    path = tmp_path / "rows.jsonl"
    path.write_bytes(jsonl_bytes([good_row(i) for i in range(4)]) + b'{"user_prompt": 1,}\n')
    result = CliRunner().invoke(app, ["dataset", "validate", "--format", "json", str(path)])
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert [(d["code"], d["line"], d["column"]) for d in report["diagnostics"]] == [("DAT004", 5, 19)]


def test_validate_detects_a_dataset_and_reports_warnings_without_failing(tmp_path):
    path = tmp_path / "rows.jsonl"  # a blank line is a warning in JSON lines (the platform skips it), an error in CSV
    path.write_bytes(jsonl_bytes([good_row(1)]) + b"\n" + jsonl_bytes([good_row(i) for i in range(2, 5)]))
    result = CliRunner().invoke(app, ["validate", str(path)])
    assert result.exit_code == 0, result.output
    assert "DAT015" in result.output and ":2" in result.output


def test_module_entry_point_in_a_subprocess(tmp_path):
    path = tmp_path / "few.jsonl"
    path.write_bytes(jsonl_bytes([good_row(1)]))
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run(
        [sys.executable, "-m", "osmosis_workspace", "dataset", "validate", str(path)], capture_output=True, text=True, env=env, cwd=tmp_path
    )
    assert proc.returncode == 1, proc.stderr
    assert "DAT011" in proc.stdout and "Traceback" not in proc.stderr


def _mini_workspace(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    for folder in ("rollouts", "configs/eval", "configs/training", "data/more"):
        (root / folder).mkdir(parents=True)
    (root / "data" / "good.jsonl").write_bytes(jsonl_bytes([good_row(i) for i in range(4)]))
    (root / "data" / "more" / "bad.csv").write_text("user_prompt,ground_truth\nq,1\n")
    (root / "data" / "README.md").write_text("not a dataset\n")
    outside = tmp_path / "elsewhere.jsonl"
    outside.write_bytes(b"not even json\n")
    (root / "data" / "linked.jsonl").symlink_to(outside)
    return root


def test_workspace_check_covers_data_and_does_not_follow_links_out(tmp_path):
    ws = Workspace(_mini_workspace(tmp_path))
    found = check_data_folder(ws)
    assert sorted((d.path, d.code) for d in found) == [
        ("data/linked.jsonl", "DAT019"),
        ("data/more/bad.csv", "DAT011"),
        ("data/more/bad.csv", "DAT017"),
    ]
    assert run_workspace_checks(ws, {"datasets"}) == sorted(found, key=Diagnostic.sort_key)


def test_doctor_checks_the_datasets_of_a_fresh_workspace(make_workspace):
    root = make_workspace(git=False)
    assert Workspace(root).data_files, "the multiply template ships a dataset"
    runner = CliRunner()
    clean = runner.invoke(app, ["doctor", str(root), "--select", "DAT", "--format", "json"])
    assert clean.exit_code == 0, clean.output
    assert json.loads(clean.stdout)["diagnostics"] == []
    (root / "data" / "broken.jsonl").write_text('{"user_prompt": "2 * 3"\n')
    broken = runner.invoke(app, ["doctor", str(root), "--select", "DAT", "--format", "json"])
    assert broken.exit_code == 1, broken.output
    found = {(d["path"], d["code"], d["line"]) for d in json.loads(broken.stdout)["diagnostics"]}
    assert ("data/broken.jsonl", "DAT004", 1) in found and ("data/broken.jsonl", "DAT011", None) in found
