# sdk: osmosis-ai[server]>=0.2,<0.3
# expect: nothing
"""`import osmosis_ai.rollout` binds `osmosis_ai`; the bases are spelled out in full."""
import osmosis_ai.rollout


class MyWorkflow(osmosis_ai.rollout.AgentWorkflow):
    async def run(self, ctx):
        return None


class MyGrader(osmosis_ai.rollout.Grader):
    async def grade(self, ctx):
        return None
