"""A workspace straight out of `osmosis init` passes `osmosis doctor` and `osmosis validate`."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from osmosis_workspace.cli import app


def test_doctor_finds_nothing_in_a_fresh_workspace(make_workspace):
    ws = make_workspace()
    result = CliRunner().invoke(app, ["doctor", str(ws), "--format", "json", "--strict"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["diagnostics"] == [] and report["ok"] is True


def test_validate_accepts_the_rendered_configs_and_data(make_workspace):
    ws = make_workspace(git=False)
    result = CliRunner().invoke(app, ["validate", str(ws / "configs/eval/multiply.toml"),
                                      str(ws / "configs/training/multiply.toml"), str(ws / "data/multiply.jsonl")])
    assert result.exit_code == 0, result.output
