# expect: ENT014 5:1
from osmosis_ai.rollout import RolloutAgentLoop as Loop


class MyLoop(Loop):
    name: str = "calc"

    def get_tools(self, request):
        return []

    async def run(self, ctx):
        return None


def make():
    return MyLoop()  # inside a function: not a module-level instance
