"""Layout checks: a fresh workspace is clean; each way of breaking it gives exactly its finding."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner
from tests.workspace_builder import build_workspace, write

from osmosis_workspace.check.families import run_workspace_checks
from osmosis_workspace.cli import app
from osmosis_workspace.core.schemas import schema_bytes
from osmosis_workspace.core.workspace import Workspace


def layout(root: Path) -> list[tuple]:
    found = run_workspace_checks(Workspace(root), {"layout"})
    return [(d.code, d.path, d.line, d.column) for d in found]


def only(root: Path):
    found = run_workspace_checks(Workspace(root), {"layout"})
    assert len(found) == 1, found
    return found[0]


def test_fresh_workspace_is_clean(workspace):
    assert layout(workspace) == []


@pytest.mark.parametrize("folder", ["rollouts", "configs/eval", "configs/training", "data"])
def test_missing_required_folder(workspace, folder):
    import shutil

    shutil.rmtree(workspace / folder)
    if folder == "rollouts":  # keep it a workspace: configs/ still marks the root
        assert (workspace / "configs").is_dir()
    d = only(workspace)
    assert (d.code, d.path, d.line, d.severity.value, d.fixable) == ("LAY001", folder, None, "error", True)
    assert folder in d.message


def test_required_folder_that_is_a_file_is_not_fixable(workspace):
    import shutil

    shutil.rmtree(workspace / "data")
    write(workspace / "data", "not a folder")
    d = only(workspace)
    assert (d.code, d.path, d.fixable) == ("LAY001", "data", False)
    assert "is a file" in d.message


@pytest.mark.parametrize("rel", ["AGENTS.md", "CLAUDE.md", "configs/AGENTS.md"])
def test_missing_agent_file(workspace, rel):
    (workspace / rel).unlink()
    d = only(workspace)
    assert (d.code, d.path, d.fixable) == ("LAY002", rel, True)


def test_every_missing_item_is_its_own_finding(workspace):
    for rel in ("AGENTS.md", "CLAUDE.md"):
        (workspace / rel).unlink()
    import shutil

    shutil.rmtree(workspace / "data")
    assert sorted(layout(workspace)) == [
        ("LAY001", "data", None, None),
        ("LAY002", "AGENTS.md", None, None),
        ("LAY002", "CLAUDE.md", None, None),
    ]


def test_missing_root_pyproject(workspace):
    (workspace / "pyproject.toml").unlink()
    d = only(workspace)
    assert (d.code, d.path) == ("LAY003", "pyproject.toml")


def test_missing_root_pyproject_and_folder_name_invalid(tmp_path):
    root = build_workspace(tmp_path / "My_Workspace")
    (root / "pyproject.toml").unlink()
    assert sorted(layout(root)) == [("LAY003", "pyproject.toml", None, None), ("LAY005", None, None, None)]


def test_invalid_root_pyproject_points_at_the_syntax_error(workspace):
    write(workspace / "pyproject.toml", '[project]\nname = "demo\n')
    d = only(workspace)
    assert (d.code, d.path, d.line) == ("LAY004", "pyproject.toml", 2)
    assert d.column is not None


def test_invalid_workspace_name_points_at_the_value(workspace):
    write(workspace / "pyproject.toml", '[project]\nname = "My_Workspace"\n')
    d = only(workspace)
    assert (d.code, d.path, d.line, d.column) == ("LAY005", "pyproject.toml", 2, 8)
    assert "My_Workspace" in d.message


def test_pyproject_name_wins_over_the_folder_name(tmp_path):
    root = build_workspace(tmp_path / "Not_A_Valid_Name", name="valid-name")
    assert layout(root) == []


def test_folder_name_is_used_when_pyproject_has_no_name(tmp_path):
    root = build_workspace(tmp_path / "-bad")
    write(root / "pyproject.toml", "[tool.osmosis]\nstrict = true\n")
    d = only(root)
    assert (d.code, d.path) == ("LAY005", None)
    assert "folder name" in d.message


@pytest.mark.parametrize("bad", ["default", "Multiply", "two--hyphens", "9lives", "x" * 65])
def test_invalid_rollout_folder_name(workspace, bad):
    (workspace / "rollouts" / "multiply").rename(workspace / "rollouts" / bad)
    d = only(workspace)
    assert (d.code, d.path) == ("LAY006", f"rollouts/{bad}")


@pytest.mark.parametrize("bad", ["--no-probes", "-x", "-"])
def test_a_rollout_folder_named_like_an_option_is_one_finding_of_its_own(workspace, bad):
    (workspace / "rollouts" / "multiply").rename(workspace / "rollouts" / bad)
    d = only(workspace)   # LAY013 alone: LAY006's naming advice would be the same root cause twice
    assert (d.code, d.severity.value, d.path) == ("LAY013", "warning", f"rollouts/{bad}")
    assert repr(bad) in d.message and "option" in d.message


def test_not_inside_git(workspace):
    (workspace / ".git").rmdir()
    d = only(workspace)
    assert (d.code, d.severity.value, d.path) == ("LAY007", "error", None)


def test_workspace_in_a_subfolder_of_a_git_repository(tmp_path):
    root = build_workspace(tmp_path / "repo" / "ml" / "demo", git_dir=False)
    import subprocess

    subprocess.run(["git", "init", "-q", str(tmp_path / "repo")], check=True)
    assert layout(root) == []


def test_claude_md_must_point_at_agents_md(workspace):
    write(workspace / "CLAUDE.md", "# Notes\nBe careful.\n")
    d = only(workspace)
    assert (d.code, d.severity.value, d.path) == ("LAY008", "warning", "CLAUDE.md")


@pytest.mark.parametrize("text", ["@AGENTS.md\n", "@./AGENTS.md\n", "Read AGENTS.md first.\n", "# Rules\n\n(see AGENTS.md)\n"])
def test_claude_md_importing_or_mentioning_agents_md_is_enough(workspace, text):
    write(workspace / "CLAUDE.md", text)
    assert layout(workspace) == []


def test_claude_md_mentioning_only_configs_agents_md_does_not_count(workspace):
    write(workspace / "CLAUDE.md", "See configs/AGENTS.md for configs.\n")
    assert only(workspace).code == "LAY008"


def test_missing_schema(workspace):
    (workspace / ".osmosis/schemas/eval.schema.json").unlink()
    d = only(workspace)
    assert (d.code, d.path, d.severity.value, d.fixable) == ("LAY009", ".osmosis/schemas/eval.schema.json", "warning", True)
    assert "missing" in d.message


def test_stale_schema(workspace):
    path = workspace / ".osmosis/schemas/training.schema.json"
    path.write_bytes(path.read_bytes().replace(b'"type"', b'"type" ', 1))
    d = only(workspace)
    assert (d.code, d.path) == ("LAY009", ".osmosis/schemas/training.schema.json")
    assert "differs" in d.message


def test_schema_with_crlf_line_ends_is_not_stale(workspace):
    path = workspace / ".osmosis/schemas/dataset.schema.json"
    path.write_bytes(schema_bytes("dataset").replace(b"\n", b"\r\n"))
    assert layout(workspace) == []


def test_schema_symlinked_out_of_the_workspace_is_not_read(workspace, tmp_path):
    outside = tmp_path / "elsewhere.json"
    outside.write_bytes(schema_bytes("eval"))
    path = workspace / ".osmosis/schemas/eval.schema.json"
    path.unlink()
    path.symlink_to(outside)
    d = only(workspace)
    assert (d.code, d.path) == ("LAY009", ".osmosis/schemas/eval.schema.json")


def test_doctor_cli_reports_layout_findings_as_json(workspace):
    (workspace / "CLAUDE.md").unlink()
    result = CliRunner().invoke(app, ["doctor", str(workspace), "--format", "json", "--select", "LAY"])
    assert result.exit_code == 1, result.output
    report = json.loads(result.stdout)
    assert [(d["code"], d["path"], d["fixable"]) for d in report["diagnostics"]] == [("LAY002", "CLAUDE.md", True)]


def test_doctor_subprocess_clean_layout_exits_zero(workspace):
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    done = subprocess.run(
        [sys.executable, "-m", "osmosis_workspace", "doctor", str(workspace), "--select", "LAY"],
        capture_output=True, text=True, env=env, timeout=60,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Traceback" not in done.stderr


def test_doctor_fix_repairs_every_finding_marked_fixable(workspace):
    import shutil

    shutil.rmtree(workspace / "data")
    shutil.rmtree(workspace / "configs" / "training")
    for rel in ("AGENTS.md", "CLAUDE.md", "configs/AGENTS.md", ".osmosis/schemas/eval.schema.json"):
        (workspace / rel).unlink()
    stale = workspace / ".osmosis/schemas/dataset.schema.json"
    stale.write_bytes(b"{}")
    before = run_workspace_checks(Workspace(workspace), {"layout"})
    assert sorted({d.code for d in before}) == ["LAY001", "LAY002", "LAY009"]
    assert all(d.fixable for d in before)

    result = CliRunner().invoke(app, ["doctor", str(workspace), "--fix", "--select", "LAY"])
    assert result.exit_code == 0, result.output
    assert run_workspace_checks(Workspace(workspace), {"layout"}) == []


def test_required_folder_that_is_a_broken_link_is_not_fixable(workspace, tmp_path):
    import shutil

    shutil.rmtree(workspace / "data")
    (workspace / "data").symlink_to(tmp_path / "gone")
    d = only(workspace)
    assert (d.code, d.path, d.fixable) == ("LAY001", "data", False)
    assert "broken link" in d.message
