"""`osmosis rollout new`: adds a rollout to an existing workspace, never overwriting anything."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from lifecycle_helpers import cli, commit_all, doctor_errors, git, snapshot

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def ws(tmp_path):
    target = tmp_path / "ws"
    result = cli("init", target, "--defaults")
    assert result.exit_code == 0, result.output
    return target


def test_two_rollouts_from_different_templates_pass_doctor(ws):
    first = cli("rollout", "new", "adder", "--template", "calculator-remote", "--workspace", ws, "--defaults")
    assert first.exit_code == 0, first.output
    second = cli("rollout", "new", "judge", "--template", "llm-judge", "--workspace", ws, "--defaults")
    assert second.exit_code == 0, second.output
    for name, entry in (("adder", "main.py"), ("judge", "main.py")):
        assert (ws / "rollouts" / name / entry).is_file()
        for kind in ("eval", "training"):
            config = tomllib.loads((ws / "configs" / kind / f"{name}.toml").read_text())
            assert config["experiment"]["rollout"] == name
        assert (ws / "data" / f"{name}.jsonl").is_file()
    for name in ("adder", "judge"):  # each brings its own lock, named for it
        assert f'name = "{name}"\n' in (ws / "rollouts" / name / "uv.lock").read_text()
    assert "workspace" not in tomllib.loads((ws / "pyproject.toml").read_text())["tool"]["uv"]
    commit_all(ws)
    assert doctor_errors(ws) == []


def test_root_files_are_edited_keeping_comments_and_order(ws):
    pyproject = ws / "pyproject.toml"
    pyproject.write_text(pyproject.read_text() + "\n# my own trailing note\n")
    before = pyproject.read_text()
    env = ws / ".env.example"
    env.write_text(env.read_text() + "# mine\nMY_TOKEN=\n")
    assert cli("rollout", "new", "sandbox", "-t", "multiply-harbor", "-w", ws, "--defaults").exit_code == 0
    assert pyproject.read_text() == before  # a rollout is its own uv project: the root does not change
    env_after = env.read_text()
    assert env_after.startswith(env.read_text().split("# Needed by rollout sandbox")[0])
    # the Harbor rollout needs the OpenAI key multiply already listed (managed sandboxes need none): once
    assert "# mine\nMY_TOKEN=\n" in env_after and env_after.count("OPENAI_API_KEY=") == 1
    assert cli("rollout", "new", "sandbox-two", "-t", "multiply-harbor", "-w", ws, "--defaults").exit_code == 0
    assert env.read_text().count("OPENAI_API_KEY=") == 1 and "DAYTONA_API_KEY=" not in env.read_text()


def test_a_workspace_made_with_uv_members_keeps_them(ws):
    # Workspaces made by pre-release builds list their rollouts as uv workspace members; rollout new leaves the
    # list as it is (the new rollout is a project of its own, with its own lock).
    pyproject = ws / "pyproject.toml"
    pyproject.write_text(pyproject.read_text() + '\n[tool.uv.workspace]\nmembers = ["rollouts/multiply"]\n')
    before = pyproject.read_text()
    assert cli("rollout", "new", "more", "-w", ws, "--defaults").exit_code == 0
    assert pyproject.read_text() == before
    assert (ws / "rollouts/more/uv.lock").is_file()


def test_existing_rollout_is_refused_and_nothing_changes(ws):
    before = snapshot(ws)
    result = cli("rollout", "new", "multiply", "-w", ws, "--defaults")
    assert result.exit_code == 2 and "already exists" in result.output
    assert snapshot(ws) == before


def test_any_colliding_file_is_refused_and_nothing_is_written(ws):
    (ws / "data" / "fresh.jsonl").write_text('{"mine": true}\n')
    (ws / "configs" / "training" / "fresh.toml").write_text("# mine\n")
    before = snapshot(ws)
    result = cli("rollout", "new", "fresh", "-t", "multiply-openai", "-w", ws, "--defaults")
    assert result.exit_code == 2
    assert "data/fresh.jsonl" in result.output and "configs/training/fresh.toml" in result.output
    assert "nothing was written" in result.output
    assert snapshot(ws) == before
    assert not (ws / "rollouts" / "fresh").exists()
    assert not [p for p in ws.iterdir() if p.name.startswith(".osmosis-new-")]  # staging cleaned up


@pytest.mark.parametrize("args, message", [
    (["Bad_Name"], "must start with a lowercase letter"),
    (["default"], "reserved"),
    (["ok", "--data", "colour=blue"], "unknown question 'colour'"),
    (["ok", "--data", "rollout_name=other"], "contradicts"),
    (["ok", "--data", "novalue"], "KEY=VALUE"),
    (["ok", "--template", "workspace"], "not a rollout template"),
    (["ok", "--template", "nope"], "unknown template"),
])
def test_usage_errors_exit_2_and_write_nothing(ws, args, message):
    before = snapshot(ws)
    result = cli("rollout", "new", *args, "-w", ws, "--defaults")
    assert result.exit_code == 2, result.output
    assert message in result.output and "Traceback" not in result.output
    assert snapshot(ws) == before


def test_not_a_workspace(tmp_path):
    assert cli("rollout", "new", "x", "-w", tmp_path / "missing", "--defaults").exit_code == 2
    empty = tmp_path / "empty"
    empty.mkdir()
    result = cli("rollout", "new", "x", "-w", empty, "--defaults")
    assert result.exit_code == 2 and "not inside an Osmosis workspace" in result.output


def test_works_from_a_subfolder_and_moves_the_pristine_ref_by_that_rollout_only(ws):
    before = set(git(ws, "ls-tree", "-r", "--name-only", "refs/osmosis/pristine").split())
    result = cli("rollout", "new", "second", "-t", "blank", "-w", ws / "configs" / "eval", "--defaults")
    assert result.exit_code == 0, result.output
    after = set(git(ws, "ls-tree", "-r", "--name-only", "refs/osmosis/pristine").split())
    added = after - before
    assert "rollouts/second/main.py" in added and "configs/eval/second.toml" in added and "data/second.jsonl" in added
    assert all(p.startswith(("rollouts/second/", "configs/eval/second", "configs/training/second", "data/second")) for p in added)
    pristine_pyproject = git(ws, "show", "refs/osmosis/pristine:pyproject.toml")
    assert pristine_pyproject == (ws / "pyproject.toml").read_text()


def test_installed_entry_point_as_a_subprocess(ws):
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run([sys.executable, "-m", "osmosis_workspace", "rollout", "new", "viaproc", "--template", "multiply-openai",
                           "--workspace", str(ws), "--defaults"], capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "Added rollout viaproc" in done.stdout
    again = subprocess.run([sys.executable, "-m", "osmosis_workspace", "rollout", "new", "viaproc", "--workspace", str(ws), "--defaults"],
                           capture_output=True, text=True, env=env, timeout=300)
    assert again.returncode == 2 and again.stderr.startswith("error: rollout 'viaproc' already exists")
