from __future__ import annotations

import sys
from pathlib import Path

import pytest

# The hand-built workspace lives beside the layout tests; share it rather than copy it.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "layout"))

from ws_builder import build_workspace  # noqa: E402


@pytest.fixture
def workspace(tmp_path):
    return build_workspace(tmp_path / "demo")
