"""What the scripted model says, read from the prompt it is given."""

from __future__ import annotations

import pytest

from osmosis_workspace.rehearse.answers import format_answer, judge_reply, score_scale
from osmosis_workspace.rehearse.cases import build, wrong_answer


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


def test_wrong_is_another_rows_truth_or_certainly_not_it():
    assert wrong_answer(["1", "2", "3"], 0) == "2"
    assert wrong_answer(["7", "7"], 1) == "8"
    assert wrong_answer(["yes", "yes"], 0) == "not yes"


def test_markers_are_unique_per_run_and_read_back():
    rows = [(5, {"user_prompt": "q", "ground_truth": "a"}), (9, {"user_prompt": "r", "ground_truth": "b"})]
    one, two = build(rows, probes=False), build(rows, probes=False)
    assert one.nonce != two.nonce
    assert [c.pass_name for c in one.cases] == ["gold", "gold", "wrong", "wrong", "empty", "empty"]
    assert [c.source_row for c in one.cases] == [5, 9, 5, 9, 5, 9]
    assert all(one.case_in(f"preamble {c.prompt} tail") == c for c in one.cases)
    assert one.case_in(two.cases[0].prompt) is None
    assert [c.pass_name for c in build(rows, with_gold=False, probes=False).cases] == ["wrong", "wrong", "empty", "empty"]
