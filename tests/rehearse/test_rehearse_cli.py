"""Bad input gets one clear line and exit 2, before anything runs; the help says the command runs code."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from typer.testing import CliRunner

from osmosis_workspace.cli import app
from osmosis_workspace.rehearse.runner import find_sdk

FAKE_SDK = "#!/bin/sh\necho should-not-run >&2\nexit 9\n"


def run(*args: str):
    result = CliRunner().invoke(app, ["rehearse", *args])
    return result.exit_code, result.output


@pytest.fixture
def ws(make_workspace) -> Path:
    return make_workspace("blank", name="ws", data=("rollout_name=task",))


def _one_line_error(output: str) -> str:
    errors = [line for line in output.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and "Traceback" not in output, output
    return errors[0]


def test_help_says_it_runs_the_workspaces_code():
    code, output = run("--help")
    assert code == 0 and "RUNS THE WORKSPACE'S CODE" in output and "127.0.0.1" in output


def test_not_a_workspace(tmp_path):
    code, output = run("-w", str(tmp_path))
    assert code == 2 and "not inside an Osmosis workspace" in _one_line_error(output)


def test_unknown_rollout_suggests_the_near_one(ws):
    code, output = run("tusk", "-w", str(ws))
    assert code == 2 and "unknown rollout 'tusk' (did you mean task?)" in _one_line_error(output)


def test_rollout_without_an_eval_config(ws):
    (ws / "configs" / "eval" / "task.toml").unlink()
    code, output = run("task", "-w", str(ws))
    assert code == 2 and "rollout 'task' has no eval config" in _one_line_error(output)


def test_no_local_rows_asks_for_a_dataset_file(ws):
    (ws / "data" / "task.jsonl").unlink()
    code, output = run("-w", str(ws))
    assert code == 2 and "no data/task.jsonl" in _one_line_error(output) and "--dataset-file" in output


def test_bad_rows_spec_and_rows_past_the_end(ws):
    code, output = run("--rows", "3-1", "-w", str(ws))
    assert code == 2 and "runs backwards" in _one_line_error(output)
    code, output = run("--rows", "500", "-w", str(ws))
    assert code == 2 and "picks no row" in _one_line_error(output)


def test_a_config_pointing_the_rollout_at_a_real_endpoint_is_refused(ws):
    config = ws / "configs" / "eval" / "task.toml"
    config.write_text(config.read_text() + '\n[env]\nJUDGE_BASE_URL = "https://api.openai.com/v1"\n')
    code, output = run("-w", str(ws))
    assert code == 2 and "JUDGE_BASE_URL" in _one_line_error(output) and "127.0.0.1" in output


def test_no_sdk_environment_names_the_one_command(ws):
    code, output = run("-w", str(ws))
    line = _one_line_error(output)
    assert code == 2 and "no SDK environment" in line and "uv sync" in output and "3.12" in output


def test_the_sdk_is_found_in_the_workspace_venv_only_when_it_holds_osmosis_ai(ws):
    exe = ws / ".venv" / "bin" / "osmosis"
    exe.parent.mkdir(parents=True)
    exe.write_text(FAKE_SDK)
    exe.chmod(exe.stat().st_mode | stat.S_IXUSR)
    with pytest.raises(Exception, match="no SDK environment"):
        find_sdk(ws, None)   # our own `osmosis` in a venv is not the SDK's
    (ws / ".venv" / "lib" / "python3.12" / "site-packages" / "osmosis_ai").mkdir(parents=True)
    (ws / ".venv" / "lib" / "python3.12" / "site-packages" / "osmosis_ai" / "__init__.py").write_text("")
    assert find_sdk(ws, None) == exe
    assert find_sdk(ws, ws / ".venv") == exe


def test_a_dataset_without_ground_truth_runs_the_other_passes(ws, tmp_path):
    from osmosis_workspace.rehearse import plan as planning

    data = tmp_path / "rows.jsonl"
    data.write_text('{"user_prompt": "a"}\n{"user_prompt": "b"}\n')
    [plan] = planning.rollout_plans(ws, ["task"], None)
    planning.select_rows(plan, data, "rows.jsonl", "0-3")
    assert not plan.with_gold and any("gold pass cannot run" in n for n in plan.notes)
    assert any("rehearsing 2 of the 4" in n for n in plan.notes)


def test_nothing_in_the_workspace_changes_on_a_usage_error(ws):
    before = sorted(p.relative_to(ws).as_posix() for p in ws.rglob("*") if ".git" not in p.parts)
    run("--rows", "x", "-w", str(ws))
    after = sorted(p.relative_to(ws).as_posix() for p in ws.rglob("*") if ".git" not in p.parts)
    assert before == after


def test_a_failing_sdk_is_a_verdict_not_a_crash(ws, tmp_path):
    """An SDK that dies at once (here a stand-in script: the real one runs in the slow tests) gives exit 1 with
    its reason, and the rehearsal's files stay under .osmosis/evals/rehearse/."""
    sdk = tmp_path / "osmosis"
    sdk.write_text("#!/bin/sh\necho '{\"error\": {\"code\": \"VALIDATION\", \"message\": \"config rejected\"}}' >&2\nexit 1\n")
    sdk.chmod(0o755)
    code, output = run("--sdk", str(sdk), "-w", str(ws), "--format", "json")
    assert code == 1, output
    import json

    report = json.loads(output)
    assert report["rollouts"][0]["headline"] == "runs: eval run failed before any row: config rejected"
    assert (ws / ".osmosis" / "evals" / "rehearse" / "task.rehearsal.jsonl").is_file()
    assert os.environ.get("OPENAI_API_KEY") != "sk-osmosis-rehearse-not-a-real-key"


@pytest.mark.parametrize("table, words", [
    ('accept = { "lenght" = "why" }', "accept names 'lenght', which is no probe; did you mean 'length'?"),
    ("reward-range = [1, 0]", "`reward-range` must be [LOW, HIGH]"),
])
def test_bad_rehearse_settings_stop_before_anything_runs(ws, tmp_path, table, words):
    sdk = tmp_path / "osmosis"
    sdk.write_text(FAKE_SDK)
    sdk.chmod(0o755)
    pyproject = ws / "pyproject.toml"
    pyproject.write_text(pyproject.read_text(encoding="utf-8") + f"\n[tool.osmosis.rehearse]\n{table}\n", encoding="utf-8")
    code, output = run("--sdk", str(sdk), "-w", str(ws))
    assert code == 2 and words in _one_line_error(output), output
    assert "should-not-run" not in output


def test_a_rollout_named_like_an_option_is_rehearsed_as_itself_after_the_double_dash(ws, tmp_path):
    """`osmosis rehearse -- --no-probes` names the rollout (probes stay on), and the SDK's command line
    carries the name joined to its option and the config after `--`."""
    (ws / "rollouts" / "task").rename(ws / "rollouts" / "--no-probes")
    for kind in ("eval", "training"):
        old = ws / "configs" / kind / "task.toml"
        if old.exists():
            (ws / "configs" / kind / "--no-probes.toml").write_text(
                old.read_text(encoding="utf-8").replace('"task"', '"--no-probes"'), encoding="utf-8")
            old.unlink()
    (ws / "data" / "task.jsonl").rename(ws / "data" / "--no-probes.jsonl")
    argv_file = tmp_path / "argv.json"
    sdk = tmp_path / "osmosis"
    sdk.write_text(f"#!/bin/sh\nprintf '%s\\n' \"$@\" > '{argv_file}'\n"
                   "echo '{\"error\": {\"code\": \"VALIDATION\", \"message\": \"stand-in\"}}' >&2\nexit 1\n")
    sdk.chmod(0o755)
    code, output = run("--sdk", str(sdk), "-w", str(ws), "--format", "json", "--", "--no-probes")
    assert code == 1, output
    import json

    assert [r["rollout"] for r in json.loads(output)["rollouts"]] == ["--no-probes"]
    argv = argv_file.read_text(encoding="utf-8").splitlines()
    assert "--name=--no-probes" in argv and argv[-2:] == ["--", "configs/eval/--no-probes.toml"]
    rows = [json.loads(line) for line in
            (ws / ".osmosis/evals/rehearse/--no-probes.rehearsal.jsonl").read_text(encoding="utf-8").splitlines()]
    sources = {row["user_prompt"].rsplit("\n\n[osmosis rehearse ", 1)[0] for row in rows}
    assert len(rows) > 3 * len(sources)   # probes were sent: --no-probes was the rollout, not the flag
