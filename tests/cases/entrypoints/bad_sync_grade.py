# expect: ENT007 12:5
from osmosis_ai.rollout import AgentWorkflow, Grader


class MyWorkflow(AgentWorkflow):
    async def run(self, ctx):
        return None


class MyGrader(Grader):
    @staticmethod
    def grade(ctx):
        return None
