"""rehearse takes its rows from the dataset a config names, mapped as doctor maps it
(core/dataset_names.py): `dataset = "multiply"` -> data/multiply.jsonl, .csv or .parquet. The platform's
own workspace names one dataset, "multiply", in the configs of all three of its rollouts."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from osmosis_workspace.cli import app
from osmosis_workspace.core.dataset_names import local_copy, names_a_path
from osmosis_workspace.rehearse import plan as planning

ROW = {"user_prompt": "val1 = 2\nval2 = 3", "ground_truth": "6"}


def run(*args: str):
    result = CliRunner().invoke(app, ["rehearse", *args])
    return result.exit_code, result.stdout, result.output


@pytest.fixture
def ws(make_workspace) -> Path:
    """Three rollouts whose configs all name the platform dataset "multiply", one data/multiply.jsonl,
    and no data/<rollout>.jsonl: the layout of the platform's workspace template."""
    root = make_workspace("blank", name="ws", data=("rollout_name=first",))
    for name in ("second", "third"):
        shutil.copytree(root / "rollouts" / "first", root / "rollouts" / name)
    source = (root / "configs" / "eval" / "first.toml").read_text()
    for name in ("first", "second", "third"):
        (root / "configs" / "eval" / f"{name}.toml").write_text(
            source.replace('rollout = "first"', f'rollout = "{name}"').replace('dataset = "first"', 'dataset = "multiply"'))
    (root / "data" / "first.jsonl").unlink()
    (root / "data" / "multiply.jsonl").write_text("".join(json.dumps(ROW) + "\n" for _ in range(5)))
    return root


def test_every_rollout_reads_the_dataset_its_config_names(ws):
    plans = planning.rollout_plans(ws, [], None)
    assert [p.name for p in plans] == ["first", "second", "third"]
    for plan in plans:
        assert plan.dataset_name == "multiply"
        assert planning.local_dataset(ws, plan, None) == ws / "data" / "multiply.jsonl"


def test_rehearse_without_arguments_gets_past_planning(ws):
    """Before: exit 2, "names a platform dataset and there is no data/first.jsonl". Now the only thing
    missing is the SDK's environment (no `uv sync` ran here)."""
    code, _, output = run("-w", str(ws))
    assert code == 2 and "no SDK environment" in output and "dataset" not in output.lower(), output


def test_csv_then_parquet_when_there_is_no_jsonl(ws):
    (ws / "data" / "multiply.jsonl").unlink()
    (ws / "data" / "multiply.csv").write_text("user_prompt,ground_truth\nhi,6\n")
    [plan, *_] = planning.rollout_plans(ws, ["first"], None)
    assert planning.local_dataset(ws, plan, None) == ws / "data" / "multiply.csv"
    pyarrow = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    (ws / "data" / "multiply.csv").unlink()
    pq.write_table(pyarrow.Table.from_pylist([ROW, ROW]), ws / "data" / "multiply.parquet")
    path = planning.local_dataset(ws, plan, None)
    planning.select_rows(plan, path, "data/multiply.parquet", "0-3")
    assert [i for i, _ in plan.rows] == [0, 1] and plan.rows[0][1]["ground_truth"] == "6"


def test_a_missing_copy_names_the_dataset_and_the_files_looked_for(ws):
    (ws / "data" / "multiply.jsonl").unlink()
    code, _, output = run("first", "-w", str(ws))
    assert code == 2 and "platform dataset 'multiply'" in output and "data/multiply.jsonl" in output, output
    assert "--dataset-file" in output


def test_one_dataset_file_serves_every_rollout(ws, tmp_path):
    rows = tmp_path / "rows.jsonl"
    rows.write_text(json.dumps(ROW) + "\n")
    code, _, output = run("--dataset-file", str(rows), "-w", str(ws))
    assert code == 2 and "no SDK environment" in output, output   # not "name that rollout too"


def test_usage_errors_in_json_are_json(ws):
    code, stdout, _ = run("--rows", "3-1", "--format", "json", "-w", str(ws))
    start = stdout.index("{")
    data = json.loads(stdout[start:])
    assert code == 2 and data["ok"] is False and data["rollouts"] == []
    assert "runs backwards" in data["error"]["message"] and data["error"]["exit_code"] == 2
    code, stdout, _ = run("nope", "-f", "json", "-w", str(ws))
    assert code == 2 and "unknown rollout" in json.loads(stdout[stdout.index("{"):])["error"]["message"]


def test_the_shared_mapping(tmp_path):
    (tmp_path / "data").mkdir()
    assert local_copy(tmp_path, "multiply") is None
    (tmp_path / "data" / "multiply.parquet").write_bytes(b"PAR1")
    (tmp_path / "data" / "multiply.csv").write_text("x\n")
    assert local_copy(tmp_path, "multiply") == tmp_path / "data" / "multiply.csv"   # .jsonl, .csv, .parquet in turn
    assert local_copy(tmp_path, "multiply", (".jsonl", ".parquet")) == tmp_path / "data" / "multiply.parquet"
    assert local_copy(tmp_path, "data/multiply.csv") is None and local_copy(tmp_path, "../x") is None
    assert names_a_path("data/x.jsonl") and names_a_path("x.csv") and not names_a_path("multiply")
