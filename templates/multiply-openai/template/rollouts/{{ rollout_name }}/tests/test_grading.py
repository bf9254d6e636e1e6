"""Tests for grading.py: reading the answer text out of Responses-API items. The scoring rule itself
is tested in test_scoring.py. No osmosis-ai, agents or model needed: `python -m pytest` from this folder."""

from __future__ import annotations

import pytest

from grading import answer_text, reward


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


def test_answer_text_ignores_non_text_parts_and_non_message_items():
    assert answer_text([assistant("nope", part_type="refusal")]) == ""
    # a refusal after a real answer does not hide that answer
    assert answer_text([assistant("#### 6"), assistant("nope", part_type="refusal")]) == "#### 6"
    assert answer_text([assistant("#### 6"), {"type": "reasoning", "role": "assistant", "content": "#### 9"}]) == "#### 6"


def test_answer_text_accepts_objects_and_plain_string_content():
    class Part:
        type = "output_text"
        text = "#### 12"

    class Item:
        type = "message"
        role = "assistant"
        content = [Part()]

    assert answer_text([Item()]) == "#### 12"
    assert answer_text([{"role": "assistant", "content": "#### 3"}]) == "#### 3"


@pytest.mark.parametrize("items", [None, [], 5, [{"role": "user", "content": "hi"}], [{"type": "reasoning"}],
                                   [{"type": "message", "role": "assistant", "content": 7}]])
def test_answer_text_is_empty_without_an_assistant_message(items):
    assert answer_text(items) == ""


def test_a_sample_is_graded_from_its_last_answer():
    items = [assistant("#### 5"), assistant("Corrected: ", "#### 6")]
    assert reward(answer_text(items), "6") == 1.0
    assert reward(answer_text(items), "5") == 0.0
