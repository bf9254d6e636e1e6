"""TEST DOUBLE: `osmosis_ai.rollout.integrations.agents.strands` (OsmosisStrandsAgent, OsmosisRolloutModel).

Constructing an OsmosisStrandsAgent inside a rollout registers a sample under the agent's ``name``;
each turn updates that sample's messages (Strands format: content is a list of ``{"text": ...}``,
``{"toolUse": ...}`` and ``{"toolResult": ...}`` blocks).
"""

from __future__ import annotations

from typing import Any

from osmosis_ai.rollout.context import require_rollout
from strands import Agent as _StrandsAgent


class OsmosisRolloutModel:
    """Placeholder model: the platform routes its calls to the policy being trained."""

    def __init__(self, params: dict[str, Any] | None = None, **kwargs: Any):
        self.params = dict(params or {})
        self.config = {**kwargs, "params": self.params}

    def get_config(self) -> dict[str, Any]:
        return self.config


class OsmosisStrandsAgent(_StrandsAgent):
    def __init__(self, *, name: str, model: OsmosisRolloutModel, messages: list[dict[str, Any]] | None = None, **kwargs: Any):
        if not isinstance(model, OsmosisRolloutModel):
            raise TypeError(f"OsmosisStrandsAgent needs model=OsmosisRolloutModel(...), got {model!r}")
        super().__init__(model=model, messages=messages, name=name, **kwargs)
        self.sample = require_rollout("OsmosisStrandsAgent").register_sample(name)
        self.sample.messages = list(self.messages)

    def _model_params(self) -> dict[str, Any]:
        return self.model.params

    def _after_turn(self) -> None:
        self.sample.messages = list(self.messages)
