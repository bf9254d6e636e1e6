"""Property tests: any SKILL.md text yields a list of diagnostics, never an exception; and on
front matter built from YAML's building blocks our verdict agrees with skills-ref."""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from skills_ref.validator import validate as reference_validate

from osmosis_workspace.check.families.skills import check_skill_dir, check_skill_text
from osmosis_workspace.core.diagnostics import Diagnostic, Severity

PIECES = [
    "name", "description", "license", "metadata", "compatibility", "allowed-tools", "version", "Name",
    ":", ": ", " ", "  ", "\n", "\n  ", "-", "--", "---", "- ", "'", '"', "#", "{", "}", "[", "]",
    "&a", "*a", "!!str ", "|", ">", "yes", "123", "null", "~", "my-skill", "My_Skill", "é", "\t",
    "? ", "...", "%", "@", "`", ",", "\\", "\r\n", "ﬁ", "\ufeff", "<<: ", "0x1F",
]
VALID = "name: my-skill\ndescription: Does things. Use when asked.\nmetadata:\n  a: b\ncompatibility: py3\n"


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_any_text_gives_a_diagnostic_list(text):
    found = check_skill_text(text, "my-skill", "SKILL.md")
    assert isinstance(found, list) and all(isinstance(d, Diagnostic) for d in found)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=30).map("".join))
def test_random_front_matter_never_raises(front):
    found = check_skill_text(f"---\n{front}\n---\nbody\n", "my-skill", "SKILL.md")
    assert all(isinstance(d, Diagnostic) and (d.line is None or d.line >= 1) for d in found)
    assert all(d.column is None or d.column >= 1 for d in found)


def _mutations(pieces=PIECES):
    edit = st.tuples(st.integers(0, len(VALID)), st.integers(0, 2), st.sampled_from(pieces))
    return st.lists(edit, min_size=1, max_size=3)


# Documented divergences (see test_skills_corpus.py): empty implicit keys and Unicode line breaks.
_KNOWN_DIVERGENCE = re.compile(r"(?m)^[ \t-]*:( |$)|[\x85\u2028\u2029]")


@settings(max_examples=250, deadline=None)
@given(_mutations())
def test_verdict_agrees_with_skills_ref_on_mutated_front_matter(edits):
    front = VALID
    for at, cut, piece in edits:
        at = min(at, len(front))
        front = front[:at] + piece + front[at + cut:]
    text = f"---\n{front}\n---\nbody\n"
    if _KNOWN_DIVERGENCE.search(front):
        return
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "my-skill"
        folder.mkdir()
        (folder / "SKILL.md").write_text(text, encoding="utf-8", newline="")
        reference_invalid = bool(reference_validate(folder))
        ours = [d for d in check_skill_dir(folder, "my-skill") if d.severity == Severity.ERROR]
    assert reference_invalid == bool(ours), (text, [d.message for d in ours])


@settings(max_examples=400, deadline=None)
@given(_mutations([*PIECES, "\x07", "\x7f", "\x00", "  ", "\n   ", " # c", "#"]))
def test_fast_path_reads_what_pyyaml_reads(edits):
    from osmosis_workspace.check.families.skill_yaml import _read_simple, _read_yaml

    front = "\n" + VALID + "license: MIT\nallowed-tools: Bash(git:*) Read\nmetadata2: x\n"
    for at, cut, piece in edits:
        at = min(at, len(front))
        front = front[:at] + piece + front[at + cut:]
    fast = _read_simple(front)
    if fast is None:
        return  # not simple: pyyaml decides alone
    slow, problem = _read_yaml(front, "SKILL.md")
    assert problem is None, (front, problem)
    assert fast == slow, front


def test_fast_path_answers_for_the_bundled_skills():
    from osmosis_workspace.check.families.skill_yaml import _read_simple
    from osmosis_workspace.core.resources import SKILL_NAMES, skills_dir

    for name in SKILL_NAMES:
        front = (skills_dir() / name / "SKILL.md").read_text(encoding="utf-8").split("---", 2)[1]
        assert _read_simple(front) is not None, name
