"""The three multiply templates grade identically: the scoring rule has one source.

The source is templates/multiply/…/scoring.py. It cannot be a symlink in the other templates: copier
refuses (ForbiddenPathError) a symlink whose target lies outside the template's own folder, and each
bundled template is its own copier template. So the other templates hold byte-for-byte copies, and
this test fails as soon as a copy drifts. Edit the source, then copy it over.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
ROLLOUT = Path("template") / "rollouts" / "{{ rollout_name }}"
SOURCE = TEMPLATES / "multiply" / ROLLOUT
TEMPLATE_NAMES = ("multiply", "multiply-openai", "multiply-harbor")

# copy -> the file in templates/multiply it must equal
COPIES = {
    "multiply-openai": ["scoring.py", "tests/test_scoring.py"],
    # Harbor runs the same Strands agent in its sandboxes: its samples are read like the Strands template's.
    "multiply-harbor": ["scoring.py", "tests/test_scoring.py", "grading.py", "tests/test_grading.py"],
}
CASES = [(template, rel) for template, rels in COPIES.items() for rel in rels]


@pytest.mark.parametrize(("template", "rel"), CASES, ids=[f"{t}:{r}" for t, r in CASES])
def test_copy_is_identical_to_the_multiply_source(template, rel):
    copy = TEMPLATES / template / ROLLOUT / rel
    assert not copy.is_symlink(), f"{copy}: copier refuses links out of a template; keep a plain copy"
    assert copy.read_bytes() == (SOURCE / rel).read_bytes(), (
        f"templates/{template}/{ROLLOUT / rel} differs from templates/multiply/{ROLLOUT / rel}; "
        "edit the multiply source and copy it over")


@pytest.mark.parametrize("template", TEMPLATE_NAMES)
def test_grading_only_reads_the_sample_and_imports_the_shared_rule(template):
    grading = (TEMPLATES / template / ROLLOUT / "grading.py").read_text(encoding="utf-8")
    assert re.search(r"^from scoring import .*\bextract_answer\b", grading, re.MULTILINE), grading[:300]
    # number parsing and the tolerance belong to scoring.py alone
    for marker in ("re.compile", "TOLERANCE", "float("):
        assert marker not in grading, f"{template}/grading.py re-implements scoring ({marker})"


@pytest.mark.parametrize("template", TEMPLATE_NAMES)
def test_each_rollout_tests_scoring_once_and_its_own_reading(template):
    tests = sorted(p.name for p in (TEMPLATES / template / ROLLOUT / "tests").iterdir())
    assert tests.count("test_scoring.py") == 1 and "test_grading.py" in tests, tests
    assert not any("scoring" in name and name != "test_scoring.py" for name in tests), tests
