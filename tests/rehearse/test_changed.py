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


def names(data: dict) -> list[str]:
    """The rollouts a listing picks, in matrix order (every job's group, one after another)."""
    flat = [name for job in data["matrix"] for name in job["rollouts"]]
    assert flat == [r["rollout"] for r in data["rollouts"]]
    return flat


def publish_base(ws: Path, name: str) -> str:
    """Push what the branch has so far as origin/NAME: the base a later change is compared with."""
    git(ws, "push", "-q", "-f", "origin", f"HEAD:refs/heads/{name}")
    git(ws, "fetch", "-q", "origin")
    return f"origin/{name}"


def test_a_branch_that_touches_one_rollout_gets_a_one_rollout_matrix(branch):
    path = branch / "rollouts/second/second_rollout/grading.py"
    path.write_text(path.read_text(encoding="utf-8") + "\n# a comment\n", encoding="utf-8")
    commit(branch, "touch second")
    data = listing(branch)
    assert data["matrix"] == [{"job": 1, "rollouts": ["second"]}] and data["of"] == 3
    assert data["rollouts"] == [{"rollout": "second",
                                 "reasons": ["rollouts/second/second_rollout/grading.py (under the rollout)"]}]


def test_a_change_to_the_root_lock_picks_every_rollout(branch):
    (branch / "uv.lock").write_text((branch / "uv.lock").read_text(encoding="utf-8") + "\n", encoding="utf-8")
    commit(branch, "lock")
    data = listing(branch)
    assert names(data) == ["multiply", "second", "third"]
    assert all(r["reasons"] == ["uv.lock (shared by every rollout)"] for r in data["rollouts"])


@pytest.mark.parametrize("shared", ["pyproject.toml", ".python-version", "conftest.py"])
def test_every_shared_root_file_picks_every_rollout(branch, shared):
    path = branch / shared
    path.write_text((path.read_text(encoding="utf-8") if path.exists() else "") + "\n", encoding="utf-8")
    assert names(listing(branch)) == ["multiply", "second", "third"]  # uncommitted changes count too


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
    assert names(listing(branch)) == []
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
    assert names(listing(branch)) == []
    # main moves on (another rollout changes there); the branch's merge base keeps that out of its set
    git(branch, "checkout", "-q", "-B", "other", "origin/main")
    (branch / "rollouts/multiply/README.md").write_text("main moved\n", encoding="utf-8")
    commit(branch, "main moves")
    git(branch, "push", "-q", "origin", "HEAD:main")
    git(branch, "fetch", "-q", "origin")
    git(branch, "checkout", "-q", "feature")
    assert names(listing(branch)) == []


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
    assert names(data) == ["multiply", "second", "third"] and data["changed_from"] is None


def test_outside_a_git_repository_changed_is_one_line(tmp_path):
    result = CliRunner().invoke(app, ["init", str(tmp_path / "ws"), "--defaults", "--no-git"])
    assert result.exit_code == 0, result.output
    done = osmosis(tmp_path / "ws", "rehearse", "--changed", "main", "--list")
    assert done.returncode == 2 and "not in a git work tree" in done.stderr


def test_a_change_to_a_symlinked_graders_target_picks_the_rollout_that_links_it(branch):
    shared = branch / "shared" / "grading.py"
    shared.parent.mkdir()
    grader = branch / "rollouts/second/second_rollout/grading.py"
    shared.write_text(grader.read_text(encoding="utf-8"), encoding="utf-8")
    grader.unlink()
    grader.symlink_to("../../../shared/grading.py")
    commit(branch, "second's grader is shared")
    base = publish_base(branch, "linked")
    shared.write_text(shared.read_text(encoding="utf-8") + "\n# the shared grader changes\n", encoding="utf-8")
    commit(branch, "change the shared grader")
    data = listing(branch, base)
    assert data["rollouts"] == [{"rollout": "second", "reasons": [
        "shared/grading.py (the target of the link rollouts/second/second_rollout/grading.py)"]}]
    assert data["warnings"] == [] and data["vanished"] == []
    # a linked folder: every file below its target picks it too
    (branch / "rollouts/third/assets").symlink_to("../../shared")
    commit(branch, "third links the shared folder")
    base = publish_base(branch, "linked2")
    (branch / "shared" / "new.txt").write_text("x\n", encoding="utf-8")
    assert {r["rollout"]: r["reasons"] for r in listing(branch, base)["rollouts"]} == {
        "third": ["shared/new.txt (the target of the link rollouts/third/assets)"]}


def test_a_local_path_dependency_of_a_rollout_picks_it_when_it_changes(branch):
    package = branch / "packages" / "helpers"
    (package / "helpers").mkdir(parents=True)
    (package / "pyproject.toml").write_text('[project]\nname = "helpers"\nversion = "0.1.0"\n', encoding="utf-8")
    (package / "helpers" / "__init__.py").write_text("VALUE = 1\n", encoding="utf-8")
    pyproject = branch / "rollouts/third/pyproject.toml"
    pyproject.write_text(pyproject.read_text(encoding="utf-8")
                         + '\n[tool.uv.sources]\nhelpers = { path = "../../packages/helpers", editable = true }\n',
                         encoding="utf-8")
    commit(branch, "third uses a local package")
    base = publish_base(branch, "pathdep")
    (package / "helpers" / "__init__.py").write_text("VALUE = 2\n", encoding="utf-8")
    commit(branch, "change the package")
    data = listing(branch, base)
    assert data["rollouts"] == [{"rollout": "third", "reasons": [
        "packages/helpers/helpers/__init__.py (helpers (an editable path source in rollouts/third/pyproject.toml))"]}]
    done = osmosis(branch, "rehearse", "--changed", base, "--list")
    assert done.stdout == ("third: packages/helpers/helpers/__init__.py "
                           "(helpers (an editable path source in rollouts/third/pyproject.toml))\n"), done


def test_a_link_out_of_the_workspace_is_reported_and_its_rollout_rehearsed(branch, tmp_path):
    outside = tmp_path / "elsewhere.py"
    outside.write_text("X = 1\n", encoding="utf-8")
    (branch / "rollouts/multiply/extra.py").symlink_to(outside)
    commit(branch, "a link out")
    base = publish_base(branch, "outlink")
    (branch / "README.md").write_text("# only docs change\n", encoding="utf-8")
    data = listing(branch, base)
    warning = f"rollouts/multiply/extra.py links outside the workspace (to {outside})"
    assert data["warnings"] == [warning]
    assert data["rollouts"] == [{"rollout": "multiply", "reasons": [
        f"{warning}: a change there is not in the diff, so it is rehearsed on any change"]}]
    done = osmosis(branch, "rehearse", "--changed", base, "--list")
    assert f"warning: {warning}" in done.stderr


def test_deleted_and_renamed_rollouts_are_named_with_why(branch):
    git(branch, "rm", "-rq", "rollouts/third")
    git(branch, "mv", "rollouts/second", "rollouts/renamed")
    commit(branch, "drop third, rename second")
    data = listing(branch)
    assert data["vanished"] == [
        {"rollout": "second", "why": "renamed to renamed on this branch (rehearsed under its new name)"},
        {"rollout": "third", "why": "deleted on this branch"}]
    assert names(data) == ["renamed"]


def test_three_hundred_affected_rollouts_make_at_most_256_jobs_and_keep_every_rollout(branch):
    for at in range(297):
        folder = branch / "rollouts" / f"r{at:03d}"
        folder.mkdir()
        (folder / "README.md").write_text("x\n", encoding="utf-8")
    commit(branch, "300 rollouts")
    base = publish_base(branch, "many")
    (branch / "uv.lock").write_text((branch / "uv.lock").read_text(encoding="utf-8") + "\n", encoding="utf-8")
    data = listing(branch, base)
    assert data["of"] == 300 and len(data["rollouts"]) == 300
    assert len(data["matrix"]) == 256 and [job["job"] for job in data["matrix"]] == list(range(1, 257))
    sizes = [len(job["rollouts"]) for job in data["matrix"]]
    assert set(sizes) == {1, 2} and sum(sizes) == 300
    assert sorted(names(data)) == sorted(r["rollout"] for r in data["rollouts"])
