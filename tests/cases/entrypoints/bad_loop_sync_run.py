# sdk: osmosis-ai==0.2.17
# expect: ENT013 12:5
from osmosis_ai.rollout import RolloutAgentLoop


class MyLoop(RolloutAgentLoop):
    name = "calc"

    def get_tools(self, request):
        return []

    def run(self, ctx):
        return None


agent_loop = MyLoop()
