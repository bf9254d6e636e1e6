# expect: ENT004 11:1
from osmosis_ai.rollout import AgentWorkflow


class First(AgentWorkflow):
    async def run(self, ctx):
        return None


Alias = First
class Second(AgentWorkflow):
    async def run(self, ctx):
        return None
