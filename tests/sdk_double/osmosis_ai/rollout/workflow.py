"""TEST DOUBLE: the AgentWorkflow and Grader base classes of `osmosis_ai.rollout`."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any

from osmosis_ai.rollout.context import AgentWorkflowContext, GraderContext


class AgentWorkflow(ABC):
    def __init__(self, config: Any = None):
        self.config = config

    @abstractmethod
    async def run(self, ctx: AgentWorkflowContext) -> Any:
        raise NotImplementedError


class Grader(ABC):
    def __init__(self, config: Any = None):
        self.config = config

    @abstractmethod
    async def grade(self, ctx: GraderContext) -> Any:
        raise NotImplementedError
