# expect: ENT002 6:29
from osmosis_ai.rollout import AgentWorkflow


class MyWorkflow(AgentWorkflow):
    async def run(self, ctx)
        return None
