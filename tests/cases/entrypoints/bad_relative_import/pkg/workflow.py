from osmosis_ai.rollout import AgentWorkflow


class MultiplyWorkflow(AgentWorkflow):
    async def run(self, ctx):
        return None
