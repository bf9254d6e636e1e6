# sdk: osmosis-ai[server]>=0.2,<0.3
# expect: ENT023 7:1
"""No Grader: the 0.2.23-0.2.31 submit check refuses it; eval and training need one."""
from osmosis_ai.rollout import AgentWorkflow


class OnlyWorkflow(AgentWorkflow):
    async def run(self, ctx):
        return None
