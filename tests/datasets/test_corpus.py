"""The data-driven corpus under tests/cases/datasets (see its README)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from osmosis_workspace.check.families.datasets import check_dataset_file
from osmosis_workspace.check.registry import RULES

CASES = Path(__file__).resolve().parents[1] / "cases" / "datasets"
EXPECTED = json.loads((CASES / "bad" / "expected.json").read_text())
BAD = sorted(p for p in (CASES / "bad").iterdir() if p.name not in ("expected.json",))
GOOD = sorted((CASES / "good").iterdir())
# Findings whose severity is not their rule's: DAT015 and DAT018 are errors where the platform's
# reader fails on them (CSV; JSON lines / a hidden column); DAT004 and DAT009 are warnings where it
# accepts what we advise against (lenient CSV quoting, NaN; whitespace-only values).
OTHER_SEVERITY = {("DAT015", "error"), ("DAT018", "error"), ("DAT004", "warning"), ("DAT009", "warning")}


def test_manifest_matches_the_files():
    assert sorted(EXPECTED) == [p.name for p in BAD]


@pytest.mark.parametrize("path", GOOD, ids=lambda p: p.name)
def test_good_files_pass(path):
    assert check_dataset_file(path, path.name) == []


@pytest.mark.parametrize("path", BAD, ids=lambda p: p.name)
def test_bad_file_gives_exactly_the_expected_findings(path):
    found = check_dataset_file(path, f"data/{path.name}")
    assert [[d.code, d.line, d.column] for d in found] == EXPECTED[path.name]
    for d in found:
        assert d.path == f"data/{path.name}"
        assert d.name == RULES[d.code].name
        assert d.severity == RULES[d.code].severity or (d.code, d.severity.value) in OTHER_SEVERITY
        assert d.message and "\n" not in d.message and d.hint


@pytest.mark.parametrize("path", BAD, ids=lambda p: p.name)
def test_case_is_named_after_its_rule(path):
    code = path.name.split("-")[0].upper()
    assert code in {c for c, _, _ in EXPECTED[path.name]}


def test_every_file_level_rule_has_a_case():
    # DAT002 (unreadable), DAT012 (too large), DAT014 (no pyarrow) and DAT019 (link out of the
    # workspace) need a file system state or an import failure: tested in test_files.py and
    # test_links.py. DAT020 (a misnamed file) is about data/, not a file's contents: test_misnamed.py.
    # DAT021 (the run's cap on dataset findings) is about many files: tests/security/test_dataset_scale.py.
    # DAT029 (eval rows in the training dataset) compares two files two configs name: test_data_checks.py.
    # DAT031 and DAT032 (a code task's tests, rehearse's declared columns) need a code rollout: test_code_tasks.py.
    covered = {c for found in EXPECTED.values() for c, _, _ in found}
    others = {"DAT002", "DAT012", "DAT014", "DAT019", "DAT020", "DAT021", "DAT029", "DAT031", "DAT032"}
    assert covered | others == {code for code, r in RULES.items() if r.family == "datasets"}
