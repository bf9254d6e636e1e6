"""`osmosis rehearse --changed REF --list`: the rollouts a change touches, on real git histories, through the CLI.

A workspace with three rollouts is pushed to a local bare `origin`; each test branches off, changes
something and asks which rollouts a pull request against `origin/main` would rehearse. Nothing runs.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from osmosis_workspace.cli import app
from tests.git_origin import push_to_bare_origin

IDENTITY = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.invalid",
            "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.invalid"}


def git(ws: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=ws, check=True, capture_output=True, text=True,
                          env={**os.environ, **IDENTITY}).stdout


def osmosis(ws: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "osmosis_workspace", *args], cwd=ws, capture_output=True, text=True,
                          env={**os.environ, **IDENTITY, "NO_COLOR": "1"}, timeout=120)


@pytest.fixture(scope="module")
def pushed(tmp_path_factory) -> Path:
    """A multiply workspace with rollouts `multiply`, `second`, `third`, committed and pushed to a bare origin."""
    base = tmp_path_factory.mktemp("changed")
    ws = base / "ws"
    runner = CliRunner()
    saved = dict(os.environ)
    os.environ.update(IDENTITY)
    try:
        result = runner.invoke(app, ["init", str(ws), "--defaults"])
        assert result.exit_code == 0, result.output
        for name in ("second", "third"):
            result = runner.invoke(app, ["rollout", "new", name, "--template", "multiply", "--defaults", "-w", str(ws)])
            assert result.exit_code == 0, result.output
    finally:
        os.environ.clear()
        os.environ.update(saved)
    git(ws, "add", "-A")
    git(ws, "commit", "-qm", "three rollouts")
    push_to_bare_origin(ws, base / "origin.git")
    return ws


@pytest.fixture
def branch(pushed):
    """A fresh branch off origin/main; the work tree is put back afterwards."""
    git(pushed, "checkout", "-q", "-B", "feature", "origin/main")
    yield pushed
    git(pushed, "reset", "-q", "--hard", "origin/main")
    git(pushed, "clean", "-qfd")


def listing(ws: Path, ref: str = "origin/main") -> dict:
    done = osmosis(ws, "rehearse", "--changed", ref, "--list", "--format", "json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def commit(ws: Path, message: str) -> None:
    git(ws, "add", "-A")
    git(ws, "commit", "-qm", message)


def test_a_branch_that_touches_one_rollout_gets_a_one_rollout_matrix(branch):
    path = branch / "rollouts/second/second_rollout/grading.py"
    path.write_text(path.read_text(encoding="utf-8") + "\n# a comment\n", encoding="utf-8")
    commit(branch, "touch second")
    data = listing(branch)
    assert data["matrix"] == ["second"] and data["of"] == 3
    assert data["rollouts"] == [{"rollout": "second",
                                 "reasons": ["rollouts/second/second_rollout/grading.py (under the rollout)"]}]


def test_a_change_to_the_root_lock_picks_every_rollout(branch):
    (branch / "uv.lock").write_text((branch / "uv.lock").read_text(encoding="utf-8") + "\n", encoding="utf-8")
    commit(branch, "lock")
    data = listing(branch)
    assert data["matrix"] == ["multiply", "second", "third"]
    assert all(r["reasons"] == ["uv.lock (shared by every rollout)"] for r in data["rollouts"])


@pytest.mark.parametrize("shared", ["pyproject.toml", ".python-version", "conftest.py"])
def test_every_shared_root_file_picks_every_rollout(branch, shared):
    path = branch / shared
    path.write_text((path.read_text(encoding="utf-8") if path.exists() else "") + "\n", encoding="utf-8")
    assert listing(branch)["matrix"] == ["multiply", "second", "third"]  # uncommitted changes count too


def test_a_config_picks_the_rollout_it_runs_and_a_dataset_the_rollouts_that_read_it(branch):
    config = branch / "configs/eval/third.toml"
    text = config.read_text(encoding="utf-8")
    assert 'dataset = "third"' in text
    config.write_text(text.replace('dataset = "third"', 'dataset = "shared-rows"'), encoding="utf-8")
    (branch / "data/shared-rows.jsonl").write_text('{"user_prompt": "1*1?", "ground_truth": "1"}\n', encoding="utf-8")
    commit(branch, "third reads shared rows")
    data = {r["rollout"]: r["reasons"] for r in listing(branch)["rollouts"]}
    assert data == {"third": ["configs/eval/third.toml (a config that runs it)",
                              "data/shared-rows.jsonl (the dataset configs/eval/third.toml names)"]}
    git(branch, "checkout", "-q", "-B", "feature2", "origin/main")
    (branch / "data/second.jsonl").write_text('{"user_prompt": "2*2?", "ground_truth": "4"}\n', encoding="utf-8")
    data = {r["rollout"]: r["reasons"] for r in listing(branch)["rollouts"]}
    # the training config also names data "second", the rollout's default rows are data/second.jsonl
    assert list(data) == ["second"] and "data/second.jsonl (its default rows)" in data["second"]


def test_docs_and_guidance_pick_nothing_and_the_text_says_so(branch):
    (branch / "README.md").write_text("# changed\n", encoding="utf-8")
    (branch / "notes.txt").write_text("new, untracked\n", encoding="utf-8")
    assert listing(branch)["matrix"] == []
    done = osmosis(branch, "rehearse", "--changed", "origin/main", "--list")
    assert done.returncode == 0 and done.stdout == "No rollout is affected by the changes since origin/main.\n"
    # and rehearse itself runs nothing, with the same words, exit 0 (no SDK environment is needed for it)
    done = osmosis(branch, "rehearse", "--changed", "origin/main", "--format", "json")
    assert done.returncode == 0 and json.loads(done.stdout) == {"ok": True, "rollouts": []}, done.stderr


def test_the_text_listing_gives_each_rollout_and_its_reasons(branch):
    (branch / "rollouts/third/README.md").write_text("changed\n", encoding="utf-8")
    done = osmosis(branch, "rehearse", "--changed", "origin/main", "--list")
    assert done.stdout == "third: rollouts/third/README.md (under the rollout)\n"


def test_a_deleted_rollout_is_not_listed_and_a_branch_merged_from_main_counts_only_its_own_changes(branch):
    git(branch, "rm", "-rq", "rollouts/third")
    commit(branch, "drop third")
    assert listing(branch)["matrix"] == []
    # main moves on (another rollout changes there); the branch's merge base keeps that out of its set
    git(branch, "checkout", "-q", "-B", "other", "origin/main")
    (branch / "rollouts/multiply/README.md").write_text("main moved\n", encoding="utf-8")
    commit(branch, "main moves")
    git(branch, "push", "-q", "origin", "HEAD:main")
    git(branch, "fetch", "-q", "origin")
    git(branch, "checkout", "-q", "feature")
    assert listing(branch)["matrix"] == []


@pytest.mark.parametrize("ref", ["no-such-branch", "--output=/tmp/x", "origin/main^{tree}"])
def test_a_ref_that_is_not_a_commit_is_one_line_and_exit_2(branch, ref):
    for fmt in ("text", "json"):
        done = osmosis(branch, "rehearse", f"--changed={ref}", "--list", "--format", fmt)
        assert done.returncode == 2, done
        assert "Traceback" not in done.stderr and done.stderr.startswith("error: --changed"), done.stderr
    assert not Path("/tmp/x").exists() or ref != "--output=/tmp/x"


def test_changed_with_named_rollouts_is_a_usage_error(branch):
    done = osmosis(branch, "rehearse", "second", "--changed", "origin/main")
    assert done.returncode == 2 and "do not name rollouts" in done.stderr


def test_list_without_changed_lists_every_rollout(branch):
    data = json.loads(osmosis(branch, "rehearse", "--list", "--format", "json").stdout)
    assert data["matrix"] == ["multiply", "second", "third"] and data["changed_from"] is None


def test_outside_a_git_repository_changed_is_one_line(tmp_path):
    result = CliRunner().invoke(app, ["init", str(tmp_path / "ws"), "--defaults", "--no-git"])
    assert result.exit_code == 0, result.output
    done = osmosis(tmp_path / "ws", "rehearse", "--changed", "main", "--list")
    assert done.returncode == 2 and "not in a git work tree" in done.stderr
