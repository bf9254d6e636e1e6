"""What `osmosis init` / `osmosis rollout new` tell a new user, and re-running init on a workspace."""

from __future__ import annotations

import shutil
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from osmosis_workspace.cli import app

RUNNER = CliRunner()
REPO = Path(__file__).resolve().parents[2]


def without_uv(monkeypatch) -> None:
    """As in the virtualenv of the README's first command: osmosis-workspace installed, uv not."""
    real = shutil.which
    monkeypatch.setattr(shutil, "which", lambda cmd, *a, **k: None if cmd == "uv" else real(cmd, *a, **k))


def steps(output: str) -> list[str]:
    return [line.strip() for line in output.split("Next steps:", 1)[1].splitlines() if line.strip()]


def test_next_steps_say_to_install_uv_before_running_the_tests_when_it_is_missing(tmp_path, monkeypatch):
    without_uv(monkeypatch)
    ws = tmp_path / "ws"
    result = RUNNER.invoke(app, ["init", str(ws), "--defaults", "--no-git"])
    assert result.exit_code == 0, result.output
    listed = steps(result.output)
    install = listed.index("pip install uv")
    assert listed[install + 1] == "uv run --project rollouts/multiply --with pytest pytest rollouts/multiply"

    monkeypatch.chdir(ws)
    result = RUNNER.invoke(app, ["rollout", "new", "adder", "--defaults"])
    assert result.exit_code == 0, result.output
    listed = steps(result.output)
    assert listed[:2] == ["pip install uv", "uv run --project rollouts/adder --with pytest pytest rollouts/adder"]
    # then AGENTS.md's loop: `uv sync` and the free rehearse gate before the paid `eval run`, with --json
    commands = [line.split("   #")[0] for line in listed]
    run = next(i for i, c in enumerate(commands) if c.startswith("uv run osmosis --json eval run configs/eval/adder.toml "))
    assert 1 < commands.index("uv sync") < commands.index("osmosis rehearse adder") < run


def test_next_steps_do_not_ask_for_uv_when_it_is_installed(tmp_path, monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda cmd, *a, **k: "/usr/bin/uv" if cmd == "uv" else None)
    result = RUNNER.invoke(app, ["init", str(tmp_path / "ws"), "--defaults", "--no-git"])
    assert result.exit_code == 0, result.output
    assert "pip install uv" not in result.output
    assert "uv run --project rollouts/multiply --with pytest pytest rollouts/multiply" in steps(result.output)


def test_init_force_on_an_existing_workspace_is_refused_and_points_to_rollout_new(tmp_path):
    ws = tmp_path / "ws"
    assert RUNNER.invoke(app, ["init", str(ws), "--defaults", "--no-git"]).exit_code == 0
    before = {p.relative_to(ws).as_posix(): p.read_bytes() for p in sorted(ws.rglob("*")) if p.is_file()}

    result = RUNNER.invoke(app, ["init", str(ws), "--force", "--template", "llm-judge", "--defaults", "--no-git"])
    assert result.exit_code == 2, result.output
    assert "already an Osmosis workspace" in result.output
    assert "osmosis rollout new" in result.output and "Traceback" not in result.output
    after = {p.relative_to(ws).as_posix(): p.read_bytes() for p in sorted(ws.rglob("*")) if p.is_file()}
    assert after == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ws"]  # no staging folder left beside it


def run_cli(*args: str, cwd) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run([sys.executable, "-m", "osmosis_workspace", *args], cwd=cwd, env=env, capture_output=True,
                          text=True, stdin=subprocess.DEVNULL, timeout=60)


@pytest.mark.parametrize("argv", [["eval", "run", "configs/eval/multiply.toml", "--limit", "5"],
                                  ["eval", "submit", "configs/eval/multiply.toml"],
                                  ["train", "submit", "configs/training/multiply.toml"],
                                  ["auth", "login"], ["dataset", "upload", "data/multiply.jsonl"],
                                  ["serve", "-m", "server:agent_loop"]])
def test_platform_commands_from_the_next_steps_say_which_cli_they_belong_to(tmp_path, argv):
    # init's next steps list `osmosis eval run ...`; typed into this `osmosis` they must not end in a bare
    # "No such command": both packages install a command named `osmosis`.
    proc = run_cli(*argv, cwd=tmp_path)
    assert proc.returncode == 2, proc.stderr
    said = proc.stderr
    assert f"`osmosis {' '.join(argv[:2] if argv[0] == 'dataset' else argv[:1])}`" in said
    assert "osmosis-ai" in said and "osmosis-workspace" in said
    assert "No such command" not in said and "Traceback" not in said
    assert len(said.strip().splitlines()) <= 2


def test_our_dataset_command_is_not_mistaken_for_the_platforms(tmp_path):
    (tmp_path / "rows.jsonl").write_text("".join(
        json.dumps({"user_prompt": f"q{i}", "ground_truth": str(i)}) + "\n" for i in range(4)))
    proc = run_cli("dataset", "validate", "rows.jsonl", cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "osmosis-ai" not in proc.stderr


def test_rollout_new_from_inside_a_rollout_starts_its_next_steps_at_the_workspace_root(tmp_path, monkeypatch):
    ws = tmp_path / "my ws"
    assert RUNNER.invoke(app, ["init", str(ws), "--defaults", "--no-git"]).exit_code == 0
    monkeypatch.chdir(ws / "rollouts" / "multiply")
    result = RUNNER.invoke(app, ["rollout", "new", "adder", "--defaults"])
    assert result.exit_code == 0, result.output
    listed = steps(result.output)
    assert listed[0] == "cd ../.."
    assert "uv run --project rollouts/adder --with pytest pytest rollouts/adder" in listed  # relative to the root the first step goes to

    monkeypatch.chdir(tmp_path)
    result = RUNNER.invoke(app, ["rollout", "new", "other", "--defaults", "--workspace", str(ws)])
    assert result.exit_code == 0, result.output
    assert steps(result.output)[0] == "cd 'my ws'"

    monkeypatch.chdir(ws)
    result = RUNNER.invoke(app, ["rollout", "new", "third", "--defaults"])
    assert result.exit_code == 0, result.output
    assert not steps(result.output)[0].startswith("cd ")


def test_a_folder_name_that_is_not_a_valid_workspace_name_is_explained(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = RUNNER.invoke(app, ["init", "My_Agent", "--defaults", "--no-git"])
    assert result.exit_code == 0, result.output
    assert "Created workspace my-workspace in My_Agent" in result.output
    note = next(line for line in result.output.splitlines() if "My_Agent" in line and "not a valid" in line)
    assert "--data workspace_name=" in note
    assert (tmp_path / "My_Agent" / "AGENTS.md").read_text().startswith("# my-workspace")

    for args in (["good-name"], []):  # a valid folder name, or no PATH (the folder is named after the default)
        result = RUNNER.invoke(app, ["init", *args, "--defaults", "--no-git"])
        assert result.exit_code == 0, result.output
        assert "not a valid" not in result.output
    assert (tmp_path / "my-workspace" / "AGENTS.md").is_file()


def test_missing_git_is_refused_before_anything_is_written(tmp_path, monkeypatch):
    import shutil

    real_which = shutil.which
    monkeypatch.setattr(shutil, "which", lambda cmd, *a, **k: None if cmd == "git" else real_which(cmd, *a, **k))
    monkeypatch.chdir(tmp_path)
    result = RUNNER.invoke(app, ["init", "ws", "--defaults"])
    assert result.exit_code == 2, result.output
    assert result.output.startswith("error: git is not installed")
    assert "--no-git" in result.output and len(result.output.splitlines()) == 2
    assert list(tmp_path.iterdir()) == []

    result = RUNNER.invoke(app, ["init", "ws", "--defaults", "--no-git"])
    assert result.exit_code == 0, result.output
    assert not (tmp_path / "ws" / ".git").exists()


@pytest.mark.parametrize("git", [True, False], ids=["git", "no-git"])
def test_next_steps_are_pasteable_commands_in_order_and_say_which_cli(tmp_path, git):
    """Issue 21: every line is a shell command (or a comment), the data is uploaded before the submit
    that names it, and each platform command says it comes from osmosis-ai."""
    from tests.cli.test_bundled_commands import command_lines, verdict

    result = RUNNER.invoke(app, ["init", str(tmp_path / "ws"), "--defaults", *([] if git else ["--no-git"])])
    assert result.exit_code == 0, result.output
    assert "`uv run osmosis ...` is the platform's CLI (osmosis-ai" in result.output
    listed = steps(result.output)
    for line in listed:
        syntax = subprocess.run(["bash", "-n", "-c", line], capture_output=True, text=True)
        assert syntax.returncode == 0, f"{line!r}: {syntax.stderr}"
        assert line.startswith(("#", "cd ", "(cd ", "osmosis ", "uv run ", "uv sync", "cp ", "git ", "pip install ")), line
    platform = [line for line in listed if line.startswith("uv run osmosis ")]
    assert platform and all("# osmosis-ai" in line for line in platform)
    commands = [line.split("   #")[0] for line in listed]
    upload = commands.index("uv run osmosis --json dataset upload data/multiply.jsonl")
    submit = commands.index("uv run osmosis --json eval submit configs/eval/multiply.toml")
    assert commands.index("uv run osmosis auth login") < upload < submit
    assert submit < commands.index("uv run osmosis --json train submit configs/training/multiply.toml")
    # AGENTS.md's loop: the tests, `uv sync`, the rehearse gate, and only then the paid local run
    tests = commands.index("uv run --project rollouts/multiply --with pytest pytest rollouts/multiply")
    run = next(i for i, c in enumerate(commands) if c.startswith("uv run osmosis --json eval run "))
    assert tests < commands.index("uv sync") < commands.index("osmosis rehearse multiply") < run < submit
    assert commands.index(next(c for c in commands if c.startswith("git push"))) < submit
    found = command_lines("\n".join(commands))
    assert len(found) >= 6
    assert [verdict(program, tokens) for _, program, tokens in found] == [None] * len(found)
