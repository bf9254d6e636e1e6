"""The workspace side of the skills family: bundled skills present and the .claude/skills links."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from osmosis_workspace.core.assets import install_skills, link_claude_skills
from osmosis_workspace.check.families import run_workspace_checks
from osmosis_workspace.cli import app
from osmosis_workspace.core.resources import SKILL_NAMES
from osmosis_workspace.core.workspace import Workspace


@pytest.fixture
def ws_root(tmp_path: Path) -> Path:
    """A bare workspace: the folders that make it one, the bundled skills, and their Claude links."""
    root = tmp_path / "ws"
    for folder in ("rollouts", "configs/eval", "configs/training", "data"):
        (root / folder).mkdir(parents=True)
    install_skills(root)
    link_claude_skills(root)
    return root


def _skills_findings(root: Path):
    return run_workspace_checks(Workspace.at(root), {"skills"})


def _by_code(root: Path) -> dict[str, list]:
    found: dict[str, list] = {}
    for d in _skills_findings(root):
        found.setdefault(d.code, []).append(d)
    return found


def test_fresh_workspace_has_no_skill_findings(ws_root):
    assert _skills_findings(ws_root) == []


def test_missing_link_is_fixable(ws_root):
    (ws_root / ".claude/skills/plan-training").unlink()
    [finding] = _skills_findings(ws_root)
    assert (finding.code, finding.path, finding.fixable) == ("SKL028", ".claude/skills/plan-training", True)


def test_absolute_link_to_the_right_skill(ws_root):
    link = ws_root / ".claude/skills/debug-rollouts"
    link.unlink()
    link.symlink_to((ws_root / ".agents/skills/debug-rollouts").resolve(), target_is_directory=True)
    [finding] = _skills_findings(ws_root)
    assert (finding.code, finding.fixable) == ("SKL029", True)


def test_broken_link_is_fixable_when_the_skill_exists(ws_root):
    link = ws_root / ".claude/skills/create-rollouts"
    link.unlink()
    link.symlink_to("../../.agents/skills/create-rollout", target_is_directory=True)  # typo
    [finding] = _skills_findings(ws_root)
    assert (finding.code, finding.fixable) == ("SKL030", True)


def test_broken_link_of_an_unknown_skill_is_not_fixable(ws_root):
    (ws_root / ".claude/skills/gone").symlink_to("../../.agents/skills/gone", target_is_directory=True)
    [finding] = _skills_findings(ws_root)
    assert (finding.code, finding.fixable) == ("SKL030", False)
    assert "remove" in finding.hint


def test_link_to_another_skill_is_wrong_target(ws_root):
    link = ws_root / ".claude/skills/plan-training"
    link.unlink()
    link.symlink_to("../../.agents/skills/submit-training", target_is_directory=True)
    [finding] = _skills_findings(ws_root)
    assert (finding.code, finding.fixable) == ("SKL031", False)


def test_copied_folder_instead_of_link(ws_root):
    link = ws_root / ".claude/skills/evaluate-rollouts"
    link.unlink()
    shutil.copytree(ws_root / ".agents/skills/evaluate-rollouts", link)
    [finding] = _skills_findings(ws_root)
    assert (finding.code, finding.severity.value) == ("SKL032", "warning")


def test_skill_only_under_claude_gets_a_move_hint(ws_root):
    only = ws_root / ".claude/skills/house-style"
    only.mkdir()
    (only / "SKILL.md").write_text("---\nname: house-style\ndescription: d\n---\n")
    [finding] = _skills_findings(ws_root)
    assert finding.code == "SKL032" and "git mv .claude/skills/house-style .agents/skills/house-style" in finding.hint


def test_links_leading_out_of_the_workspace(ws_root, tmp_path):
    outside = tmp_path / "outside-skill"
    outside.mkdir()
    (outside / "SKILL.md").write_text("---\nname: outside-skill\ndescription: d\n---\n")
    (ws_root / ".claude/skills/a").symlink_to(outside, target_is_directory=True)
    (ws_root / ".claude/skills/b").symlink_to("../../../outside-skill", target_is_directory=True)
    found = _by_code(ws_root)
    assert sorted(d.path for d in found.pop("SKL033")) == [".claude/skills/a", ".claude/skills/b"]
    assert found == {}


def test_skill_folder_linked_from_outside_is_reported_not_read(ws_root, tmp_path):
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "SKILL.md").write_text("not front matter")  # would be SKL004 if it were read
    (ws_root / ".agents/skills/elsewhere").symlink_to(outside, target_is_directory=True)
    found = _by_code(ws_root)
    assert [d.path for d in found.pop("SKL033")] == [".agents/skills/elsewhere"]
    assert set(found) <= {"SKL028", "SKL031"}  # its Claude link is judged separately
    assert "SKL004" not in found


def test_missing_bundled_skill_is_fixable_and_its_dangling_link_too(ws_root):
    (ws_root / ".copier-answers.yml").write_text("_src_path: workspace\n")  # our bundle applies once opted in
    shutil.rmtree(ws_root / ".agents/skills/debug-rollouts")
    found = _by_code(ws_root)
    [missing] = found.pop("SKL027")
    assert (missing.path, missing.fixable) == (".agents/skills/debug-rollouts", True)
    [dangling] = found.pop("SKL030")
    assert dangling.fixable  # restoring the bundled skill repairs it
    assert found == {}


def test_extra_skills_setting_requires_more_skills(ws_root):
    (ws_root / "pyproject.toml").write_text('[tool.osmosis]\nextra-skills = ["house-style"]\n')
    [finding] = _skills_findings(ws_root)
    assert (finding.code, finding.fixable) == ("SKL027", False)
    assert "extra-skills" in finding.message
    house = ws_root / ".agents/skills/house-style"
    house.mkdir()
    (house / "SKILL.md").write_text("---\nname: house-style\ndescription: Our conventions. Use always.\n---\n")
    assert [d.code for d in _skills_findings(ws_root)] == ["SKL028"]  # now it only needs its link


def test_broken_skill_md_in_workspace_points_into_the_file(ws_root):
    skill_md = ws_root / ".agents/skills/plan-training/SKILL.md"
    skill_md.write_text(skill_md.read_text().replace("name: plan-training", "name: plan"))
    [finding] = _skills_findings(ws_root)
    assert (finding.code, finding.path, finding.line) == ("SKL017", ".agents/skills/plan-training/SKILL.md", 2)


# --- through the CLI ---------------------------------------------------------------------------------
def _doctor_json(root: Path, *extra: str):
    result = CliRunner().invoke(app, ["doctor", str(root), "--select", "SKL", "--format", "json", *extra])
    return result.exit_code, json.loads(result.stdout)


def test_doctor_reports_skill_findings_and_fix_repairs_the_links(make_workspace):
    root = make_workspace()
    code, report = _doctor_json(root)
    assert (code, report["diagnostics"]) == (0, [])
    (root / ".claude/skills/plan-training").unlink()
    os.symlink(os.path.abspath(root / ".agents/skills/submit-training"), root / ".claude/skills/submit-training.tmp")
    (root / ".claude/skills/submit-training").unlink()
    os.rename(root / ".claude/skills/submit-training.tmp", root / ".claude/skills/submit-training")
    code, report = _doctor_json(root)
    assert code == 1
    assert {(d["code"], d["path"]) for d in report["diagnostics"]} == {
        ("SKL028", ".claude/skills/plan-training"),
        ("SKL029", ".claude/skills/submit-training"),
    }
    fixed = CliRunner().invoke(app, ["doctor", str(root), "--select", "SKL", "--fix"])
    assert fixed.exit_code == 0, fixed.output
    assert os.readlink(root / ".claude/skills/plan-training") == "../../.agents/skills/plan-training"
    assert os.readlink(root / ".claude/skills/submit-training") == "../../.agents/skills/submit-training"


def test_validate_a_skill_folder_from_the_cli(tmp_path):
    cases = Path(__file__).resolve().parents[1] / "cases" / "skills"
    ok = CliRunner().invoke(app, ["validate", str(cases / "good" / "all-fields")])
    assert ok.exit_code == 0, ok.output
    bad = CliRunner().invoke(app, ["validate", str(cases / "bad" / "many-problems"), "--format", "json"])
    assert bad.exit_code == 1
    codes = {d["code"] for d in json.loads(bad.stdout)["diagnostics"]}
    assert {"SKL010", "SKL014", "SKL018", "SKL021"} <= codes


def test_validate_passes_spec_valid_skills_whose_links_only_draw_warnings():
    cases = Path(__file__).resolve().parents[1] / "cases" / "skills" / "good"
    folders = [str(cases / n) for n in ("basedir-references", "footnote-citations", "sibling-links", "link-missing",
                                        "link-escapes")]
    result = CliRunner().invoke(app, ["validate", *folders, "--format", "json"])
    assert result.exit_code == 0, result.output
    found = json.loads(result.stdout)["diagnostics"]
    assert sorted(d["code"] for d in found) == ["SKL025", "SKL026"]
    assert {d["severity"] for d in found} == {"warning"}


def test_initialised_workspace_carries_every_bundled_skill_linked(make_workspace):
    root = make_workspace()
    for name in SKILL_NAMES:
        assert os.readlink(root / ".claude/skills" / name) == f"../../.agents/skills/{name}"
        assert (root / ".claude/skills" / name / "SKILL.md").is_file()


def test_plain_files_under_claude_skills_are_not_skills(ws_root):
    (ws_root / ".claude/skills/README.md").write_text("these are links\n")
    (ws_root / ".claude/skills/.gitkeep").write_text("")
    assert _skills_findings(ws_root) == []


def test_file_in_place_of_a_link_and_hints_name_the_skill(ws_root):
    link = ws_root / ".claude/skills/plan-training"
    link.unlink()
    link.write_text("not a link")
    [finding] = _skills_findings(ws_root)
    assert finding.code == "SKL031"
    assert "ln -sfn ../../.agents/skills/plan-training .claude/skills/plan-training" in finding.hint


def test_doctor_fix_restores_a_deleted_bundled_skill(make_workspace):
    root = make_workspace()
    shutil.rmtree(root / ".agents/skills/debug-rollouts")
    code, report = _doctor_json(root)
    assert code == 1
    assert {(d["code"], d["fixable"]) for d in report["diagnostics"]} == {("SKL027", True), ("SKL030", True)}
    fixed = CliRunner().invoke(app, ["doctor", str(root), "--select", "SKL", "--fix"])
    assert fixed.exit_code == 0, fixed.output
    assert (root / ".claude/skills/debug-rollouts/SKILL.md").is_file()


def test_hidden_folders_under_agents_skills_are_not_skills(ws_root):
    (ws_root / ".agents/skills/.cache").mkdir()
    assert _skills_findings(ws_root) == []
