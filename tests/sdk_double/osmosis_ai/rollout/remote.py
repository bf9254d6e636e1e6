"""TEST DOUBLE: the remote rollout protocol of `osmosis_ai.rollout` (RolloutAgentLoop and friends).

``RolloutContext.chat`` asks the scripted policy (osmosis_ai._double) instead of the trainer's
``/v1/chat/completions``; ``create_app`` returns an object holding the loop, not a FastAPI app.
"""

from __future__ import annotations

import json
import uuid
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, Field

from osmosis_ai import _double


class OpenAIFunctionPropertySchema(BaseModel):
    type: str
    description: str | None = None
    enum: list[str] | None = None


class OpenAIFunctionParametersSchema(BaseModel):
    type: str = "object"
    properties: dict[str, OpenAIFunctionPropertySchema] = Field(default_factory=dict)
    required: list[str] = Field(default_factory=list)


class OpenAIFunctionSchema(BaseModel):
    name: str
    description: str | None = None
    parameters: OpenAIFunctionParametersSchema = Field(default_factory=OpenAIFunctionParametersSchema)


class OpenAIFunctionToolSchema(BaseModel):
    type: str = "function"
    function: OpenAIFunctionSchema


class RolloutRequest(BaseModel):
    rollout_id: str = Field(default_factory=lambda: uuid.uuid4().hex)
    server_url: str = "http://trainer.double.invalid"
    messages: list[dict[str, Any]]
    completion_params: dict[str, Any] = Field(default_factory=dict)
    max_turns: int = Field(default=10, ge=1)
    max_tokens_total: int = 8192
    metadata: dict[str, Any] = Field(default_factory=dict)


@dataclass
class CompletionsResult:
    message: dict[str, Any]
    finish_reason: str = "stop"

    @property
    def tool_calls(self) -> list[dict[str, Any]]:
        return list(self.message.get("tool_calls") or [])

    @property
    def has_tool_calls(self) -> bool:
        return bool(self.tool_calls)


@dataclass
class RolloutResult:
    status: str
    final_messages: list[dict[str, Any]]
    finish_reason: str
    error_message: str | None = None
    metrics: dict[str, Any] | None = None
    reward: float | None = None


@dataclass
class RolloutContext:
    request: RolloutRequest
    tools: list[Any] = field(default_factory=list)
    num_tool_calls: int = 0
    events: list[dict[str, Any]] = field(default_factory=list)

    async def chat(self, messages: list[dict[str, Any]], **kwargs: Any) -> CompletionsResult:
        reply = _double.next_reply(messages, params=kwargs, tools=self.tools)
        message: dict[str, Any] = {"role": "assistant", "content": reply["content"]}
        if reply["tool_calls"]:
            message["tool_calls"] = [
                {"id": f"call_{i}", "type": "function",
                 "function": {"name": c["name"], "arguments": json.dumps(c.get("arguments", {}))}}
                for i, c in enumerate(reply["tool_calls"])
            ]
        return CompletionsResult(message=message, finish_reason="tool_calls" if reply["tool_calls"] else "stop")

    def complete(self, final_messages: list[dict[str, Any]], finish_reason: str = "stop", reward: float | None = None) -> RolloutResult:
        return RolloutResult("COMPLETED", list(final_messages), finish_reason, metrics=self._metrics(), reward=reward)

    def error(self, error_message: str, final_messages: list[dict[str, Any]] | None = None) -> RolloutResult:
        return RolloutResult("ERROR", list(final_messages or []), "error", error_message=error_message, metrics=self._metrics())

    def record_tool_call(self, latency_ms: float = 0.0) -> None:
        self.num_tool_calls += 1

    def log_event(self, event_type: str, **data: Any) -> None:
        self.events.append({"event": event_type, **data})

    def _metrics(self) -> dict[str, Any]:
        return {"num_tool_calls": self.num_tool_calls}


class RolloutAgentLoop(ABC):
    name: str

    @abstractmethod
    def get_tools(self, request: RolloutRequest) -> list[Any]:
        raise NotImplementedError

    @abstractmethod
    async def run(self, ctx: RolloutContext) -> RolloutResult:
        raise NotImplementedError

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if getattr(cls, "__abstractmethods__", None):
            return
        if not getattr(cls, "name", None):
            raise TypeError(f"Agent loop class {cls.__name__} must define a 'name' class attribute")


class RolloutApp:
    """Stands in for the FastAPI app ``create_app`` builds (POST /v1/rollout/init and the callbacks)."""

    def __init__(self, agent_loop: RolloutAgentLoop):
        self.agent_loop = agent_loop


def create_app(agent_loop: RolloutAgentLoop, **_: Any) -> RolloutApp:
    if not isinstance(agent_loop, RolloutAgentLoop):
        raise TypeError(f"create_app needs a RolloutAgentLoop instance, got {agent_loop!r}")
    return RolloutApp(agent_loop)
