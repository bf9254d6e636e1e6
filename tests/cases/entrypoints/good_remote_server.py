# sdk: osmosis-ai==0.2.17
# expect: nothing
"""A remote-rollout server module: a RolloutAgentLoop with a name, get_tools, async run, an instance."""
from osmosis_ai.rollout import RolloutAgentLoop, RolloutContext, RolloutResult, create_app


class CalculatorLoop(RolloutAgentLoop):
    name = "calculator"

    def get_tools(self, request):
        return []

    async def run(self, ctx: RolloutContext) -> RolloutResult:
        return ctx.complete([])


agent_loop = CalculatorLoop()
app = create_app(agent_loop)
