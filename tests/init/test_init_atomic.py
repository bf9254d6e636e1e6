"""A failure or Ctrl-C at any point of `osmosis init` leaves nothing half-written."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

import osmosis_workspace.core.assets
import osmosis_workspace.scaffold.render
from osmosis_workspace.cli import app
from osmosis_workspace.core.errors import UserError
from osmosis_workspace.scaffold.init_workspace import init_command


def run_init(target: Path, **overrides):
    args = dict(path=target, template="multiply", defaults=True, data=[], here=False, force=False, no_git=True, trust=False)
    args.update(overrides)
    return init_command(**args)


def snapshot(folder: Path) -> dict[str, bytes | None]:
    return {p.relative_to(folder).as_posix(): (p.read_bytes() if p.is_file() else None) for p in sorted(folder.rglob("*"))}


def test_rendering_failure_midway_leaves_nothing(tmp_path, monkeypatch):
    real_render = osmosis_workspace.scaffold.render.render
    calls = []

    def render_then_fail(src, dst, **kwargs):
        calls.append(src.name)
        if len(calls) == 2:  # the workspace template is rendered; the rollout template fails half-way
            (dst / "rollouts").mkdir(exist_ok=True)
            (dst / "rollouts" / "partial.py").write_text("half")
            raise RuntimeError("disk on fire")
        return real_render(src, dst, **kwargs)

    monkeypatch.setattr(osmosis_workspace.scaffold.render, "render", render_then_fail)
    with pytest.raises(RuntimeError, match="disk on fire"):
        run_init(tmp_path / "ws")
    assert calls == ["workspace", "multiply"]
    assert list(tmp_path.iterdir()) == []  # neither the target nor the staging folder


def test_ctrl_c_while_adding_skills_leaves_nothing(tmp_path, monkeypatch):
    def interrupted(dest, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(osmosis_workspace.core.assets, "install_skills", interrupted)
    with pytest.raises(KeyboardInterrupt):
        run_init(tmp_path / "ws")
    assert list(tmp_path.iterdir()) == []


def test_failure_while_moving_into_an_existing_folder_is_undone(tmp_path, monkeypatch):
    target = tmp_path / "ws"
    (target / "configs").mkdir(parents=True)
    (target / "configs" / "mine.toml").write_text("x = 1\n")
    (target / "README.md").write_text("mine\n")
    before = snapshot(target)
    real_replace = os.replace
    moved_into_target = []

    def flaky_replace(src, dst, *args, **kwargs):
        if Path(dst).is_relative_to(target):
            moved_into_target.append(dst)
            if len(moved_into_target) == 6:
                raise OSError("device full")
        return real_replace(src, dst, *args, **kwargs)

    monkeypatch.setattr(os, "replace", flaky_replace)
    with pytest.raises(UserError, match="device full"):  # a full disk is the user's to fix: exit 2
        run_init(target, force=True)
    assert len(moved_into_target) == 6  # five files had really been moved before the failure
    assert snapshot(target) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ws"]


def test_copier_rejecting_an_answer_exits_2_and_leaves_nothing(tmp_path):
    result = CliRunner().invoke(app, ["init", str(tmp_path / "ws"), "--defaults", "--data", "model_path=has space"])
    assert result.exit_code == 2
    assert "model_path" in result.output and "without spaces" in result.output
    assert list(tmp_path.iterdir()) == []
