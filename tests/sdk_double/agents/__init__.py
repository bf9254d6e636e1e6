"""TEST DOUBLE of the third-party `agents` package (OpenAI Agents SDK): Agent, Runner, RunResult,
ModelSettings, FunctionTool, function_tool, MaxTurnsExceeded. Calls no model.

Runner asks ``agent.model.get_response(...)`` for Responses-API items; only the Osmosis double's
OsmosisRolloutModel implements it (and it needs the OsmosisMemorySession, as the contract says).
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import asdict, dataclass, field
from typing import Any, Callable

from osmosis_ai import _double


class MaxTurnsExceeded(RuntimeError):
    pass


@dataclass
class ModelSettings:
    temperature: float | None = None
    top_p: float | None = None
    max_tokens: int | None = None
    tool_choice: str | None = None
    parallel_tool_calls: bool | None = None
    extra_args: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        return {k: v for k, v in asdict(self).items() if v is not None}


@dataclass
class FunctionTool:
    name: str
    description: str
    fn: Callable[..., Any]
    params_json_schema: dict[str, Any] = field(default_factory=lambda: {"type": "object", "properties": {}})


def function_tool(fn: Callable[..., Any] | None = None, *, name_override: str | None = None,
                  description_override: str | None = None, **_: Any):
    def wrap(f: Callable[..., Any]) -> FunctionTool:
        return FunctionTool(name=name_override or f.__name__, description=description_override or (f.__doc__ or "").strip(), fn=f)

    return wrap(fn) if fn is not None else wrap


class Agent:
    def __init__(self, name: str, instructions: str | None = None, model: Any = None,
                 model_settings: ModelSettings | None = None, tools: list[Any] | None = None, **kwargs: Any):
        self.name = name
        self.instructions = instructions
        self.model = model
        self.model_settings = model_settings or ModelSettings()
        self.tools = list(tools or [])
        self.extra = kwargs


@dataclass
class RunResult:
    input: list[dict[str, Any]]
    new_items: list[dict[str, Any]]
    final_output: str
    last_agent: Agent


def _as_items(value: Any) -> list[dict[str, Any]]:
    return [{"role": "user", "content": value}] if isinstance(value, str) else [dict(i) for i in value]


def final_text(items: list[dict[str, Any]]) -> str:
    """The text of the last assistant message: its parts of ``type == "output_text"``."""
    for item in reversed(items):
        if item.get("type") == "message" and item.get("role") == "assistant":
            return "".join(p.get("text", "") for p in item.get("content", []) if p.get("type") == "output_text")
    return ""


class Runner:
    @classmethod
    async def run(cls, starting_agent: Agent, input: Any, *, context: Any = None, max_turns: int = 10,
                  session: Any = None, **_: Any) -> RunResult:
        model = starting_agent.model
        if not hasattr(model, "get_response"):
            raise RuntimeError(f"the agents double cannot call model {model!r}; use OsmosisRolloutModel")
        new_input = _as_items(input)
        history = list(await session.get_items()) if session is not None else []
        produced: list[dict[str, Any]] = []
        for _turn in range(max_turns):
            items = await model.get_response(
                system_instructions=starting_agent.instructions, input=history + new_input + produced,
                model_settings=starting_agent.model_settings, tools=starting_agent.tools, session=session,
            )
            produced += items
            calls = [i for i in items if i.get("type") == "function_call"]
            if not calls:
                break
            for call in calls:
                out = await _double.call_tool(starting_agent.tools, call["name"], json.loads(call["arguments"] or "{}"),
                                              lookup=lambda t: getattr(t, "name", ""))
                produced.append({"type": "function_call_output", "call_id": call["call_id"], "output": out})
        else:
            raise MaxTurnsExceeded(f"max_turns={max_turns} exceeded")
        if session is not None:
            await session.add_items(new_input + produced)
        return RunResult(input=new_input, new_items=produced, final_output=final_text(produced), last_agent=starting_agent)

    @classmethod
    def run_sync(cls, starting_agent: Agent, input: Any, **kwargs: Any) -> RunResult:
        return asyncio.run(cls.run(starting_agent, input, **kwargs))
