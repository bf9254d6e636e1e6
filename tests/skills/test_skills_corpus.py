"""The skills corpus: our SKILL.md verdict agrees with the reference validator (`skills-ref`).

tests/cases/skills/
  good/<skill>/  valid for skills-ref and for us; EXPECTED (optional) lists the warnings we add.
  bad/<skill>/   invalid for both; EXPECTED lists exactly the error codes we must report.
  ours/<skill>/  findings only we make (encodings skills-ref crashes on, Unicode line breaks where
                 YAML 1.1 and 1.2 disagree); not part of the agreement check.

Body links (SKL025, SKL026) are warnings: the link cases sit in good/, valid for both, including the
forms real public skills use (`{baseDir}/references/x.md`, footnotes `[^1]: ...`, links to sibling
skills such as `../minimal/SKILL.md`).

"Valid" for us means: no error-severity diagnostic (warnings are advice, not a verdict).
Known divergences, kept out of good/ and bad/ on purpose: YAML 1.2 empty implicit keys
(`: value` lines, which strictyaml accepts and pyyaml refuses), and U+0085/U+2028/U+2029 inside
front matter (SKL034 warns that parsers disagree about them).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from skills_ref.validator import validate as reference_validate

from osmosis_workspace.check.families.skills import check_skill_dir
from osmosis_workspace.core.diagnostics import Severity
from osmosis_workspace.core.resources import SKILL_NAMES, skills_dir

CASES = Path(__file__).resolve().parents[1] / "cases" / "skills"


def _cases(group: str) -> list[Path]:
    return sorted(p for p in (CASES / group).iterdir() if p.is_dir())


def _expected(case: Path) -> set[str]:
    marker = case / "EXPECTED"
    return set(marker.read_text(encoding="utf-8").split()) if marker.exists() else set()


def _codes(case: Path, severity: Severity | None = None) -> set[str]:
    return {d.code for d in check_skill_dir(case, case.name) if severity is None or d.severity == severity}


def test_corpus_is_big_enough_and_covers_every_file_level_rule():
    agreement = _cases("good") + _cases("bad")
    assert len(agreement) >= 20
    covered = set().union(*(_expected(c) for c in agreement + _cases("ours")))
    from osmosis_workspace.check.registry import RULES

    workspace_only = {"SKL027", "SKL028", "SKL029", "SKL030", "SKL031", "SKL032", "SKL033"}  # test_skills_workspace.py
    file_level = {code for code, r in RULES.items() if r.family == "skills"} - workspace_only
    assert file_level <= covered, f"no corpus case for {sorted(file_level - covered)}"


@pytest.mark.parametrize("case", _cases("good"), ids=lambda p: p.name)
def test_good_case_is_valid_for_both(case):
    assert reference_validate(case) == []
    assert _codes(case, Severity.ERROR) == set()
    assert _codes(case) == _expected(case)  # exactly the warnings listed, no others


@pytest.mark.parametrize("case", _cases("bad"), ids=lambda p: p.name)
def test_bad_case_is_invalid_for_both_with_the_expected_codes(case):
    assert reference_validate(case), "skills-ref calls this case valid: it belongs in good/"
    assert _expected(case), "a bad case must list its codes in EXPECTED"
    assert _codes(case, Severity.ERROR) == _expected(case)


@pytest.mark.parametrize("case", _cases("ours"), ids=lambda p: p.name)
def test_ours_only_case_yields_its_code(case):
    assert _expected(case) <= _codes(case)


def test_agentskills_cli_agrees_on_a_good_and_a_bad_case():
    # The command line users run, not just the library function behind it.
    cli = [sys.executable, "-c", "from skills_ref.cli import main; main()", "validate"]
    good = subprocess.run([*cli, str(CASES / "good" / "yaml11-words")], capture_output=True, text=True)
    bad = subprocess.run([*cli, str(CASES / "bad" / "flow-mapping")], capture_output=True, text=True)
    assert good.returncode == 0, good.stderr
    assert bad.returncode == 1 and "Invalid YAML" in bad.stderr


@pytest.mark.parametrize("name", SKILL_NAMES)
def test_bundled_skill_passes_agentskills_validate_and_our_check(name):
    folder = skills_dir() / name
    # The console script installed beside this interpreter: the venv's bin/ need not be on PATH.
    agentskills = str(Path(sys.executable).with_name("agentskills"))
    result = subprocess.run([agentskills, "validate", str(folder)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert check_skill_dir(folder, f"skills/{name}") == []


def test_bundle_holds_exactly_the_five_skills():
    assert sorted(p.name for p in skills_dir().iterdir() if p.is_dir()) == sorted(SKILL_NAMES)
