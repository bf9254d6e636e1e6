"""TEST DOUBLE of the third-party `strands` package (Strands Agents): `Agent`, `tool`. Calls no model.

Only ``OsmosisStrandsAgent`` (tests/sdk_double/osmosis_ai/...) can talk to the scripted policy; a plain
``Agent`` with any other model fails loudly, which is what a template hard-coding a model deserves.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from osmosis_ai import _double

MAX_TOOL_ROUNDS = 20


def tool(fn: Callable[..., Any] | None = None, *, name: str | None = None):
    """Mark a function as a tool (the real decorator also derives a JSON schema from it)."""

    def mark(f: Callable[..., Any]) -> Callable[..., Any]:
        f.tool_name = name or f.__name__  # type: ignore[attr-defined]
        return f

    return mark(fn) if fn is not None else mark


def tool_name(t: Any) -> str:
    return getattr(t, "tool_name", None) or getattr(t, "__name__", "") or getattr(t, "name", "")


@dataclass
class AgentResult:
    stop_reason: str
    message: dict[str, Any]

    def __str__(self) -> str:
        return _double.text_of(self.message.get("content"))


class Agent:
    def __init__(self, model: Any = None, messages: list[dict[str, Any]] | None = None, tools: list[Any] | None = None,
                 system_prompt: str | None = None, name: str | None = None, **kwargs: Any):
        self.model = model
        self.messages: list[dict[str, Any]] = list(messages or [])
        self.tools = list(tools or [])
        self.system_prompt = system_prompt
        self.name = name
        self.extra = kwargs

    def _model_params(self) -> dict[str, Any]:
        raise RuntimeError("the strands double cannot call a real model; use OsmosisRolloutModel with OsmosisStrandsAgent")

    def _after_turn(self) -> None:
        """Hook: OsmosisStrandsAgent records the sample here."""

    async def invoke_async(self, prompt: str | None = None, **kwargs: Any) -> AgentResult:
        params = self._model_params()
        if prompt:
            self.messages.append({"role": "user", "content": [{"text": prompt}]})
        for _ in range(MAX_TOOL_ROUNDS):
            seen = ([{"role": "system", "content": self.system_prompt}] if self.system_prompt else []) + self.messages
            reply = _double.next_reply(seen, params=params, tools=[tool_name(t) for t in self.tools])
            blocks: list[dict[str, Any]] = [{"text": reply["content"]}] if reply["content"] else []
            calls = [dict(c, toolUseId=f"tooluse_{len(self.messages)}_{i}") for i, c in enumerate(reply["tool_calls"])]
            blocks += [{"toolUse": {"toolUseId": c["toolUseId"], "name": c["name"], "input": c.get("arguments", {})}} for c in calls]
            message = {"role": "assistant", "content": blocks}
            self.messages.append(message)
            self._after_turn()
            if not calls:
                return AgentResult(stop_reason="end_turn", message=message)
            results = []
            for c in calls:
                out = await _double.call_tool(self.tools, c["name"], c.get("arguments", {}), lookup=tool_name)
                results.append({"toolResult": {"toolUseId": c["toolUseId"], "status": "success", "content": [{"text": out}]}})
            self.messages.append({"role": "user", "content": results})
            self._after_turn()
        raise RuntimeError(f"the agent made more than {MAX_TOOL_ROUNDS} tool rounds")
