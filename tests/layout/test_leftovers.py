"""LAY110/LAY111: what an unfinished `osmosis update` leaves, found statically (issue 12, point 9)."""

from __future__ import annotations

import json

from typer.testing import CliRunner
from tests.workspace_builder import build_workspace

from osmosis_workspace.check.families import run_workspace_checks
from osmosis_workspace.check.families.leftovers import marker_lines
from osmosis_workspace.cli import app
from osmosis_workspace.core.workspace import Workspace

CONFLICT = "a = 1\n<<<<<<< x (yours)\nb = 2\n=======\nb = 3\n>>>>>>> x (installed template)\n"


def test_marker_lines_open_blocks_and_orphan_closers_only():
    assert marker_lines(CONFLICT) == [2]
    assert marker_lines(CONFLICT + CONFLICT) == [2, 8]
    assert marker_lines("Title\n=======\n\ntext\n") == []  # a Markdown heading underline
    assert marker_lines("kept mine\n>>>>>>> x (installed template)\n") == [2]  # half resolved
    assert marker_lines("<<<<<<<< eight is not a marker\n") == []


def test_markers_in_a_config_are_one_finding_and_its_parse_errors_are_dropped(tmp_path):
    root = build_workspace(tmp_path / "ws", git_dir=False)
    config = root / "configs" / "eval" / "multiply.toml"
    config.write_text(config.read_text() + CONFLICT, encoding="utf-8")
    found = run_workspace_checks(Workspace(root))
    assert any(d.code == "LAY111" and d.line for d in found)
    assert len([d for d in found if d.path == "configs/eval/multiply.toml"]) > 1  # the raw checks also complain
    data = json.loads(CliRunner().invoke(app, ["doctor", str(root), "-f", "json"]).stdout)
    on_config = [(d["code"], d["line"]) for d in data["diagnostics"] if d["path"] == "configs/eval/multiply.toml"]
    line = config.read_text().splitlines().index("<<<<<<< x (yours)") + 1
    assert on_config == [("LAY111", line)]


def test_ignoring_lay111_keeps_the_other_findings(tmp_path):
    root = build_workspace(tmp_path / "ws", git_dir=False)
    main = root / "rollouts" / "multiply" / "main.py"
    main.write_text(main.read_text() + CONFLICT, encoding="utf-8")
    out = CliRunner().invoke(app, ["doctor", str(root), "--ignore", "LAY111", "--select", "ENT"]).stdout
    assert "ENT002" in out


# Issue 20, point 4: markers wherever `update` merges, not only AGENTS.md and the rollouts' code.
EVERYWHERE = [
    ".agents/skills/plan-eval/SKILL.md", ".agents/skills/plan-training/references/dataset-format.md",
    "configs/AGENTS.md", ".github/workflows/osmosis.yml", "conftest.py", ".env.example",
    "rollouts/multiply/README.md", "rollouts/multiply/multiply_rollout/scoring.py",
]


def test_markers_are_found_wherever_update_writes(make_workspace):
    root = make_workspace()
    for rel in EVERYWHERE:
        path = root / rel
        path.write_text(path.read_text() + "\n" + CONFLICT, encoding="utf-8")
    data = json.loads(CliRunner().invoke(app, ["doctor", str(root), "-f", "json"]).stdout)
    assert sorted({d["path"] for d in data["diagnostics"] if d["code"] == "LAY111"}) == sorted(EVERYWHERE)
    check = CliRunner().invoke(app, ["update", str(root), "--check"])
    assert check.exit_code == 1 and "SKILL.md" in check.output and "configs/AGENTS.md" in check.output


def test_validate_reports_markers_in_a_skill_and_a_config(make_workspace):
    root = make_workspace()
    skill = root / ".agents/skills/plan-eval/SKILL.md"
    skill.write_text(skill.read_text() + CONFLICT, encoding="utf-8")
    config = root / "configs/eval/multiply.toml"
    config.write_text(config.read_text() + CONFLICT, encoding="utf-8")
    for named, path in ((root / ".agents/skills/plan-eval", ".agents/skills/plan-eval/SKILL.md"),
                        (skill, ".agents/skills/plan-eval/SKILL.md"), (config, "configs/eval/multiply.toml")):
        result = CliRunner().invoke(app, ["validate", str(named), "-f", "json"])
        assert result.exit_code == 1, result.output
        found = json.loads(result.stdout)["diagnostics"]
        # the one finding per conflicted file: the config's TOML error only repeats it
        assert [(d["code"], d["path"]) for d in found] == [("LAY111", path)], found
