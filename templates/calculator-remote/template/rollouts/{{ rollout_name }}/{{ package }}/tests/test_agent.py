import asyncio
import json

import pytest

from ..agent import run_agent_loop
from ..rewards import compute_reward, last_assistant_text

PROMPT = [
    {"role": "system", "content": "Use the tools."},
    {"role": "user", "content": "What is (15 + 5) * 3?"},
]


def tool_call(call_id, name, a, b):
    return {
        "id": call_id,
        "type": "function",
        "function": {"name": name, "arguments": json.dumps({"a": a, "b": b})},
    }


class ScriptedPolicy:
    """Answers with the scripted replies in order and keeps what it was sent."""

    def __init__(self, *replies):
        self.replies = list(replies)
        self.calls = []

    async def __call__(self, messages, tools):
        self.calls.append((messages, tools))
        return self.replies.pop(0)


def run(policy, max_turns=8):
    return asyncio.run(run_agent_loop(policy, PROMPT, max_turns=max_turns))


def test_tool_results_reach_the_policy_before_its_answer():
    policy = ScriptedPolicy(
        {"role": "assistant", "content": "", "tool_calls": [tool_call("c1", "add", 15, 5)]},
        {"role": "assistant", "content": "", "tool_calls": [tool_call("c2", "multiply", 20, 3)]},
        {"role": "assistant", "content": "#### 60"},
    )
    result = run(policy)
    assert len(policy.calls) == 3
    assert policy.calls[1][0][-1] == {"role": "tool", "tool_call_id": "c1", "content": "20"}
    assert policy.calls[2][0][-1] == {"role": "tool", "tool_call_id": "c2", "content": "60"}
    assert [spec["function"]["name"] for spec in policy.calls[0][1]] == [
        "add",
        "subtract",
        "multiply",
        "divide",
    ]
    assert result.answered and result.turns == 3 and result.tool_calls == 2 and result.tool_errors == 0
    assert compute_reward(last_assistant_text(result.messages), "60") == 1.0
    assert result.messages[:2] == PROMPT


def test_a_tool_error_goes_back_to_the_policy_and_the_loop_continues():
    policy = ScriptedPolicy(
        {"role": "assistant", "content": "", "tool_calls": [tool_call("c1", "divide", 1, 0)]},
        {"role": "assistant", "content": "Division by zero is undefined. #### 0"},
    )
    result = run(policy)
    assert policy.calls[1][0][-1]["content"].startswith("Error:")
    assert result.answered and result.tool_errors == 1
    assert result.metrics() == {
        "turns": 2.0,
        "tool_calls": 1.0,
        "tool_errors": 1.0,
        "answered": 1.0,
    }


def test_the_turn_limit_stops_a_policy_that_never_answers():
    endless = ScriptedPolicy(
        *[{"role": "assistant", "content": "", "tool_calls": [tool_call(f"c{i}", "add", i, 1)]} for i in range(5)]
    )
    result = run(endless, max_turns=3)
    assert result.turns == 3 and len(endless.calls) == 3 and not result.answered
    assert result.messages[-1]["role"] == "tool"
    assert compute_reward(last_assistant_text(result.messages), "3") == 0.0


def test_the_prompt_is_not_modified():
    prompt = [dict(message) for message in PROMPT]
    asyncio.run(run_agent_loop(ScriptedPolicy({"role": "assistant", "content": "#### 60"}), prompt, max_turns=1))
    assert prompt == PROMPT


def test_max_turns_must_be_positive():
    with pytest.raises(ValueError):
        run(ScriptedPolicy(), max_turns=0)
