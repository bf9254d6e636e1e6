from osmosis_ai.rollout import AgentWorkflow


class Complete(AgentWorkflow):
    async def run(self, ctx):
        return None
