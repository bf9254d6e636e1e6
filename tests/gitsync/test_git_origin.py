"""Issue 20, point 3: the `origin` that `eval submit` / `train submit` need (GIT006, GIT007).

Each URL verdict below is osmosis-ai 0.3.8's own (platform/cli/workspace_repo.py
normalize_git_identity, run on these strings when the cases were written); the repositories are
real git repositories whose config git itself wrote.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from osmosis_workspace.check.families import run_workspace_checks
from osmosis_workspace.check.families.git_origin import github_problem, parse_remotes, rewrite
from osmosis_workspace.cli import app
from osmosis_workspace.core.workspace import Workspace


def git(root: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=root, check=True, capture_output=True)


def origin_findings(root: Path) -> list[tuple[str, str]]:
    return [(d.code, d.severity.value) for d in run_workspace_checks(Workspace(root), {"git"}) if d.code in ("GIT006", "GIT007", "GIT009")]


ACCEPTED = [
    "https://github.com/owner/repo.git", "https://github.com/owner/repo", "git@github.com:owner/repo.git",
    "ssh://git@github.com/owner/repo.git", "https://GitHub.com/Owner/Repo.git", "https://x-token@github.com/o/r.git",
]
REFUSED = [
    "https://gitlab.com/owner/repo.git", "/srv/git/repo.git", "https://github.com/owner/repo/extra",
    "https://github.com/owner", "https://github.com/owner%2Frepo", "git@example.com:owner/repo.git",
    "https://github.com/own er/repo", "https://github.com/-owner/repo",
]


@pytest.mark.parametrize("url", ACCEPTED)
def test_urls_submit_accepts(url):
    assert github_problem(url) is None


@pytest.mark.parametrize("url", REFUSED)
def test_urls_submit_refuses(url):
    assert github_problem(url)


def test_config_parsing_and_insteadof():
    text = '[core]\n\tbare = false\n[remote "origin"]\n\turl = gh:me/repo ; a comment\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n' \
           '[url "git@github.com:"]\n\tinsteadOf = gh:\n'
    remotes, rewrites = parse_remotes(text)
    assert remotes == {"origin": "gh:me/repo"}
    assert rewrite(remotes["origin"], rewrites) == "git@github.com:me/repo"


def test_no_remote_is_an_info_remotes_without_origin_an_error(repo):
    assert origin_findings(repo) == [("GIT009", "info")]   # one code per severity: GIT006 is always an error
    git(repo, "remote", "add", "upstream", "https://github.com/owner/repo.git")
    assert origin_findings(repo) == [("GIT006", "error")]
    git(repo, "remote", "rename", "upstream", "origin")
    assert origin_findings(repo) == []


def test_origin_not_on_github_is_an_error(repo):
    git(repo, "remote", "add", "origin", "https://gitlab.com/owner/repo.git")
    assert origin_findings(repo) == [("GIT007", "error")]
    git(repo, "config", "url.https://github.com/.insteadOf", "https://gitlab.com/")  # as `git remote get-url` rewrites
    assert origin_findings(repo) == []


def test_credentials_in_origin_are_not_repeated(repo):
    git(repo, "remote", "add", "origin", "https://me:secret-token@gitlab.com/owner/repo.git")
    [d] = [d for d in run_workspace_checks(Workspace(repo), {"git"}) if d.code == "GIT007"]
    assert "secret-token" not in d.message


def test_a_worktree_reads_the_common_config(tmp_path, repo):
    git(repo, "remote", "add", "origin", "https://gitlab.com/owner/repo.git")
    tree = tmp_path / "tree"
    git(repo, "worktree", "add", "-q", str(tree), "-b", "other")
    assert (tree / ".git").is_file()
    assert origin_findings(tree) == [("GIT007", "error")]


def test_select_git_is_the_pushed_check(repo):
    """What the skills call the 'pushed' check catches a wrong origin and fails."""
    git(repo, "remote", "add", "origin", "git@gitlab.com:owner/repo.git")
    result = CliRunner().invoke(app, ["doctor", str(repo), "--select", "GIT", "--format", "json"])
    assert result.exit_code == 1
    assert [d["code"] for d in json.loads(result.stdout)["diagnostics"]] == ["GIT007", "GIT008"]   # and never pushed
