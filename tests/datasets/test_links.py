"""Links in data/ that never reach a file (a symlink loop, a dangling link): doctor, `osmosis
validate` and `osmosis dataset validate` all report them as DAT002 on the link, never skip them,
never crash and never call them missing."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from osmosis_workspace.check.families.configs import check_config_file
from osmosis_workspace.cli import app
from osmosis_workspace.core.workspace import Workspace
from tests.datasets.conftest import good_row, jsonl_bytes

ROOT = Path(__file__).resolve().parents[2]


def _workspace(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    for folder in ("rollouts", "configs/eval", "configs/training", "data"):
        (root / folder).mkdir(parents=True)
    (root / "data" / "good.jsonl").write_bytes(jsonl_bytes([good_row(i) for i in range(4)]))
    return root


def _doctor(root: Path) -> tuple[int, list[dict]]:
    result = CliRunner().invoke(app, ["doctor", str(root), "--select", "DAT", "--format", "json"])
    assert "Traceback" not in result.output
    return result.exit_code, json.loads(result.stdout)["diagnostics"]


def test_doctor_reports_a_link_to_itself(tmp_path):
    root = _workspace(tmp_path)
    (root / "data" / "loop.jsonl").symlink_to("loop.jsonl")
    code, found = _doctor(root)
    assert code == 1
    assert [(d["path"], d["code"]) for d in found] == [("data/loop.jsonl", "DAT002")]
    assert "symlink loop" in found[0]["message"] and "points to itself" in found[0]["message"]


def test_doctor_reports_both_links_of_a_two_link_loop(tmp_path):
    root = _workspace(tmp_path)
    (root / "data" / "a.jsonl").symlink_to("b.jsonl")
    (root / "data" / "b.jsonl").symlink_to("a.jsonl")
    code, found = _doctor(root)
    assert code == 1
    assert sorted((d["path"], d["code"]) for d in found) == [("data/a.jsonl", "DAT002"), ("data/b.jsonl", "DAT002")]
    by_path = {d["path"]: d["message"] for d in found}
    assert "symlink loop" in by_path["data/a.jsonl"] and "a.jsonl -> b.jsonl -> a.jsonl" in by_path["data/a.jsonl"]


def test_doctor_reports_a_dangling_link(tmp_path):
    root = _workspace(tmp_path)
    (root / "data" / "gone.csv").symlink_to("nowhere.csv")
    code, found = _doctor(root)
    assert code == 1
    assert [(d["path"], d["code"]) for d in found] == [("data/gone.csv", "DAT002")]
    assert "broken link" in found[0]["message"] and "nowhere.csv" in found[0]["message"]


def test_a_config_naming_a_looping_dataset_does_not_crash(tmp_path):
    root = _workspace(tmp_path)
    (root / "data" / "loop.jsonl").symlink_to("loop.jsonl")
    ws = Workspace(root)
    assert ws.resolved_data_files  # no RuntimeError from Path.resolve on the loop
    config = root / "configs" / "eval" / "e.toml"
    config.write_text('[experiment]\ndataset = "data/loop.jsonl"\n')
    found = list(check_config_file(config, "eval", ws, "configs/eval/e.toml"))
    assert not [d for d in found if d.code.startswith("DAT") and d.code != "DAT002"]


@pytest.mark.parametrize("command", [["validate"], ["dataset", "validate"]])
def test_validate_reports_a_loop_as_a_finding_not_a_missing_path(tmp_path, command):
    root = _workspace(tmp_path)
    (root / "data" / "loop.jsonl").symlink_to("loop.jsonl")
    result = CliRunner().invoke(app, [*command, "--format", "json", str(root / "data" / "loop.jsonl")])
    assert result.exit_code == 1, result.output
    found = json.loads(result.stdout)["diagnostics"]
    assert [(d["path"], d["code"]) for d in found] == [("data/loop.jsonl", "DAT002")]
    assert "points to itself" in found[0]["message"]


def test_validate_a_loop_outside_any_workspace_in_a_subprocess(tmp_path):
    (tmp_path / "a.jsonl").symlink_to("b.jsonl")
    (tmp_path / "b.jsonl").symlink_to("a.jsonl")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run(
        [sys.executable, "-m", "osmosis_workspace", "validate", "a.jsonl"], capture_output=True, text=True, env=env, cwd=tmp_path
    )
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "DAT002" in proc.stdout and "symlink loop" in proc.stdout
    assert "does not exist" not in proc.stdout + proc.stderr and "Traceback" not in proc.stderr


def test_validate_still_says_a_missing_path_does_not_exist(tmp_path):
    result = CliRunner().invoke(app, ["validate", str(tmp_path / "absent.jsonl")])
    assert result.exit_code == 2
    assert "does not exist" in result.output
