"""docs/checks.md is the output of `osmosis doctor --list-checks --format markdown`, committed."""

from __future__ import annotations

import io
from pathlib import Path

from generator.doctor import load_rules
from generator.reporters import catalog

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
