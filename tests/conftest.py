"""Shared fixtures: the SDK test double on sys.path, and a freshly initialised workspace."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

SDK_DOUBLE = Path(__file__).resolve().parent / "sdk_double"
_DOUBLE_PACKAGES = ("osmosis_ai", "agents", "strands", "harbor", "strands_tools")


def _forget_double_modules() -> None:
    for mod in list(sys.modules):
        if mod.split(".")[0] in _DOUBLE_PACKAGES:
            del sys.modules[mod]


@pytest.fixture
def sdk_double(monkeypatch):
    """Put the TEST DOUBLE of osmosis-ai (and of `agents`, `strands`) on sys.path; yields its control module.

    Everything is removed again afterwards, so no other test sees the double by accident. The path goes
    through monkeypatch: a test's own monkeypatch.syspath_prepend restores the sys.path it first saw,
    which would otherwise bring the double back after this fixture removed it.
    """
    monkeypatch.syspath_prepend(str(SDK_DOUBLE))
    _forget_double_modules()
    from osmosis_ai import _double

    _double.reset()
    try:
        yield _double
    finally:
        _double.reset()
        _forget_double_modules()


@pytest.fixture
def make_workspace(tmp_path):
    """Factory: ``make_workspace(template="multiply", name="demo", git=True, data=())`` runs
    `osmosis init --defaults` through the CLI into ``tmp_path/<name>`` and returns that path."""
    from typer.testing import CliRunner

    from generator.cli import app

    def make(template: str = "multiply", name: str = "demo", git: bool = True, data: tuple[str, ...] = ()) -> Path:
        target = tmp_path / name
        args = ["init", str(target), "--template", template, "--defaults", "--data", f"workspace_name={name}"]
        for item in data:
            args += ["--data", item]
        if not git:
            args.append("--no-git")
        result = CliRunner().invoke(app, args)
        assert result.exit_code == 0, result.output
        return target

    return make
