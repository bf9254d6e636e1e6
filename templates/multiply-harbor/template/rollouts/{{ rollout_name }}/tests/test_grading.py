"""Tests for grading.py: reading the answer text out of Strands messages. The scoring rule itself is
tested in test_scoring.py. No osmosis-ai or model needed: `python -m pytest` from this folder."""

from __future__ import annotations

import pytest

from grading import last_assistant_text, score


def test_last_assistant_text_takes_the_last_assistant_message_with_text():
    messages = [
        {"role": "system", "content": "multiply"},
        {"role": "user", "content": [{"text": "val1 = 2\nval2 = 3"}]},
        {"role": "assistant", "content": [{"toolUse": {"name": "calculator"}}]},
        {"role": "user", "content": [{"toolResult": {"content": [{"text": "6"}]}}]},
        {"role": "assistant", "content": [{"text": "The product is "}, {"text": "#### 6"}]},
    ]
    assert last_assistant_text(messages) == "The product is #### 6"


def test_last_assistant_text_reads_each_content_shape():
    chat = [{"role": "assistant", "content": "#### 1"}, {"role": "user", "content": "more"},
            {"role": "assistant", "content": "#### 2"}]
    tool_only_last = [{"role": "assistant", "content": "#### 4"},
                      {"role": "assistant", "content": [{"toolUse": {"name": "x"}}]}]
    assert last_assistant_text(chat) == "#### 2"
    assert last_assistant_text(tool_only_last) == "#### 4"
    assert last_assistant_text([{"role": "assistant", "content": {"text": "#### 5"}}]) == "#### 5"

    class Message:  # a live SDK object rather than a recorded dict
        role = "assistant"
        content = "#### 7"

    assert last_assistant_text([Message()]) == "#### 7"


@pytest.mark.parametrize("messages", [None, [], 5, [{"role": "user", "content": "hi"}],
                                      [{"role": "assistant", "content": None}], ["not a message"]])
def test_last_assistant_text_is_empty_without_assistant_text(messages):
    assert last_assistant_text(messages) == ""


def test_a_sample_is_graded_from_its_last_answer():
    messages = [{"role": "assistant", "content": [{"text": "#### 5"}]},
                {"role": "assistant", "content": [{"text": "Corrected: #### 6"}]}]
    assert score(last_assistant_text(messages), "6") == 1.0
    assert score(last_assistant_text(messages), "5") == 0.0
