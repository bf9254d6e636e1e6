"""TEST DOUBLE: the rollout contexts of `osmosis_ai.rollout`.

``ActiveRollout`` is the ambient per-rollout state (what ``get_rollout_context()`` returns): the
integrations register their samples in it, keyed by the agent's / session's ``name``.
"""

from __future__ import annotations

from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from osmosis_ai.rollout.types import RolloutSample

_active: ContextVar["ActiveRollout | None"] = ContextVar("osmosis_double_active_rollout", default=None)


@dataclass
class ActiveRollout:
    rollout_id: str = "double-rollout"
    samples: dict[str, RolloutSample] = field(default_factory=dict)

    def __enter__(self) -> "ActiveRollout":
        self._token = _active.set(self)
        return self

    def __exit__(self, *_: Any) -> None:
        _active.reset(self._token)

    def register_sample(self, name: str) -> RolloutSample:
        if not name:
            raise ValueError("an integration agent/session needs a non-empty name: samples are recorded under it")
        if name in self.samples:
            raise ValueError(f"a sample named {name!r} is already registered in this rollout; give each agent a unique name")
        sample = RolloutSample(id=name)
        self.samples[name] = sample
        return sample


def get_rollout_context() -> ActiveRollout | None:
    """The rollout being executed, or None outside a rollout."""
    return _active.get()


def require_rollout(what: str) -> ActiveRollout:
    active = _active.get()
    if active is None:
        raise RuntimeError(f"{what} must be created inside a rollout (AgentWorkflow.run); the SDK double found none")
    return active


@dataclass
class AgentWorkflowContext:
    prompt: list[dict[str, Any]]
    config: Any = None
    metadata: dict[str, Any] | None = None
    artifacts_dir: Path | None = None


@dataclass
class GraderContext:
    label: str | None = None
    samples: dict[str, RolloutSample] = field(default_factory=dict)
    metadata: dict[str, Any] | None = None
    artifacts_dir: Path | None = None

    def get_samples(self) -> list[RolloutSample]:
        return list(self.samples.values())

    def set_sample_reward(self, sample_id: str, reward: float) -> None:
        if sample_id not in self.samples:
            raise ValueError(f"unknown sample id {sample_id!r}; known: {sorted(self.samples)}")
        self.samples[sample_id].reward = reward
