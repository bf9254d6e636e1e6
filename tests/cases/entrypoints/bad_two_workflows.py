# sdk: osmosis-ai[server]>=0.2,<0.3
# expect: ENT004 12:1
from osmosis_ai.rollout import AgentWorkflow, Grader


class First(AgentWorkflow):
    async def run(self, ctx):
        return None


Alias = First
class Second(AgentWorkflow):
    async def run(self, ctx):
        return None


class MyGrader(Grader):
    async def grade(self, ctx):
        return None
