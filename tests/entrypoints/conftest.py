from __future__ import annotations

import sys
from pathlib import Path

import pytest


from tests.workspace_builder import build_workspace  # noqa: E402


@pytest.fixture
def workspace(tmp_path):
    return build_workspace(tmp_path / "demo")
