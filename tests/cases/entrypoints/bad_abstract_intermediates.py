# sdk: osmosis-ai[server]>=0.2,<0.3
# expect: ENT035 11:1
# expect: ENT035 26:1
"""Abstract intermediates (ABC, @abstractmethod, or no run/grade) are not concrete."""
import abc
from abc import ABC, abstractmethod

from osmosis_ai.rollout import AgentWorkflow, Grader


class DeclaredAbstract(AgentWorkflow, ABC):
    async def run(self, ctx):
        return await self.step(ctx)


class NoRun(AgentWorkflow):
    def helper(self):
        return 1


class AbstractRun(AgentWorkflow):
    @abstractmethod
    async def run(self, ctx): ...


class MetaAbstract(Grader, metaclass=abc.ABCMeta):
    async def grade(self, ctx):
        return None


class Concrete(DeclaredAbstract, NoRun):
    async def step(self, ctx):
        return None


class ConcreteGrader(MetaAbstract):
    pass
