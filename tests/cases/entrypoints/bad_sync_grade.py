# sdk: osmosis-ai[server]>=0.2,<0.3
# expect: ENT007 13:5
from osmosis_ai.rollout import AgentWorkflow, Grader


class MyWorkflow(AgentWorkflow):
    async def run(self, ctx):
        return None


class MyGrader(Grader):
    @staticmethod
    def grade(ctx):
        return None
