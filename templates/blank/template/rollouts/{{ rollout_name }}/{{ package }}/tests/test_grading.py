import pytest

from ..grading import answer_text, score


def test_answer_text_reads_the_last_assistant_message():
    messages = [
        {"role": "user", "content": "q"},
        {"role": "assistant", "content": [{"text": "first"}]},
        {"role": "assistant", "content": "final"},
    ]
    assert answer_text(messages) == "final"


@pytest.mark.parametrize(
    "messages",
    [None, [], [{"role": "user", "content": "q"}], [{"role": "assistant", "content": None}]],
)
def test_answer_text_empty(messages):
    assert answer_text(messages) == ""


def test_score_is_in_unit_range_and_handles_empty_and_missing_labels():
    assert score("Paris", "paris") == 1.0
    assert score("Lyon", "Paris") == 0.0
    assert score("", "Paris") == 0.0
    assert score("Paris", None) == 0.0
