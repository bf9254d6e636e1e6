"""[tool.osmosis] keys and codes get the same "did you mean" as configs and skills, through the CLI;
and the one suggestion function behind them all."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from osmosis_workspace.cli import app
from osmosis_workspace.core.suggest import closest, did_you_mean


@pytest.mark.parametrize(("typed", "meant"), [
    ("ignores", "ignore"), ("extra_skills", "extra-skills"), ("per_file_ignores", "per-file-ignores"),
    ("Strict", "strict"), ("selects", "select"),
])
def test_a_misspelt_setting_names_the_known_one(workspace_copy, typed, meant):
    pyproject = workspace_copy / "pyproject.toml"
    pyproject.write_text(pyproject.read_text(encoding="utf-8") + f"\n[tool.osmosis]\n{typed} = []\n", encoding="utf-8")
    data = json.loads(CliRunner().invoke(app, ["doctor", str(workspace_copy), "-f", "json", "--select", "SET"]).stdout)
    [d] = data["diagnostics"]
    assert d["code"] == "SET001" and d["message"] == f"unknown setting `{typed}` in [tool.osmosis]; did you mean `{meant}`?"


def test_a_misspelt_code_in_select_is_a_usage_error_with_a_suggestion(workspace_copy):
    result = CliRunner().invoke(app, ["doctor", str(workspace_copy), "--select", "CGF003"])
    assert result.exit_code == 2 and "did you mean 'CFG003'?" in result.stderr


@pytest.mark.parametrize(("word", "known", "meant"), [
    ("learning_rate", ["lr", "total_epochs"], "lr"),             # initials
    ("epochs", ["lr", "total_epochs"], "total_epochs"),           # the last word of one name
    ("ignores", ["ignore", "per-file-ignores"], "ignore"),        # a near spelling beats a last word
    ("Batch-Size", ["batch_size", "n"], "batch_size"),            # case and separators
    ("descripton", ["name", "description"], "description"),      # spelling
    ("passThreshold", ["pass_threshold", "n"], "pass_threshold"), # camelCase
    ("ground_truth", ["groundtruth", "gt"], "groundtruth"),       # spelling before initials
    ("size", ["batch_size", "max_size"], None),                   # two names end so: no guess
    ("zebra", ["lr", "n"], None),
    ("", ["lr"], None),
])
def test_closest(word, known, meant):
    assert closest(word, known) == meant
    assert did_you_mean(word, known) == (f"; did you mean `{meant}`?" if meant else "")
