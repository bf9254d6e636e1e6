"""Tests for scoring.py, the multiply task's rule shared by every multiply template.

They need neither osmosis-ai nor a model: `python -m pytest` from this folder.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scoring import extract_answer, score

ROLLOUT = Path(__file__).resolve().parents[1]
DATASET = ROLLOUT.parents[1] / "data" / f"{ROLLOUT.name}.jsonl"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Let me compute.\n#### 171304.4148", 171304.4148),
        ("#### -42.5", -42.5),
        ("#### 1,234,567.891", 1234567.891),
        ("#### 42.", 42.0),  # trailing period
        ("#### .5", 0.5),
        ("####\n\n  -0.1917  ", -0.1917),
        ("#### \u22127.25", -7.25),  # Unicode minus
        ("first 1, then #### 99 and later 5", 99.0),
        ("#### about 9, not 11", 9.0),
        ("#### 1,2345", 1.0),  # not a thousands separator: 1 then 2345
        ("12 before the marker #### no number after", 12.0),
        ("so the product is \\boxed{-3.25}", -3.25),
        ("\\boxed{1{,}024}", 1024.0),
        ("The answer is -480,406.2536.", -480406.2536),
        ("Final answer: -0.5", -0.5),
        ("no marker, last number wins: 3 then 7.25", 7.25),
    ],
)
def test_extract_answer(text, expected):
    assert extract_answer(text) == pytest.approx(expected)


@pytest.mark.parametrize("text", ["", "   ", "no digits at all", "####", "- . ,", "#### inf", None, 42])
def test_extract_answer_without_a_number(text):
    assert extract_answer(text) is None


def test_score_is_one_within_tolerance_and_zero_outside():
    assert score("#### 171304.4148", "171304.4148") == 1.0
    assert score("#### 171304.42", "171304.4148") == 1.0
    assert score("#### 171304.4248", "171304.4148") == 1.0  # exactly 0.01 away
    assert score("#### 171304.43", "171304.4148") == 0.0
    assert score("#### 171304.4148", "-171304.4148") == 0.0
    assert score("#### 1,449,085.1385", "1449085.1385") == 1.0
    assert score("#### 1449085.1385", "1,449,085.1385") == 1.0


@pytest.mark.parametrize(
    ("text", "label"),
    [("", "6"), ("garbage", "6"), (None, "6"), ("#### 6", None), ("#### 6", ""), ("#### 6", "six"),
     ("#### 6", "nan"), ("#### nan", "6"), ("#### inf", "6")],
)
def test_score_is_zero_and_never_raises_on_bad_input(text, label):
    assert score(text, label) == 0.0


def test_every_dataset_label_is_gradable():
    rows = [json.loads(line) for line in DATASET.read_text(encoding="utf-8").splitlines() if line.strip()]
    assert len(rows) >= 4
    for row in rows:
        assert score(f"#### {row['ground_truth']}", row["ground_truth"]) == 1.0
