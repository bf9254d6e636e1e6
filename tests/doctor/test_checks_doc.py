"""docs/checks.md is the output of `osmosis doctor --list-checks --format markdown`, committed."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

from osmosis_workspace.check.doctor import load_rules
from osmosis_workspace.report import catalog

DOC = Path(__file__).resolve().parents[2] / "docs" / "checks.md"


def test_checks_doc_is_up_to_date():
    stream = io.StringIO()
    catalog.write(load_rules(), "markdown", stream)
    assert DOC.read_text(encoding="utf-8") == stream.getvalue(), (
        "docs/checks.md is out of date: run `osmosis doctor --list-checks --format markdown -o docs/checks.md`"
    )


def test_every_rule_is_documented_in_full():
    rules = load_rules()
    families = {r.family for r in rules}
    assert {"layout", "configs", "secrets", "entrypoints", "datasets", "skills", "git", "settings"} <= families
    for r in rules:
        assert r.summary and r.why and r.fix, r.code
        assert f"### {r.code}\n" in DOC.read_text(encoding="utf-8")


# A source is an osmosis-ai file, a section of the workspace contract, the Agent Skills reference
# validator, or our own advice; several are joined with "; ".
_SOURCE = re.compile(r"osmosis_ai/[a-z_/]+\.(py|[a-z]+\.tpl)|contract §[1-7]|skills-ref|ours")


def test_every_rule_cites_its_source():
    for r in load_rules():
        assert r.source, f"{r.code} has no source"
        for part in r.source.split("; "):
            assert _SOURCE.fullmatch(part), f"{r.code}: {part!r} is not an SDK path, a contract section, skills-ref or ours"


def test_list_checks_shows_the_source_in_every_format():
    from typer.testing import CliRunner

    from osmosis_workspace.cli import app

    run = CliRunner().invoke
    text = run(app, ["doctor", "--list-checks", "--select", "DAT001"]).stdout
    assert "source: osmosis_ai/platform/constants.py" in text
    data = json.loads(run(app, ["doctor", "--list-checks", "--select", "DAT001", "--format", "json"]).stdout)
    assert [c["source"] for c in data["checks"]] == ["osmosis_ai/platform/constants.py"]
    markdown = run(app, ["doctor", "--list-checks", "--select", "SKL026", "--format", "markdown"]).stdout
    assert "**Source.** ours" in markdown
    assert "**Source.** `osmosis_ai/platform/constants.py`" in DOC.read_text(encoding="utf-8")


def test_rules_declared_without_a_source_still_work():
    # The keyword has a default, so a declaration from before sources existed keeps working.
    from osmosis_workspace.check.registry import Rule, Severity

    bare = Rule("ZZZ001", "bare", "layout", Severity.WARNING, "s", "w", "f")
    assert bare.source == ""
