from __future__ import annotations

import pytest
from tests.workspace_builder import build_workspace


@pytest.fixture
def workspace(tmp_path):
    """A fresh, valid hand-built workspace (see tests/workspace_builder.py)."""
    return build_workspace(tmp_path / "demo")
