"""Fixtures for tests/lifecycle: a git identity for every test (commits work without a global one)."""

import pytest


@pytest.fixture(autouse=True)
def git_identity(monkeypatch):
    for role in ("AUTHOR", "COMMITTER"):
        monkeypatch.setenv(f"GIT_{role}_NAME", "Lifecycle Tests")
        monkeypatch.setenv(f"GIT_{role}_EMAIL", "lifecycle@example.invalid")
