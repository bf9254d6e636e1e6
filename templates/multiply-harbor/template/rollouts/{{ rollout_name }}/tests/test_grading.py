import math

import pytest

from grading import answer_text, extract_answer, reward


def test_answer_text_takes_the_last_assistant_message_in_any_content_shape():
    messages = [
        {"role": "system", "content": "multiply"},
        {"role": "user", "content": [{"text": "val1 = 2\nval2 = 3"}]},
        {"role": "assistant", "content": [{"toolUse": {"name": "calculator"}}]},
        {"role": "user", "content": [{"toolResult": {"content": [{"text": "6"}]}}]},
        {"role": "assistant", "content": [{"text": "The product is "}, {"text": "#### 6"}]},
    ]
    assert answer_text(messages) == "The product is #### 6"
    assert answer_text([{"role": "assistant", "content": "#### 7"}]) == "#### 7"


@pytest.mark.parametrize("messages", [None, [], [{"role": "user", "content": "hi"}],
                                      [{"role": "assistant", "content": None}], ["not a message"]])
def test_answer_text_is_empty_without_assistant_text(messages):
    assert answer_text(messages) == ""


@pytest.mark.parametrize("text, expected", [("#### 171304.4148", 171304.4148), ("#### -1,000.5", -1000.5),
                                            ("last one: 3 and 8", 8.0), ("#### 9 not 11", 9.0)])
def test_extract_answer(text, expected):
    assert math.isclose(extract_answer(text), expected)


@pytest.mark.parametrize("text", [None, "", "no digits", "####"])
def test_extract_answer_none(text):
    assert extract_answer(text) is None


def test_reward():
    assert reward("#### 171304.41", "171304.4148") == 1.0
    assert reward("#### 171304.39", "171304.4148") == 0.0


@pytest.mark.parametrize("text, truth", [("", "6"), ("???", "6"), ("#### 6", None), ("#### 6", "six")])
def test_reward_zero_for_empty_or_malformed(text, truth):
    assert reward(text, truth) == 0.0
