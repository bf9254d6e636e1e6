"""What the scripted model says, read from the prompt it is given."""

from __future__ import annotations

import pytest

from osmosis_workspace.rehearse.answers import format_answer, judge_reply, score_scale
from osmosis_workspace.rehearse.answer_space import answer_space, read_label, wrong_answer
from osmosis_workspace.rehearse.cases import build


@pytest.mark.parametrize("instructions, expected", [
    ("give the product on its own final line, after '#### '", "#### 42"),
    ("Put the final answer in \\boxed{}.", "\\boxed{42}"),
    ("Wrap it in <answer></answer> tags.", "<answer>42</answer>"),
    ("End with 'Final Answer: X'.", "Final Answer: 42"),
    ("TODO(osmosis): the instructions every row shares.", "42"),
])
def test_answer_format_follows_the_instructions(instructions, expected):
    assert format_answer(instructions, "42") == expected


def test_empty_stays_empty():
    assert format_answer("#### then the number", "") == ""


@pytest.mark.parametrize("prompt, scale", [
    ("Score the ANSWER from 0 to 10 points", ("0", "10")),
    ("a number between 1 and 5", ("1", "5")),
    ("rate it out of 100", ("0", "100")),
    ("no scale at all", ("0", "1")),
])
def test_score_scale(prompt, scale):
    assert score_scale(prompt) == scale


def test_judge_reply_uses_the_label_the_judge_asks_for_or_none():
    assert judge_reply("from 0 to 10 points. End with `SCORE: <points>`", top=True).endswith("SCORE: 10")
    assert judge_reply("Rating: [[n]] from 1 to 10", top=False).endswith("Rating: [[1]]")
    assert judge_reply("Explain hashing to a newcomer.", top=True) is None
    # a rubric heading with "points:" is not the format line; the placeholder line is
    rubric = "Score the ANSWER from 0 to 10 points:\n- Correctness (0-4)\nEnd with one line `SCORE: <points>`."
    assert judge_reply(rubric, top=False).splitlines()[-1] == "SCORE: 0"


def _wrong(golds: list[str], index: int) -> str:
    labels = [read_label(g) for g in golds]
    return wrong_answer(labels, index, answer_space(labels, []))


def test_wrong_is_another_rows_truth_far_from_it_or_one_made_far():
    assert _wrong(["1", "20", "3"], 0) == "20"     # 20 is far from 1; the next row's 20 is taken
    assert _wrong(["7", "7"], 1) == "17"           # no other row helps: off by its own size, at least 10
    assert _wrong(["100", "101"], 0) == "200"      # 101 is within any tolerance of 100
    assert _wrong(["yes", "Yes"], 0) == "quartz"   # the same word in another case is no wrong answer


def test_fenced_code_is_a_format():
    assert format_answer("Answer with one ```python block holding the function.", "def f():\n    return 1") == \
        "```python\ndef f():\n    return 1\n```"


def test_the_rehearsal_rows_are_the_source_rows_exactly_and_each_prompts_cases_queue_in_order():
    rows = [(5, {"user_prompt": "q", "ground_truth": "a", "extra": 1}), (9, {"user_prompt": "r", "ground_truth": "b"})]
    one = build(rows, probes=False)
    assert [c.pass_name for c in one.cases] == ["gold", "gold", "wrong", "wrong", "empty", "empty"]
    assert [c.source_row for c in one.cases] == [5, 9, 5, 9, 5, 9]
    assert list(one.rows) == [rows[0][1], rows[1][1]] * 3          # nothing added to a prompt: no marker
    assert one.queue() == {"q": [0, 2, 4], "r": [1, 3, 5]}
    assert [c.pass_name for c in build(rows, with_gold=False, probes=False).cases] == ["wrong", "wrong", "empty", "empty"]
