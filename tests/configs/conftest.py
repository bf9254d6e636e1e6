"""Fixtures for the config tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from config_workspace import build_workspace


@pytest.fixture
def config_ws(tmp_path: Path) -> Path:
    return build_workspace(tmp_path / "ws")
