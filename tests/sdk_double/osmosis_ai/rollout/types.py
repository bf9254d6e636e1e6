"""TEST DOUBLE: configs and samples of `osmosis_ai.rollout` (contract section 2)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class ConcurrencyConfig(BaseModel):
    max_concurrent: int = Field(default=1, ge=1)


class AgentWorkflowConfig(BaseModel):
    """Pydantic model: ``name`` required, ``description``, ``concurrency.max_concurrent`` >= 1; extras allowed."""

    model_config = ConfigDict(extra="allow")
    name: str
    description: str | None = None
    concurrency: ConcurrencyConfig = Field(default_factory=ConcurrencyConfig)


class GraderConfig(AgentWorkflowConfig):
    """Same shape as AgentWorkflowConfig."""


@dataclass
class RolloutSample:
    id: str
    messages: list[Any] = field(default_factory=list)
    label: str | None = None
    reward: float | None = None
    metrics: dict[str, Any] = field(default_factory=dict)
    extra_fields: dict[str, Any] = field(default_factory=dict)
    remove_sample: bool = False
