"""The agent loop: ask the policy, run the tool calls it asks for, repeat until it answers.

The policy is any async callable ``chat(messages, tools) -> assistant message`` (an OpenAI-format
dict); main.py passes the rollout's chat-completions endpoint, the tests pass a scripted one.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .tools import execute_tool_calls, tool_specs

Message = dict[str, Any]
Chat = Callable[[list[Message], list[dict[str, Any]]], Awaitable[Message]]


@dataclass
class LoopResult:
    messages: list[Message] = field(default_factory=list)
    turns: int = 0
    tool_calls: int = 0
    tool_errors: int = 0
    # False when the turn limit ran out while the policy still wanted tools.
    answered: bool = False

    def metrics(self) -> dict[str, float]:
        """Per-sample numbers the SDK records next to the reward."""
        return {
            "turns": float(self.turns),
            "tool_calls": float(self.tool_calls),
            "tool_errors": float(self.tool_errors),
            "answered": 1.0 if self.answered else 0.0,
        }


async def run_agent_loop(chat: Chat, prompt: Iterable[Mapping[str, Any]], *, max_turns: int) -> LoopResult:
    """Run up to ``max_turns`` policy calls; every tool call is answered before the next call."""
    if max_turns < 1:
        raise ValueError(f"max_turns must be at least 1, got {max_turns}")
    result = LoopResult(messages=[dict(message) for message in prompt])
    tools = tool_specs()
    for _ in range(max_turns):
        reply = await chat(list(result.messages), tools)
        result.turns += 1
        result.messages.append(reply)
        calls = reply.get("tool_calls") or []
        if not calls:
            result.answered = True
            break
        outputs = execute_tool_calls(calls)
        result.tool_calls += len(outputs)
        result.tool_errors += sum(output["content"].startswith("Error:") for output in outputs)
        result.messages.extend(outputs)
    return result
