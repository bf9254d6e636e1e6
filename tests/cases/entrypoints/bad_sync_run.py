# sdk: osmosis-ai[server]>=0.2,<0.3
# expect: ENT006 8:5
from osmosis_ai.rollout import AgentWorkflow, Grader


class MyWorkflow(AgentWorkflow):
    # a plain def: the SDK awaits run()
    def run(self, ctx):
        return None


class MyGrader(Grader):
    async def grade(self, ctx):
        return None
