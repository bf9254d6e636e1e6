"""GIT008: `origin` is set, and no branch of it this clone knows holds HEAD. Real repositories: a bare
repository on disk is `origin`, pushed to with git itself; doctor reads refs only (no fetch)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from tests.workspace_builder import git, write

from osmosis_workspace.check.families import run_workspace_checks
from osmosis_workspace.core.workspace import Workspace


def git_codes(root: Path) -> list[tuple[str, str]]:
    return [(d.code, d.severity.value) for d in run_workspace_checks(Workspace(root), {"git"})]


@pytest.fixture
def remote(tmp_path, repo) -> Path:
    bare = tmp_path / "remote.git"
    subprocess.run(["git", "init", "-q", "--bare", str(bare)], check=True)
    # a local path, not github.com: GIT007 is another rule's finding, left out here by code
    git(repo, "remote", "add", "origin", str(bare))
    return bare


def _not_origin_url(found):
    return [f for f in found if f[0] != "GIT007"]


def test_pushed_is_silent(repo, remote):
    git(repo, "push", "-q", "-u", "origin", "HEAD")
    assert _not_origin_url(git_codes(repo)) == []


def test_pushed_without_an_upstream_is_silent_too(repo, remote):
    git(repo, "push", "-q", "origin", "HEAD")     # no -u: origin/main still holds HEAD
    assert _not_origin_url(git_codes(repo)) == []


def test_never_pushed_is_a_warning(repo, remote):
    found = run_workspace_checks(Workspace(repo), {"git"})
    [d] = [f for f in found if f.code != "GIT007"]
    assert (d.code, d.severity.value) == ("GIT008", "warning")
    assert "not pushed: origin has no branch yet" in d.message and "older code" in d.message


def test_a_commit_after_the_push_is_a_warning(repo, remote):
    git(repo, "push", "-q", "-u", "origin", "HEAD")
    main = repo / "rollouts" / "multiply" / "main.py"
    main.write_text(main.read_text() + "\n# edited\n")
    git(repo, "commit", "-qam", "edit rollout")
    # with an upstream behind HEAD, GIT005 names the unpushed commits: one finding, not two
    assert _not_origin_url(git_codes(repo)) == [("GIT005", "warning")]


def test_a_commit_after_a_push_without_upstream_is_a_warning(repo, remote):
    git(repo, "push", "-q", "origin", "HEAD")     # origin/main, no upstream
    write(repo / "README.md", "notes\n")
    git(repo, "add", "README.md")
    git(repo, "commit", "-qm", "docs")
    assert _not_origin_url(git_codes(repo)) == []   # nothing a run uses changed: as GIT005 counts
    main = repo / "rollouts" / "multiply" / "main.py"
    main.write_text(main.read_text() + "\n# edited\n")
    git(repo, "commit", "-qam", "edit rollout")
    found = [f for f in run_workspace_checks(Workspace(repo), {"git"}) if f.code != "GIT007"]
    assert [f.code for f in found] == ["GIT008"] and "1 commit touching what runs use is on no branch of origin" in found[0].message


def test_no_origin_no_warning(repo):
    assert "GIT008" not in [c for c, _ in git_codes(repo)]
