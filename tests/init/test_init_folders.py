"""The folders `osmosis init` makes (issue 12, points 6 and 7): missing parents are created, as
`uv init`, `cargo new` and `copier copy` do, and taken back on failure; the workspace folder gets
the mode the umask gives any new folder, not the staging folder's 0700."""

from __future__ import annotations

import os
import stat

import pytest
from typer.testing import CliRunner

import osmosis_workspace.scaffold.render
from osmosis_workspace.cli import app


def init(*args):
    return CliRunner().invoke(app, ["init", *map(str, args), "--defaults", "--no-git"])


@pytest.fixture
def umask():
    def set_mask(mask: int) -> None:
        os.umask(mask)

    old = os.umask(0o022)
    yield set_mask
    os.umask(old)


def mode(path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_missing_parents_are_created(tmp_path, umask):
    umask(0o022)
    result = init(tmp_path / "a" / "b" / "c")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "a/b/c/rollouts/multiply/main.py").is_file()
    assert mode(tmp_path / "a") == mode(tmp_path / "a/b") == 0o755


@pytest.mark.parametrize(("mask", "expected"), [(0o022, 0o755), (0o027, 0o750), (0o002, 0o775)])
def test_the_workspace_folder_follows_the_umask(tmp_path, umask, mask, expected):
    umask(mask)
    assert init(tmp_path / "ws").exit_code == 0
    assert mode(tmp_path / "ws") == expected
    assert mode(tmp_path / "ws" / "rollouts") == expected  # as every other folder init makes


def test_a_failed_init_takes_back_the_parents_it_made(tmp_path, monkeypatch):
    (tmp_path / "a").mkdir()  # the user's: stays

    def fail(*args, **kwargs):
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(osmosis_workspace.scaffold.render, "render", fail)
    result = init(tmp_path / "a" / "b" / "c" / "ws")
    assert result.exit_code != 0
    assert list(tmp_path.iterdir()) == [tmp_path / "a"] and list((tmp_path / "a").iterdir()) == []
