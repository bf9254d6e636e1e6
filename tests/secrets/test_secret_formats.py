"""The known credential formats are gated by literal parts (check/families/secret_formats.py): a text
without any of a format's needles is never searched. These tests hold the gate to the full regex: on
texts built from a real-looking credential of every format, among others and noise, the gated search
finds exactly what the regex alone finds, and every regex match holds one of its format's needles."""

from __future__ import annotations

import random
import re

import pytest

from osmosis_workspace.check.families.secret_formats import KNOWN_FORMATS, _Format

SAMPLES = [
    "sk-ant-api03-" + "A" * 30, "sk-proj-" + "b" * 24, "sk-" + "c1" * 10, "ghp_" + "d" * 36, "gho_" + "E" * 22,
    "github_pat_" + "F_" * 15, "glpat-" + "g" * 20, "xoxb-" + "1-2" * 5, "AKIA" + "ABCDEFGHIJKLMNOP", "ASIA" + "Q" * 16,
    "AIza" + "h" * 35, "hf_" + "i" * 34, "sk_live_" + "j" * 24, "rk_test_" + "K" * 20, "gsk_" + "l" * 52,
    "r8_" + "m" * 37, "dtn_" + "n" * 40, "eyJ" + "o" * 12 + ".eyJ" + "p" * 12 + "." + "q" * 12,
    "-----BEGIN RSA PRIVATE KEY-----", "-----BEGIN PRIVATE KEY-----",
]
NOISE = ["", " ", "\n", "x", "_", "-", "key = ", "token=", "Sk-", "GHP_", "akia", "https://", "#", "abc123", "eyj", "BEGIN"]


def _texts(seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    texts = []
    for _ in range(count):
        parts = [rng.choice(SAMPLES + NOISE * 2) for _ in range(rng.randint(1, 6))]
        text = "".join(parts)
        if rng.random() < 0.3 and text:  # cut a credential short, or glue it to a word
            cut = rng.randrange(len(text))
            text = text[:cut] if rng.random() < 0.5 else text[:cut] + rng.choice("aZ9_-") + text[cut:]
        texts.append(text)
    return texts + SAMPLES + NOISE


@pytest.mark.parametrize("label,fmt", [(label, fmt) for label, fmt in KNOWN_FORMATS if isinstance(fmt, _Format)])
def test_gated_search_finds_what_the_regex_finds(label, fmt):
    plain = re.compile(fmt.pattern.pattern)
    found_any = False
    for text in _texts(sum(map(ord, label)), 400):
        ours = [(m.start(), m.group(0)) for m in fmt.finditer(text)]
        theirs = [(m.start(), m.group(0)) for m in plain.finditer(text)]
        assert ours == theirs, (label, text)
        one = fmt.search(text)
        assert (one and one.group(0)) == ((m := plain.search(text)) and m.group(0))
        for _, match in theirs:
            assert any(n in match for n in fmt.needles), (label, match)
        found_any = found_any or bool(theirs)
    assert found_any, f"no sample of {label} matched: the samples no longer exercise it"
