# sdk: osmosis-ai==0.2.17
# expect: ENT012 6:1
from osmosis_ai import rollout


class MyLoop(rollout.RolloutAgentLoop):
    name = "calc"

    async def run(self, ctx):
        return None


agent_loop = MyLoop()
