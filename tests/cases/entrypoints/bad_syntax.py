# sdk: osmosis-ai[server]>=0.2,<0.3
# expect: ENT002 7:29
from osmosis_ai.rollout import AgentWorkflow


class MyWorkflow(AgentWorkflow):
    async def run(self, ctx)
        return None
