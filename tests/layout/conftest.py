from __future__ import annotations

import pytest
from ws_builder import build_workspace


@pytest.fixture
def workspace(tmp_path):
    """A fresh, valid hand-built workspace (see ws_builder)."""
    return build_workspace(tmp_path / "demo")
