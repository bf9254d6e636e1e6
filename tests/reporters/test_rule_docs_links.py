"""Every finding links to its rule's section of docs/checks.md: `url` in JSON, `helpUri` in SARIF.

The link is the repository of pyproject's [project.urls] plus docs/checks.md and the anchor GitHub
derives from the `### CODE` heading; these tests hold all three together.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from typer.testing import CliRunner

from osmosis_workspace.check.doctor import load_rules
from osmosis_workspace.cli import app
from osmosis_workspace.core.rules import DOCS_URL, REPOSITORY_URL

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[2]


def github_anchors(markdown: str) -> set[str]:
    """The anchors GitHub gives a document's headings: lowercase, punctuation dropped, spaces as `-`,
    a repeated slug numbered (`-1`, `-2`)."""
    seen: dict[str, int] = {}
    anchors = set()
    in_code = False
    for line in markdown.splitlines():
        if line.startswith("```"):
            in_code = not in_code
        m = None if in_code else re.match(r"^#{1,6} (.+?)\s*$", line)
        if not m:
            continue
        slug = re.sub(r"[^\w\- ]", "", m.group(1).strip().lower()).replace(" ", "-")
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        anchors.add(slug if count == 0 else f"{slug}-{count}")
    return anchors


def test_the_docs_url_is_the_projects_repository():
    urls = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["urls"]
    assert urls["Repository"] == REPOSITORY_URL
    assert DOCS_URL == f"{REPOSITORY_URL}/blob/main/docs/checks.md" == urls["Documentation"]


def test_every_rules_anchor_is_a_heading_of_the_committed_docs():
    anchors = github_anchors((ROOT / "docs/checks.md").read_text(encoding="utf-8"))
    for r in load_rules():
        base, _, anchor = r.url.partition("#")
        assert base == DOCS_URL and anchor in anchors, r.code
    # the table's own links use the same anchors
    assert {a for a in re.findall(r"\]\(#([a-z0-9-]+)\)", (ROOT / "docs/checks.md").read_text(encoding="utf-8"))} <= anchors


def test_json_and_sarif_findings_link_to_their_section(workspace_copy):
    config = workspace_copy / "configs/training/multiply.toml"
    config.write_text(config.read_text(encoding="utf-8").replace("lr = ", "learning_rate = "), encoding="utf-8")
    runner = CliRunner()
    data = json.loads(runner.invoke(app, ["doctor", str(workspace_copy), "-f", "json", "--select", "CFG"]).stdout)
    [finding] = data["diagnostics"]
    assert finding["code"] == "CFG003" and finding["url"] == f"{DOCS_URL}#cfg003"

    sarif = json.loads(runner.invoke(app, ["doctor", str(workspace_copy), "-f", "sarif", "--select", "CFG"]).stdout)
    run = sarif["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    assert all(r["helpUri"] == f"{DOCS_URL}#{r['id'].lower()}" for r in rules)
    [result] = run["results"]
    assert rules[result["ruleIndex"]]["helpUri"] == f"{DOCS_URL}#cfg003"
