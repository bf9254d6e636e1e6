"""Fixtures for tests/security: a git identity (commits work without a global one), no user git config."""

import pytest


@pytest.fixture(autouse=True)
def git_identity(monkeypatch, tmp_path_factory):
    for role in ("AUTHOR", "COMMITTER"):
        monkeypatch.setenv(f"GIT_{role}_NAME", "Security Tests")
        monkeypatch.setenv(f"GIT_{role}_EMAIL", "security@example.invalid")
