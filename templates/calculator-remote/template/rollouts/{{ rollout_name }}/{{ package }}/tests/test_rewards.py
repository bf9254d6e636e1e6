import pytest

from ..rewards import compute_reward, extract_solution, last_assistant_text


def test_last_assistant_text_skips_tool_call_turns_without_text():
    messages = [
        {"role": "user", "content": "What is 2 + 2?"},
        {"role": "assistant", "content": "", "tool_calls": [{"id": "c1"}]},
        {"role": "tool", "tool_call_id": "c1", "content": "4"},
        {"role": "assistant", "content": "#### 4"},
    ]
    assert last_assistant_text(messages) == "#### 4"


@pytest.mark.parametrize(
    "messages",
    [None, [], [{"role": "user", "content": "hi"}], [{"role": "assistant", "content": None}]],
)
def test_last_assistant_text_empty(messages):
    assert last_assistant_text(messages) == ""


@pytest.mark.parametrize("text, expected", [("#### 42", 42.0), ("so #### -3.5", -3.5), ("#### 1 then #### 2", 2.0)])
def test_extract_solution(text, expected):
    assert extract_solution(text) == expected


@pytest.mark.parametrize("text", [None, "", "42", "#### forty-two"])
def test_extract_solution_none(text):
    assert extract_solution(text) is None


def test_compute_reward():
    assert compute_reward("#### 42", "42") == 1.0
    assert compute_reward("#### 42.0", "42") == 1.0
    assert compute_reward("#### 41", "42") == 0.0


@pytest.mark.parametrize("text, truth", [("", "42"), ("no marker 42", "42"), ("#### 42", None), ("#### 42", "abc")])
def test_compute_reward_zero_for_empty_or_malformed(text, truth):
    assert compute_reward(text, truth) == 0.0
