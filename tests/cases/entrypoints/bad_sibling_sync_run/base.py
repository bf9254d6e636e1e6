from abc import ABC

from osmosis_ai.rollout import AgentWorkflow, Grader


class Shared(AgentWorkflow, ABC):
    def run(self, ctx):
        return None


class MyGrader(Grader):
    async def grade(self, ctx):
        return None
