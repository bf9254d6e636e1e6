# expect: nothing
"""A grader is optional."""
from osmosis_ai.rollout import AgentWorkflow


class OnlyWorkflow(AgentWorkflow):
    async def run(self, ctx):
        return None
