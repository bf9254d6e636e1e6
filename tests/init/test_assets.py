"""osmosis_workspace.core.assets: skills, Claude links and schemas are idempotent and never overwrite silently."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from osmosis_workspace.core import assets, resources
from osmosis_workspace.core.schemas import KINDS, schema_bytes


@pytest.fixture
def bundle(tmp_path, monkeypatch):
    """A stand-in skills bundle (the real one is written by another engineer and may change)."""
    skills = tmp_path / "bundle"
    for name in ("plan-training", "debug-rollouts"):
        (skills / name / "references").mkdir(parents=True)
        (skills / name / "SKILL.md").write_text(f"---\nname: {name}\ndescription: d\n---\nbody\n")
        (skills / name / "references" / "notes.md").write_text("notes\n")
    monkeypatch.setattr(resources, "skills_dir", lambda: skills)
    return skills


def test_install_skills_copies_the_bundle_and_is_idempotent(tmp_path, bundle):
    ws = tmp_path / "ws"
    ws.mkdir()
    first = assets.install_skills(ws)
    assert sorted(first.created) == [
        ".agents/skills/debug-rollouts/SKILL.md", ".agents/skills/debug-rollouts/references/notes.md",
        ".agents/skills/plan-training/SKILL.md", ".agents/skills/plan-training/references/notes.md",
    ]
    assert (ws / ".agents/skills/plan-training/SKILL.md").read_bytes() == (bundle / "plan-training/SKILL.md").read_bytes()
    second = assets.install_skills(ws)
    assert second.changed == [] and len(second.unchanged) == 4


def test_install_skills_keeps_user_edits_unless_overwrite(tmp_path, bundle):
    ws = tmp_path / "ws"
    assets.install_skills(ws)
    edited = ws / ".agents/skills/plan-training/SKILL.md"
    edited.write_text("my edits\n")
    kept = assets.install_skills(ws)
    assert kept.skipped == [".agents/skills/plan-training/SKILL.md"]
    assert edited.read_text() == "my edits\n"
    forced = assets.install_skills(ws, overwrite=True)
    assert forced.updated == [".agents/skills/plan-training/SKILL.md"]
    assert edited.read_bytes() == (bundle / "plan-training/SKILL.md").read_bytes()
    only = assets.install_skills(tmp_path / "other", names=["debug-rollouts"])
    assert all("debug-rollouts" in p for p in only.created)
    with pytest.raises(FileNotFoundError):
        assets.install_skills(ws, names=["no-such-skill"])


def test_install_skills_never_writes_through_an_outside_link(tmp_path, bundle):
    outside = tmp_path / "outside"
    outside.mkdir()
    ws = tmp_path / "ws"
    (ws / ".agents").mkdir(parents=True)
    (ws / ".agents" / "skills").symlink_to(outside, target_is_directory=True)
    report = assets.install_skills(ws)
    assert report.created == [] and len(report.skipped) == 4
    assert list(outside.iterdir()) == []


def test_claude_links_are_relative_and_resolve(tmp_path, bundle):
    ws = tmp_path / "ws"
    assets.install_skills(ws)
    report = assets.link_claude_skills(ws)
    assert report.created == [".claude/skills/debug-rollouts", ".claude/skills/plan-training"]
    link = ws / ".claude/skills/plan-training"
    assert link.is_symlink() and os.readlink(link) == "../../.agents/skills/plan-training"
    assert (link / "SKILL.md").read_text().startswith("---\nname: plan-training")
    again = assets.link_claude_skills(ws)
    assert again.changed == [] and len(again.unchanged) == 2


def test_claude_links_leave_user_things_alone(tmp_path, bundle):
    ws = tmp_path / "ws"
    assets.install_skills(ws)
    (ws / ".claude/skills").mkdir(parents=True)
    (ws / ".claude/skills/plan-training").mkdir()  # a real folder the user made
    os.symlink("/somewhere/else", ws / ".claude/skills/debug-rollouts")
    report = assets.link_claude_skills(ws)
    assert sorted(report.skipped) == [".claude/skills/debug-rollouts", ".claude/skills/plan-training"]
    forced = assets.link_claude_skills(ws, overwrite=True)
    assert forced.updated == [".claude/skills/debug-rollouts"]  # a wrong link is replaced
    assert forced.skipped == [".claude/skills/plan-training"]  # a real folder never is
    assert os.readlink(ws / ".claude/skills/debug-rollouts") == "../../.agents/skills/debug-rollouts"
    assert assets.link_claude_skills(tmp_path / "empty").created == []


def test_write_schemas_matches_osmosis_schema_and_keeps_edits(tmp_path):
    ws = tmp_path / "ws"
    report = assets.write_schemas(ws)
    assert sorted(report.created) == sorted(f".osmosis/schemas/{k}.schema.json" for k in KINDS)
    for kind in KINDS:
        assert (ws / f".osmosis/schemas/{kind}.schema.json").read_bytes() == schema_bytes(kind)
    assert assets.write_schemas(ws).changed == []
    (ws / ".osmosis/schemas/eval.schema.json").write_text("{}")
    assert assets.write_schemas(ws).skipped == [".osmosis/schemas/eval.schema.json"]
    assert assets.write_schemas(ws, overwrite=True).updated == [".osmosis/schemas/eval.schema.json"]
    assert (ws / ".osmosis/schemas/eval.schema.json").read_bytes() == schema_bytes("eval")
    assert not list(ws.rglob("*.osmosis-tmp"))


def test_init_installs_and_links_every_bundled_skill(make_workspace, bundle):
    ws = make_workspace(git=False)
    assert sorted(p.name for p in (ws / ".agents/skills").iterdir()) == ["debug-rollouts", "plan-training"]
    for name in ("debug-rollouts", "plan-training"):
        assert (ws / ".agents/skills" / name / "references/notes.md").is_file()
        assert os.readlink(ws / ".claude/skills" / name) == f"../../.agents/skills/{name}"
        assert (ws / ".claude/skills" / name / "SKILL.md").is_file()


def test_init_copies_whatever_the_real_bundle_holds(make_workspace):
    ws = make_workspace(git=False)
    bundled = sorted(p.name for p in resources.skills_dir().iterdir() if p.is_dir())
    agents = ws / ".agents/skills"
    installed = sorted(p.name for p in agents.iterdir()) if agents.is_dir() else []
    assert installed == bundled
