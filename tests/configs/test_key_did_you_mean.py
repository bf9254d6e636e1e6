"""A misspelt or renamed key in a training, eval or benchmark config gets a "did you mean" naming a
real key of that config's JSON Schema (generator/osmosis_workspace/core/schemas), end to end through `osmosis doctor`."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from osmosis_workspace.cli import app
from osmosis_workspace.core.schemas import load_schema


def _findings(ws, relative, old, new):
    path = ws / relative
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    result = CliRunner().invoke(app, ["doctor", str(ws), "-f", "json", "--select", "CFG003"])
    return json.loads(result.stdout)["diagnostics"]


@pytest.mark.parametrize(("relative", "kind", "table", "old", "new", "meant"), [
    ("configs/training/multiply.toml", "training", "training", "lr = ", "learning_rate = ", "lr"),
    ("configs/training/multiply.toml", "training", "training", "total_epochs = ", "epochs = ", "total_epochs"),
    ("configs/training/multiply.toml", "training", "sampling", "rollout_temperature = ", "temperature = ", "rollout_temperature"),
    ("configs/training/multiply.toml", "training", "sampling", "rollout_top_p = ", "rollout-top-p = ", "rollout_top_p"),
    ("configs/eval/multiply.toml", "eval", "evaluation", "batch_size = ", "batchsize = ", "batch_size"),
    ("configs/eval/multiply.toml", "eval", "evaluation", "pass_threshold = ", "passThreshold = ", "pass_threshold"),
    ("configs/benchmark/default.toml", "benchmark", "execution", "max_retries = ", "max_retry = ", "max_retries"),
])
def test_a_wrong_key_names_the_schemas_key(workspace_copy, relative, kind, table, old, new, meant):
    assert meant in load_schema(kind)["properties"][table]["properties"]  # the suggestion is a real key
    [d] = _findings(workspace_copy, relative, old, new)
    wrong = new.split(" ")[0]
    assert d["code"] == "CFG003" and d["path"] == relative
    assert d["message"] == f"unknown key `{wrong}` in [{table}]; did you mean `{meant}`?"


def test_no_suggestion_when_nothing_is_close(workspace_copy):
    [d] = _findings(workspace_copy, "configs/training/multiply.toml", "lr = ", "zebra = ")
    assert "did you mean" not in d["message"] and d["hint"].startswith("Known keys: lr, ")
