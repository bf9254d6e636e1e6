"""TEST DOUBLE: `osmosis_ai.rollout.integrations.agents.openai_agents`
(OsmosisAgent, OsmosisRolloutModel, OsmosisMemorySession).

The session records the sample (under its ``name``); without it the model call fails, as in the SDK.
Samples hold Responses-API items; the answer text is in parts of ``type == "output_text"``.
"""

from __future__ import annotations

import json
from typing import Any

from agents import Agent as _Agent
from agents import ModelSettings
from osmosis_ai import _double
from osmosis_ai.rollout.context import require_rollout


class OsmosisMemorySession:
    def __init__(self, name: str, **_: Any):
        self.name = name
        self.items: list[dict[str, Any]] = []
        self.sample = require_rollout("OsmosisMemorySession").register_sample(name)

    async def get_items(self, limit: int | None = None) -> list[dict[str, Any]]:
        return list(self.items[-limit:] if limit else self.items)

    async def add_items(self, items: list[dict[str, Any]]) -> None:
        self.items.extend(items)
        self.sample.messages = list(self.items)

    async def pop_item(self) -> dict[str, Any] | None:
        item = self.items.pop() if self.items else None
        self.sample.messages = list(self.items)
        return item

    async def clear_session(self) -> None:
        self.items.clear()
        self.sample.messages = []


class OsmosisRolloutModel:
    """Placeholder model: the platform routes its calls to the policy being trained."""

    def __init__(self, **kwargs: Any):
        self.kwargs = kwargs

    async def get_response(self, *, system_instructions: str | None, input: list[dict[str, Any]],
                           model_settings: ModelSettings | None, tools: list[Any], session: Any = None) -> list[dict[str, Any]]:
        if not isinstance(session, OsmosisMemorySession):
            raise RuntimeError("OsmosisRolloutModel needs Runner.run(..., session=OsmosisMemorySession(name=...)); "
                               "the session is what records the sample")
        seen = ([{"role": "system", "content": system_instructions}] if system_instructions else []) + list(input)
        params = model_settings.to_dict() if model_settings is not None else {}
        reply = _double.next_reply(seen, params=params, tools=[getattr(t, "name", "") for t in tools])
        items: list[dict[str, Any]] = []
        if reply["content"]:
            items.append({"type": "message", "role": "assistant",
                          "content": [{"type": "output_text", "text": reply["content"], "annotations": []}]})
        for i, call in enumerate(reply["tool_calls"]):
            items.append({"type": "function_call", "call_id": f"call_{len(input)}_{i}", "name": call["name"],
                          "arguments": json.dumps(call.get("arguments", {}))})
        return items


class OsmosisAgent(_Agent):
    def __init__(self, name: str, *, model: OsmosisRolloutModel, **kwargs: Any):
        if not isinstance(model, OsmosisRolloutModel):
            raise TypeError(f"OsmosisAgent needs model=OsmosisRolloutModel(), got {model!r}")
        super().__init__(name=name, model=model, **kwargs)
