"""CFG027 (issue 20, point 2): a `checkpoint_save_freq` or `eval_interval` above the steps a training
run has is a warning that shows the arithmetic.

osmosis-ai forwards `[checkpoints]` unchecked (0.3.8 platform/cli/training_config.py
`_CheckpointsSection`, every field `Any`), so the SDK refuses none of these; its own scaffold
(templates/_scaffolds/rollout/training.toml.tpl) counts `checkpoint_save_freq` in steps ("every N
rollouts") and no longer writes `eval_interval`. Steps = rows / rollout_batch_size, rounded up, x
total_epochs; the rows are the local copy's. Our bundled templates must stay clean."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from osmosis_workspace.cli import app

CONFIG = "configs/training/multiply.toml"


def _cfg027(ws) -> list[dict]:
    result = CliRunner().invoke(app, ["doctor", str(ws), "--select", "CFG027", "--format", "json"])
    assert result.exit_code in (0, 1), result.output
    return json.loads(result.stdout)["diagnostics"]


def _set(ws, **values) -> None:
    path = ws / CONFIG
    lines = [line for line in path.read_text().splitlines()
             if not any(line.startswith(f"{key} =") for key in values)]
    text = "\n".join(lines) + "\n"
    for key, value in values.items():
        table = "[checkpoints]" if key in ("checkpoint_save_freq", "eval_interval") else "[training]"
        text = text.replace(f"{table}\n", f"{table}\n{key} = {value}\n", 1)
    path.write_text(text)


@pytest.fixture(scope="module")
def ws(tmp_path_factory):
    root = tmp_path_factory.mktemp("cfg027") / "ws"
    result = CliRunner().invoke(app, ["init", str(root), "--defaults", "--no-git"])
    assert result.exit_code == 0, result.output
    return root


@pytest.fixture
def fresh(ws):
    before = (ws / CONFIG).read_text()
    yield ws
    (ws / CONFIG).write_text(before)


def test_the_multiply_template_is_clean(fresh):
    assert _cfg027(fresh) == []
    text = (fresh / CONFIG).read_text()
    assert "eval_interval" not in text  # as the SDK's 0.3.8 scaffold: checkpoint_save_freq only


def test_an_interval_beyond_the_run_shows_the_arithmetic(fresh):
    """0.1.0's multiply values: 25 rows, batch 16, 2 epochs = 4 steps; a checkpoint every 10 never comes."""
    _set(fresh, rollout_batch_size=16, total_epochs=2, checkpoint_save_freq=10, eval_interval=5)
    found = _cfg027(fresh)
    assert [(d["path"], d["severity"]) for d in found] == [(CONFIG, "warning")] * 2
    by_key = {d["message"].split(" =")[0]: d for d in found}
    message = by_key["checkpoint_save_freq"]["message"]
    assert ("checkpoint_save_freq = 10 is never reached: data/multiply.jsonl has 25 rows / rollout_batch_size 16 = "
            "2 steps per epoch x total_epochs 2 = 4 steps; no checkpoint would be saved") == message
    assert "no evaluation would run" in by_key["eval_interval"]["message"]
    assert "at most 4" in by_key["checkpoint_save_freq"]["hint"]
    line = (fresh / CONFIG).read_text().splitlines()[by_key["checkpoint_save_freq"]["line"] - 1]
    assert line.startswith("checkpoint_save_freq = 10")


@pytest.mark.parametrize("freq, expected", [(8, 0), (9, 1)])
def test_the_boundary_is_the_last_step(fresh, freq, expected):
    _set(fresh, rollout_batch_size=8, total_epochs=2, checkpoint_save_freq=freq)  # 4 steps per epoch, 8 in all
    assert len(_cfg027(fresh)) == expected


def test_silent_where_the_arithmetic_is_unknown(fresh):
    _set(fresh, checkpoint_save_freq=1000)
    assert len(_cfg027(fresh)) == 1
    text = (fresh / CONFIG).read_text()
    (fresh / CONFIG).write_text(text.replace('dataset = "multiply"', 'dataset = "elsewhere"'))
    assert _cfg027(fresh) == []  # no local copy of that platform dataset: its rows are unknown
    (fresh / CONFIG).write_text(text.replace("total_epochs = 2\n", ""))
    assert _cfg027(fresh) == []  # the platform's default epochs are not published
    (fresh / CONFIG).write_text(text.replace("total_epochs = 2\n", "total_epochs = 0\n"))
    assert _cfg027(fresh) == []  # an impossible value is CFG005's one finding


def test_the_bundled_templates_are_clean(tmp_path):
    for template in ("blank", "calculator-remote", "llm-judge", "code"):
        root = tmp_path / template
        result = CliRunner().invoke(app, ["init", str(root), "--template", template, "--defaults", "--no-git"])
        assert result.exit_code == 0, result.output
        assert _cfg027(root) == [], template
