# sdk: osmosis-ai[server]>=0.2,<0.3
# expect: ENT003 -
"""A home-made class called AgentWorkflow is not the SDK's."""


class AgentWorkflow:
    pass


class MyWorkflow(AgentWorkflow):
    async def run(self, ctx):
        return None
