import asyncio
import math

import pytest

from ..judge import (
    RUBRIC,
    clamp,
    fallback_score,
    judge_answer,
    judge_prompt,
    last_text,
    parse_score,
)

REFERENCE = "An index is a sorted structure that lets the database find rows without scanning the table."


class ScriptedJudge:
    def __init__(self, reply=None, error=None):
        self.reply, self.error, self.prompts = reply, error, []

    async def complete(self, prompt):
        self.prompts.append(prompt)
        if self.error:
            raise self.error
        return self.reply


def run(coro):
    return asyncio.run(coro)


def test_prompt_holds_rubric_question_reference_and_answer():
    prompt = judge_prompt("What is an index?", "It speeds up lookups.", REFERENCE)
    assert (
        RUBRIC in prompt and "What is an index?" in prompt and REFERENCE in prompt and "It speeds up lookups." in prompt
    )


@pytest.mark.parametrize(
    "reply, expected",
    [
        ("Good.\nSCORE: 7", 0.7),
        ("score = 10", 1.0),
        ("SCORE: 3/5", 0.6),
        ("SCORE: 2 ... on reflection SCORE: 4", 0.4),
        ("SCORE: 15", 1.0),
        ("SCORE: -3", 0.0),
    ],
)
def test_parse_score_is_clamped(reply, expected):
    assert math.isclose(parse_score(reply), expected)


@pytest.mark.parametrize("reply", [None, "", "great answer!", "SCORE: ten", "SCORE: 1/0"])
def test_parse_score_none_when_unparsable(reply):
    assert parse_score(reply) is None


@pytest.mark.parametrize(
    "value, expected",
    [
        (-1, 0.0),
        (0.5, 0.5),
        (2, 1.0),
        (float("nan"), 0.0),
        (float("inf"), 1.0),
        (float("-inf"), 0.0),
    ],
)
def test_clamp(value, expected):
    assert clamp(value) == expected


def test_judge_score_is_used():
    judge = ScriptedJudge("SCORE: 8")
    assert run(judge_answer(judge, "What is an index?", "A sorted lookup structure.", REFERENCE)) == 0.8
    assert len(judge.prompts) == 1


def test_empty_answer_scores_zero_without_calling_the_judge():
    judge = ScriptedJudge("SCORE: 10")
    assert run(judge_answer(judge, "q", "   ", REFERENCE)) == 0.0
    assert judge.prompts == []


@pytest.mark.parametrize(
    "judge",
    [ScriptedJudge("I like it"), ScriptedJudge(None), ScriptedJudge(error=TimeoutError("slow"))],
)
def test_unparsable_or_failing_judge_falls_back_deterministically(judge):
    answer = "An index is a sorted structure so the database finds rows fast."
    first = run(judge_answer(judge, "q", answer, REFERENCE))
    assert first == fallback_score(answer, REFERENCE)
    assert 0.0 < first < 1.0
    assert run(judge_answer(judge, "q", answer, REFERENCE)) == first


def test_fallback_score_bounds():
    assert fallback_score(REFERENCE, REFERENCE) == 1.0
    assert fallback_score("completely unrelated words", REFERENCE) == 0.0
    assert fallback_score("anything", None) == 0.0
    assert fallback_score("", REFERENCE) == 0.0


def test_last_text_reads_chat_and_strands_shapes():
    messages = [
        {"role": "system", "content": "explain"},
        {"role": "user", "content": "What is an API?"},
        {"role": "assistant", "content": [{"text": "An API is "}, {"text": "a contract."}]},
    ]
    assert last_text(messages, "user") == "What is an API?"
    assert last_text(messages, "assistant") == "An API is a contract."
    assert last_text([], "assistant") == "" and last_text(None, "user") == ""
