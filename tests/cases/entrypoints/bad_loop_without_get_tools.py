# expect: ENT012 5:1
from osmosis_ai import rollout


class MyLoop(rollout.RolloutAgentLoop):
    name = "calc"

    async def run(self, ctx):
        return None


agent_loop = MyLoop()
