# sdk: osmosis-ai[server]>=0.2,<0.3
# expect: ENT005 16:1
import osmosis_ai.rollout as r


class W(r.AgentWorkflow):
    async def run(self, ctx):
        return None


class ExactGrader(r.Grader):
    async def grade(self, ctx):
        return None


class FuzzyGrader(ExactGrader):
    async def grade(self, ctx):
        return None
