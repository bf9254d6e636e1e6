"""readers/uvlock._canonical counts the package headers' matches only where their literal start is
(`_found`), not with a findall over the whole lock (issue 40). The count must be findall's on any text:
the bundled templates' real locks, the forms tests/dependencies/test_lock_forms.py writes, and texts
made to trip a placed search (a header right after another's match, names that are not normal, a
version line missing, headers with nothing between)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from osmosis_workspace.readers import uvlock
from tests.dependencies.test_lock_forms import FORMS

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
LOCKS = sorted(p for p in TEMPLATES.rglob("uv.lock*") if p.is_file())


def findall_form(text: str) -> bool:
    """_canonical as it was: two findalls over the whole text."""
    if '"""' in text or "'''" in text or uvlock._FORM.fullmatch(text) is None:
        return False
    text = "\n" + text
    first = text.find("\n" + uvlock._PACKAGE)
    heads = text.count("\n" + uvlock._PACKAGE)
    named = text.count(f'\n{uvlock._PACKAGE}name = "')
    versions = 0 if first < 0 else text.count('\nversion = "', first)
    return (named == heads == len(uvlock._NORMAL_NAME.findall(text))
            and versions == len(uvlock._NAME_VERSION.findall(text)))


def counts(text: str) -> tuple[int, int, int, int]:
    """(findall, placed) for both patterns, on the text as _canonical sees it."""
    text = "\n" + text
    starts = uvlock._all(text, f'\n{uvlock._PACKAGE}name = "')
    return (len(uvlock._NORMAL_NAME.findall(text)), uvlock._found(uvlock._NORMAL_NAME, text, starts),
            len(uvlock._NAME_VERSION.findall(text)), uvlock._found(uvlock._NAME_VERSION, text, starts))


def test_there_are_real_locks_to_compare():
    assert len(LOCKS) >= 2, LOCKS


@pytest.mark.parametrize("lock", LOCKS, ids=lambda p: str(p.relative_to(TEMPLATES)))
def test_real_locks_and_their_other_forms(lock):
    text = lock.read_text(encoding="utf-8")
    assert uvlock._canonical(text) == findall_form(text)
    assert uvlock._canonical(text.replace("\r\n", "\n")) or "{{" in text  # a rendered lock is in uv's form
    for name, form in FORMS.items():
        other = form(text)
        assert uvlock._canonical(other) == findall_form(other), name
        found_all, placed, found_versions, placed_versions = counts(other)
        assert (found_all, found_versions) == (placed, placed_versions), name


PIECES = ['[[package]]\n', 'name = "a"\n', 'name = "B"\n', 'name = "x-y"\n', 'name = "a\\"b"\n', 'version = "1"\n',
          '\n', 'source = { registry = "r" }\n', 'name = "', '"\n', 'version = "', "[[package]]", "# c\n"]


@pytest.mark.parametrize("seed", range(40))
def test_made_up_texts(seed):
    rng = random.Random(seed)
    forms = set()
    for _ in range(200):
        text = "".join(rng.choice(PIECES) for _ in range(rng.randrange(1, 30)))
        forms.add(uvlock._canonical(text))
        assert uvlock._canonical(text) == findall_form(text), text
        found_all, placed, found_versions, placed_versions = counts(text)
        assert (found_all, found_versions) == (placed, placed_versions), text
    assert forms == {True, False}  # both answers met: the texts are not all rejected by the form
