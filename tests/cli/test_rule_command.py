"""`osmosis rule CODE` end to end through the CLI: text, JSON, --all, and one line for a wrong code."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from osmosis_workspace.cli import app
from osmosis_workspace.core.rules import DOCS_URL


def osmosis(*args: str):
    return CliRunner().invoke(app, list(args))


def test_text_explains_every_section_with_its_docs_link():
    result = osmosis("rule", "CFG003")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert out.startswith("CFG003 (config-unknown-key)\n")
    assert "Severity: error." in out and "Fixable: no" in out
    for section in ("What it checks", "Why it matters", "Example", "Fix", "Source"):
        assert f"\n{section}\n    " in out, section
    assert out.rstrip().endswith(f"Docs: {DOCS_URL}#cfg003")


def test_a_fixable_rule_says_how_it_is_fixed():
    from osmosis_workspace.check.doctor import load_rules

    fixable = next(r for r in load_rules() if r.fixable)
    assert "Fixable: yes, `osmosis doctor --fix` repairs it." in osmosis("rule", fixable.code).stdout


def test_json_carries_the_whole_rule():
    result = osmosis("rule", "skl010", "--format", "json")  # a code in any case
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["code"] == "SKL010" and data["name"] == "unknown-front-matter-key"
    assert {"summary", "why", "fix", "example", "source", "fixable", "severity", "family"} <= set(data)
    assert data["fixable"] is False and data["url"] == f"{DOCS_URL}#skl010"


def test_a_rule_is_also_found_by_its_name():
    assert osmosis("rule", "config-unknown-key").stdout.startswith("CFG003 ")


@pytest.mark.parametrize(("typed", "said"), [
    ("CFG03", "error: no rule has the code 'CFG03'; did you mean CFG003?"),
    ("CGF003", "error: no rule has the code 'CGF003'; did you mean CFG003?"),
    ("unknown-key", "error: no rule has the code 'unknown-key'; did you mean CFG003 (config-unknown-key)?"),
    ("QQQ999", "error: no rule has the code 'QQQ999'; `osmosis rule --all` lists every rule"),
])
def test_an_unknown_code_is_one_line_with_a_suggestion_and_exit_2(typed, said):
    result = osmosis("rule", typed)
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == said + "\n"


def test_a_prefix_names_the_rules_it_covers():
    result = osmosis("rule", "SKL")
    assert result.exit_code == 2 and len(result.stderr.splitlines()) == 1
    assert "'SKL' is a prefix of" in result.stderr and "(SKL001 to SKL" in result.stderr
    assert "--list-checks --select SKL" in result.stderr


def test_all_explains_every_rule_and_no_code_is_a_usage_error():
    from osmosis_workspace.check.doctor import load_rules

    codes = [r.code for r in load_rules()]
    every = osmosis("rule", "--all")
    assert every.exit_code == 0
    assert [line.split()[0] for line in every.stdout.splitlines() if line.endswith(")") and line.split()[0] in codes] == codes
    data = json.loads(osmosis("rule", "--all", "-f", "json").stdout)
    assert [r["code"] for r in data["rules"]] == codes
    assert osmosis("rule").exit_code == 2
    assert osmosis("rule", "CFG003", "--all").exit_code == 2
    bad = osmosis("rule", "CFG003", "--format", "sarif")
    assert bad.exit_code == 2 and "text, json" in bad.stderr
