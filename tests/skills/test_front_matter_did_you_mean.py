"""A misspelt front-matter key in SKILL.md: one finding (SKL010 with "did you mean"), not also
"no description", through `osmosis doctor`."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from osmosis_workspace.cli import app

SKILL = ".agents/skills/create-rollouts/SKILL.md"


def _skill_findings(ws, old, new):
    path = ws / SKILL
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    result = CliRunner().invoke(app, ["doctor", str(ws), "-f", "json", "--select", "SKL"])
    assert result.exit_code == 1
    return json.loads(result.stdout)["diagnostics"]


def test_a_misspelt_description_is_one_finding_with_the_key_meant(workspace_copy):
    [d] = _skill_findings(workspace_copy, "\ndescription:", "\ndescripton:")
    assert (d["code"], d["path"], d["line"]) == ("SKL010", SKILL, 3)
    assert d["message"] == "unknown front-matter key 'descripton'; did you mean 'description'?"


def test_a_misspelt_key_beside_the_real_one_is_still_reported(workspace_copy):
    found = _skill_findings(workspace_copy, "\ndescription:", "\nlicence: MIT\ndescription:")
    assert [(d["code"], d["message"]) for d in found] == [
        ("SKL010", "unknown front-matter key 'licence'; did you mean 'license'?")]


def test_an_unrelated_key_lists_the_allowed_ones(workspace_copy):
    [d] = _skill_findings(workspace_copy, "\ndescription:", "\nversion: 1\ndescription:")
    assert d["message"].startswith("unknown front-matter key 'version'; allowed: name, description")
