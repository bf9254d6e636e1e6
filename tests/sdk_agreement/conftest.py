"""Fixtures for the tests that hold doctor to the real SDK's verdicts (issue 10)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from osmosis_workspace.cli import app

TEMPLATE = Path(__file__).resolve().parents[1] / "cases" / "workspace_template"
GIT_ENV = {
    "GIT_AUTHOR_NAME": "Test", "GIT_AUTHOR_EMAIL": "test@example.com",
    "GIT_COMMITTER_NAME": "Test", "GIT_COMMITTER_EMAIL": "test@example.com",
}  # fmt: skip


def git(root: Path, *args: str) -> str:
    import os

    env = {**os.environ, **GIT_ENV}
    return subprocess.run(["git", *args], cwd=root, env=env, check=True, capture_output=True, text=True).stdout


def commit_all(root: Path, message: str = "work") -> None:
    git(root, "add", "-A")
    git(root, "commit", "-q", "--allow-empty", "-m", message)


@pytest.fixture
def platform_template(tmp_path: Path) -> Path:
    """A committed git copy of tests/cases/workspace_template (the platform's workspace template)."""
    root = tmp_path / "workspace-template"
    shutil.copytree(TEMPLATE, root, symlinks=True)
    git(root, "init", "-q", "-b", "main")
    git(root, "remote", "add", "origin", "https://github.com/Osmosis-AI/workspace-template.git")  # a clone has it
    git(root, "add", "-f", ".osmosis")  # its update policy is tracked although .gitignore names .osmosis/**
    commit_all(root, "template")
    # and a clone's remote-tracking branch with HEAD on it (a clone never pushed would be GIT008)
    git(root, "update-ref", "refs/remotes/origin/main", "HEAD")
    git(root, "branch", "-q", "--set-upstream-to=origin/main", "main")
    return root


def run_json(*args: str) -> tuple[int, list[dict]]:
    """`osmosis <args> --format json`: the exit code and the diagnostics."""
    result = CliRunner().invoke(app, [*args, "--format", "json"])
    assert result.exit_code in (0, 1), result.output
    return result.exit_code, json.loads(result.stdout)["diagnostics"]


def codes(diagnostics: list[dict]) -> list[str]:
    return sorted(d["code"] for d in diagnostics)
