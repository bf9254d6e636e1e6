"""What `osmosis init` does and says about git (issue 12, points 10 and 12): `--no-git` next steps
start with making the repository the platform needs (else doctor's first finding is LAY007), and
`--force` never commits the user's own files into the first commit without a word."""

from __future__ import annotations

import json
import subprocess

from typer.testing import CliRunner

from osmosis_workspace.cli import app


def cli(*args):
    return CliRunner().invoke(app, [str(a) for a in args])


def steps(output: str) -> list[str]:
    return [line.strip() for line in output.split("Next steps:", 1)[1].splitlines() if line.strip()]


def test_no_git_next_steps_make_the_repository_and_doctor_then_passes(tmp_path, monkeypatch):
    for key, value in {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.invalid",
                       "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.invalid"}.items():
        monkeypatch.setenv(key, value)
    ws = tmp_path / "ws"
    result = cli("init", ws, "--defaults", "--no-git")
    assert result.exit_code == 0, result.output
    listed = steps(result.output)
    git_step = next(s for s in listed if s.startswith("git init"))
    assert listed.index(git_step) < listed.index("osmosis doctor")
    before = json.loads(cli("doctor", ws, "-f", "json").stdout)["diagnostics"]
    assert "LAY007" in {d["code"] for d in before}
    subprocess.run(git_step, shell=True, cwd=ws, check=True, capture_output=True)  # as the user would
    after = json.loads(cli("doctor", ws, "-f", "json").stdout)["diagnostics"]
    # what is left is advice for later (GIT006: add the origin before submitting), nothing to fix now
    assert [d for d in after if d["severity"] != "info"] == [], after


def test_with_git_the_next_steps_do_not_say_git_init(tmp_path):
    result = cli("init", tmp_path / "ws", "--defaults")
    assert result.exit_code == 0 and not any(s.startswith("git init") for s in steps(result.output))


def test_force_leaves_the_users_files_out_of_the_first_commit_and_says_so(tmp_path):
    target = tmp_path / "mine"
    (target / "notes").mkdir(parents=True)
    (target / "notes" / "plan.md").write_text("my plan\n")
    (target / "keys.txt").write_text("sk-my-secret\n")
    result = cli("init", target, "--defaults", "--force")
    assert result.exit_code == 0, result.output
    committed = subprocess.run(["git", "ls-files"], cwd=target, capture_output=True, text=True, check=True).stdout.split()
    assert "keys.txt" not in committed and "notes/plan.md" not in committed
    assert "rollouts/multiply/main.py" in committed and "AGENTS.md" in committed
    status = subprocess.run(["git", "status", "--porcelain"], cwd=target, capture_output=True, text=True, check=True).stdout
    assert sorted(status.splitlines()) == ["?? keys.txt", "?? notes/"]
    assert "your 2 existing file(s) are not in it" in result.output
    assert any(s.startswith("git status") for s in steps(result.output))


def test_force_into_an_empty_folder_commits_everything_and_says_nothing_more(tmp_path):
    (tmp_path / "empty").mkdir()
    result = cli("init", tmp_path / "empty", "--defaults", "--force")
    assert result.exit_code == 0 and "git: created a repository with a first commit." in result.output
    status = subprocess.run(["git", "status", "--porcelain"], cwd=tmp_path / "empty", capture_output=True, text=True, check=True).stdout
    assert status == ""
