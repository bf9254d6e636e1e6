"""LAY110/LAY111: what an unfinished `osmosis update` leaves, found statically (issue 12, point 9)."""

from __future__ import annotations

import json

from typer.testing import CliRunner
from ws_builder import build_workspace

from generator.check.families import run_workspace_checks
from generator.check.families.leftovers import marker_lines
from generator.cli import app
from generator.core.workspace import Workspace

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
