"""`osmosis doctor --fix` over real workspaces: each fixable breakage is repaired, and nothing else
in the tree changes (hashes before and after)."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from osmosis_workspace.cli import app


def tree(root: Path) -> dict[str, str]:
    """Every file and link under root (not .git) -> a hash of its content or link target."""
    out = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if rel == ".git" or rel.startswith(".git/"):
            continue
        if path.is_symlink():
            out[rel] = "link:" + os.readlink(path)
        elif path.is_file():
            out[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
        elif path.is_dir():
            out[rel] = "dir"
    return out


def fix(root: Path, *args: str):
    return CliRunner().invoke(app, ["doctor", str(root), "--fix", *args])


@pytest.fixture
def ws(make_workspace) -> Path:
    return make_workspace()


def test_fresh_workspace_needs_no_fixes(ws):
    before = tree(ws)
    result = fix(ws)
    assert result.exit_code == 0, result.output
    assert "fixed:" not in result.stdout
    assert tree(ws) == before


@pytest.mark.parametrize("rel", ["AGENTS.md", "CLAUDE.md", "configs/AGENTS.md"])
def test_missing_root_files_are_restored_exactly(ws, rel):
    before = tree(ws)
    (ws / rel).unlink()
    result = fix(ws)
    assert f"fixed: restored {rel} from the workspace template" in result.stdout
    assert tree(ws) == before  # byte-identical to what init rendered, nothing else touched
    assert result.exit_code == 0, result.output


def test_missing_folders_are_created(ws):
    shutil.rmtree(ws / "data")
    before = tree(ws)
    result = fix(ws, "-f", "json")
    data = json.loads(result.stdout)
    assert "created folder data/" in data["fixes"]
    after = tree(ws)
    assert after.pop("data") == "dir"
    assert after == before
    # The configs name the platform dataset "multiply", not a file under data/: with the folder back,
    # nothing a run uses is missing (the sample file is only the upload's source).
    assert result.exit_code == 0 and data["ok"] is True and data["diagnostics"] == [], data["diagnostics"]


def test_a_local_dataset_a_config_names_is_still_missing_after_the_folder_is_created(ws):
    config = ws / "configs" / "eval" / "multiply.toml"
    config.write_text(config.read_text(encoding="utf-8").replace('dataset = "multiply"', 'dataset = "data/multiply.jsonl"'),
                      encoding="utf-8")
    shutil.rmtree(ws / "data")
    data = json.loads(fix(ws, "-f", "json").stdout)
    assert "created folder data/" in data["fixes"]
    # --fix creates folders, never data: doctor says the file is gone, at the config that names it
    assert ("CFG019", "configs/eval/multiply.toml") in [(d["code"], d["path"]) for d in data["diagnostics"]]
    assert data["ok"] is False


def test_schemas_are_rewritten_and_refreshed(ws):
    before = tree(ws)
    schemas = ws / ".osmosis" / "schemas"
    (schemas / "eval.schema.json").unlink()
    (schemas / "training.schema.json").write_text("{}", encoding="utf-8")
    result = fix(ws)
    assert "fixed: wrote .osmosis/schemas/eval.schema.json" in result.stdout
    assert "fixed: refreshed .osmosis/schemas/training.schema.json" in result.stdout
    assert tree(ws) == before


def test_skills_and_their_links_are_restored(ws):
    skills = sorted(p.name for p in (ws / ".agents" / "skills").iterdir())
    assert skills, "the workspace should carry the bundled skills"
    name = skills[0]
    before = tree(ws)
    (ws / ".agents" / "skills" / name / "SKILL.md").unlink()
    (ws / ".claude" / "skills" / skills[-1]).unlink()
    result = fix(ws)
    assert f"of skill .agents/skills/{name}/ from the bundle" in result.stdout
    assert f"fixed: linked .claude/skills/{skills[-1]} -> ../../.agents/skills/{skills[-1]}" in result.stdout
    assert tree(ws) == before


def test_a_broken_skill_link_is_repaired(ws):
    link = sorted((ws / ".claude" / "skills").iterdir())[0]
    before = tree(ws)
    link.unlink()
    link.symlink_to(Path("..", "..", ".agents", "skills", "nowhere"), target_is_directory=True)
    result = fix(ws)
    assert f"fixed: repaired broken link .claude/skills/{link.name}" in result.stdout
    assert tree(ws) == before


def test_an_absolute_skill_link_is_made_relative(ws):
    link = sorted((ws / ".claude" / "skills").iterdir())[0]
    before = tree(ws)
    link.unlink()
    link.symlink_to((ws / ".agents" / "skills" / link.name).resolve(), target_is_directory=True)
    result = fix(ws)
    assert f"fixed: made relative the absolute link .claude/skills/{link.name}" in result.stdout
    assert tree(ws) == before


def test_user_files_are_never_overwritten(ws):
    (ws / "AGENTS.md").write_text("# my own rules\n", encoding="utf-8")
    link = sorted((ws / ".claude" / "skills").iterdir())[0]
    link.unlink()
    link.mkdir()  # the user's own folder where the link would be
    (link / "notes.md").write_text("mine", encoding="utf-8")
    before = tree(ws)
    result = fix(ws)
    assert tree(ws) == before
    assert "fixed:" not in result.stdout


def test_fix_never_writes_through_a_link_out_of_the_workspace(ws, tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    shutil.rmtree(ws / ".osmosis")
    (ws / ".osmosis").symlink_to(outside, target_is_directory=True)
    fix(ws)
    assert list(outside.iterdir()) == []
