"""One truth per rule: a finding's severity is its rule's, in `--list-checks`, `osmosis rule` and every
report. GIT006 used to be "error" in the table and reported as info (a severity passed per finding);
`Rule.at` takes no severity any more, so a finding that deserves another severity is another rule."""

from __future__ import annotations

import inspect
import json
import subprocess
from pathlib import Path

from typer.testing import CliRunner

import osmosis_workspace.check.families  # noqa: F401  (fills the table)
from osmosis_workspace.check.families.configs import check_config_file
from osmosis_workspace.check.families.datasets import check_dataset_file
from osmosis_workspace.check.families.entrypoints import check_entrypoint_file
from osmosis_workspace.check.families.skills import check_skill_dir
from osmosis_workspace.check.registry import RULES
from osmosis_workspace.cli import app
from osmosis_workspace.core.rules import Rule

CASES = Path(__file__).resolve().parents[1] / "cases"


def test_a_finding_cannot_choose_its_severity():
    assert "severity" not in inspect.signature(Rule.at).parameters


def test_the_table_the_catalog_and_rule_agree():
    listed = json.loads(CliRunner().invoke(app, ["doctor", "--list-checks", "--format", "json"]).stdout)["checks"]
    assert {c["code"]: c["severity"] for c in listed} == {code: r.severity.value for code, r in RULES.items()}
    for code in ("GIT006", "GIT009", "CFG005", "CFG028", "DAT009", "DAT024", "ENT004", "ENT033"):
        shown = CliRunner().invoke(app, ["rule", code]).stdout
        assert f"Severity: {RULES[code].severity.value}." in shown, (code, shown[:200])


def _corpus_findings():
    for path in sorted((CASES / "configs").rglob("*.toml")):
        kind = path.parent.name if path.parent.name in ("eval", "training", "benchmark") else None
        yield from check_config_file(path, kind, None, path.name)
    for path in sorted((CASES / "datasets").rglob("*")):
        if path.is_file() and path.suffix.lower() in (".jsonl", ".csv", ".json", ".parquet"):
            yield from check_dataset_file(path, path.name)
    for path in sorted((CASES / "entrypoints").rglob("*.py")):
        yield from check_entrypoint_file(path, path.name)
    for path in sorted((CASES / "skills").glob("*/*")):
        if path.is_dir():
            yield from check_skill_dir(path, path.name)


def test_every_finding_of_the_corpora_carries_its_rules_severity(make_workspace):
    found = list(_corpus_findings())
    ws = make_workspace("blank", name="fresh", git=False)
    subprocess.run(["git", "init", "-q"], cwd=ws, check=True)          # no remote at all: GIT009, an info
    report = json.loads(CliRunner().invoke(app, ["doctor", str(ws), "--format", "json"]).stdout)["diagnostics"]
    pairs = [(d.code, d.severity.value) for d in found] + [(d["code"], d["severity"]) for d in report]
    wrong = sorted({(code, sev, RULES[code].severity.value) for code, sev in pairs if sev != RULES[code].severity.value})
    assert wrong == [], wrong
    codes = {code for code, _ in pairs}
    assert len(codes) >= 60 and "GIT009" in codes, sorted(codes)   # the corpora reach most of the table
