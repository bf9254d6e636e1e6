# sdk: osmosis-ai==0.2.17
# expect: ENT014 6:1
from osmosis_ai.rollout import RolloutAgentLoop as Loop


class MyLoop(Loop):
    name: str = "calc"

    def get_tools(self, request):
        return []

    async def run(self, ctx):
        return None


def make():
    return MyLoop()  # inside a function: not a module-level instance
