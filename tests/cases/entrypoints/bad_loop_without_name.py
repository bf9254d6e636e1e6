# sdk: osmosis-ai==0.2.17
# expect: ENT011 6:1
from osmosis_ai.rollout import RolloutAgentLoop


class MyLoop(RolloutAgentLoop):
    def get_tools(self, request):
        return []

    async def run(self, ctx):
        return None


agent_loop = MyLoop()
