"""Fixtures for the integration tests (helpers they import live in integration_helpers.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def osmosis_bin(tmp_path_factory) -> Path:
    """A folder holding an `osmosis` executable that runs this checkout (whatever else is installed),
    as the console script would: for tests of things that call `osmosis` by name."""
    bindir = tmp_path_factory.mktemp("bin")
    script = bindir / "osmosis"
    script.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m osmosis_workspace "$@"\n', encoding="utf-8")
    script.chmod(0o755)
    return bindir
