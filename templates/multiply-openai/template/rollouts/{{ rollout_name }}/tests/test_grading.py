import math

import pytest

from grading import answer_text, extract_answer, reward


def assistant(*texts, part_type="output_text"):
    return {"type": "message", "role": "assistant",
            "content": [{"type": part_type, "text": t, "annotations": []} for t in texts]}


def test_answer_text_reads_output_text_parts_of_last_assistant_message():
    items = [
        {"role": "system", "content": "multiply"},
        {"role": "user", "content": "val1 = 2\nval2 = 3"},
        assistant("first try #### 5"),
        {"type": "function_call", "name": "multiply", "arguments": "{\"a\": 2, \"b\": 3}", "call_id": "c1"},
        {"type": "function_call_output", "call_id": "c1", "output": "6.0"},
        assistant("The product is ", "#### 6"),
    ]
    assert answer_text(items) == "The product is #### 6"


def test_answer_text_ignores_non_text_parts():
    assert answer_text([assistant("nope", part_type="refusal")]) == ""


def test_answer_text_accepts_objects_as_well_as_dicts():
    class Part:
        type = "output_text"
        text = "#### 12"

    class Item:
        type = "message"
        role = "assistant"
        content = [Part()]

    assert answer_text([Item()]) == "#### 12"


@pytest.mark.parametrize("items", [None, [], [{"role": "user", "content": "hi"}], [{"type": "reasoning"}]])
def test_answer_text_is_empty_without_an_assistant_message(items):
    assert answer_text(items) == ""


@pytest.mark.parametrize(
    "text, expected",
    [
        ("#### 171304.4148", 171304.4148),
        ("work: 1 2 3\n#### -42.5", -42.5),
        ("#### 1,234.5", 1234.5),
        ("no marker, last number wins: 3 then 7.25", 7.25),
        ("#### about 9, not 11", 9.0),
        ("12 before the marker #### no number after", 12.0),
    ],
)
def test_extract_answer(text, expected):
    assert math.isclose(extract_answer(text), expected)


@pytest.mark.parametrize("text", [None, "", "no digits at all", "####", "- . ,"])
def test_extract_answer_none_when_no_number(text):
    assert extract_answer(text) is None


def test_reward_within_tolerance():
    assert reward("#### 171304.41", "171304.4148") == 1.0
    assert reward("#### 171304.40", "171304.4148") == 0.0


@pytest.mark.parametrize("text, truth", [("", "6"), ("garbage", "6"), ("#### 6", None), ("#### 6", "not a number"),
                                          ("#### 6", "nan"), ("#### inf", "6")])
def test_reward_zero_for_empty_or_malformed(text, truth):
    assert reward(text, truth) == 0.0
