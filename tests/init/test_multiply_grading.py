"""The multiply template's scoring.py and grading.py (loaded straight from the template) and its dataset."""

from __future__ import annotations

import importlib.util
import json
import sys
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

TEMPLATE = Path(__file__).resolve().parents[2] / "templates" / "multiply" / "template"
ROLLOUT = TEMPLATE / "rollouts" / "{{ rollout_name }}"
PACKAGE = ROLLOUT / "{{ package }}"
SCORING = PACKAGE / "scoring.py"
GRADING = PACKAGE / "grading.py"
DATA = TEMPLATE / "data" / "{% if task != 'single-answer' %}{{ rollout_name }}.jsonl{% endif %}"  # the multiply task's rows


def load(path: Path, name: str, **siblings):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    # a module importing a sibling gets this test's copy, without touching sys.path
    saved = {k: sys.modules.get(k) for k in siblings}
    sys.modules.update(siblings)
    try:
        spec.loader.exec_module(module)
    finally:
        for key, value in saved.items():
            if value is None:
                sys.modules.pop(key, None)
            else:
                sys.modules[key] = value
    return module


scoring = load(SCORING, "multiply_scoring")
# grading.py does `from .scoring import score`: load it as a module of a package holding this scoring
answer = load(GRADING, "multiply_pkg.grading", multiply_pkg=type(sys)("multiply_pkg"), **{"multiply_pkg.scoring": scoring})


def test_grading_and_scoring_import_no_sdk():
    for path in (SCORING, GRADING):
        source = path.read_text()
        assert "osmosis_ai" not in source and "import strands" not in source and "from strands" not in source


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("#### 171304.4148", 171304.4148),
        ("Working: 170.7625 x 1003.1735\n#### 171304.4148", 171304.4148),
        ("#### -2,608,026.8473", -2608026.8473),
        ("#### 42.", 42.0),
        ("the result is \\boxed{576}", 576.0),
        ("\\boxed{\\frac{1}{2}} no wait \\boxed{-0.6555}", -0.6555),
        ("So the answer is -480,406.2536.", -480406.2536),
        ("ANSWER: 7.44", 7.44),
        ("I think 12 times 3 makes 36", 36.0),
        ("val1 = 2, val2 = 3; product 6.", 6.0),
        ("#### .5", 0.5),
        ("#### 1.5e3", 1500.0),
        ("####\n\n  -0.1917  ", -0.1917),
        ("#### (no idea) but 5", 5.0),
    ],
)
def test_extract_answer(text, expected):
    assert scoring.extract_answer(text) == pytest.approx(expected)


@pytest.mark.parametrize("text", ["", "  \n ", "I cannot compute that.", "####", None, 3.5, ["#### 1"]])
def test_no_number_is_none(text):
    assert scoring.extract_answer(text) is None


@pytest.mark.parametrize(
    ("text", "label", "reward"),
    [
        ("#### 171304.4148", "171304.4148", 1.0),
        ("#### 171304.41", "171304.4148", 1.0),
        ("#### 171304.4248", "171304.4148", 1.0),  # exactly 0.01 away still counts
        ("#### 171304.4249", "171304.4148", 0.0),
        ("#### 171304.4148", "-171304.4148", 0.0),
        ("#### 576", "576.0000", 1.0),
        ("#### 1,449,085.1385", "1449085.1385", 1.0),
        ("", "6", 0.0),
        ("#### 6", None, 0.0),
        ("#### 6", "", 0.0),
        ("#### 6", "six", 0.0),
        ("#### inf", "6", 0.0),
        (None, "6", 0.0),
    ],
)
def test_score(text, label, reward):
    assert scoring.score(text, label) == reward


@settings(max_examples=200, deadline=None)
@given(st.one_of(st.none(), st.text(max_size=200)), st.one_of(st.none(), st.text(max_size=30)))
def test_score_never_raises_and_is_binary(text, label):
    assert scoring.score(text, label) in (0.0, 1.0)


@settings(max_examples=200, deadline=None)
@given(st.decimals(min_value=-10**9, max_value=10**9, places=4, allow_nan=False, allow_infinity=False),
       st.text(alphabet="abc .,:\n", max_size=40))
def test_any_product_after_marker_is_rewarded(value, preamble):
    label = str(value)
    assert scoring.score(f"{preamble}\n#### {label}", label) == 1.0
    assert scoring.score(f"{preamble}\n#### {value + Decimal('0.02')}", label) == 0.0


def test_last_answer_text_shapes():
    assert answer.last_answer_text([{"role": "assistant", "content": [{"text": "a"}, {"text": "b"}]}]) == "ab"
    assert answer.last_answer_text([{"role": "assistant", "content": "x"}, {"role": "user", "content": "y"}]) == "x"
    assert answer.last_answer_text([{"type": "message", "role": "assistant",
                                         "content": [{"type": "output_text", "text": "z"}]}]) == "z"

    class Msg:
        role = "assistant"
        content = "attr"

    assert answer.last_answer_text([Msg()]) == "attr"
    assert answer.last_answer_text(5) == ""
    assert answer.last_answer_text([{"role": "assistant", "content": None}]) == ""


def test_dataset_rows_are_correct_products():
    rows = [json.loads(line) for line in DATA.read_text().splitlines()]
    assert len(rows) >= 20
    assert len({r["user_prompt"] for r in rows}) == len(rows)
    for row in rows:
        assert set(row) == {"system_prompt", "user_prompt", "ground_truth"}
        assert "####" in row["system_prompt"]
        first, second = row["user_prompt"].split("\n")
        assert first.startswith("val1 = ") and second.startswith("val2 = ")
        product = Decimal(first[7:]) * Decimal(second[7:])
        assert row["ground_truth"] == str(product.quantize(Decimal("0.0001"), rounding=ROUND_HALF_UP))
    assert {"user_prompt": "val1 = -170.7625\nval2 = -1003.1735", "ground_truth": "171304.4148"}.items() <= rows[0].items()
