from __future__ import annotations

import sys
from pathlib import Path

import pytest


from tests.workspace_builder import GIT_ENV, build_workspace, git_init  # noqa: E402


@pytest.fixture(autouse=True)
def git_identity(monkeypatch):
    """Commits must work with no global git identity."""
    for key, value in GIT_ENV.items():
        monkeypatch.setenv(key, value)


@pytest.fixture
def repo(tmp_path):
    """A valid workspace that is a git repository (branch main) with everything committed."""
    return git_init(build_workspace(tmp_path / "demo", git_dir=False))
