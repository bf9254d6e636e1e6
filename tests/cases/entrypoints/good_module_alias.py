# sdk: osmosis-ai[server]>=0.2,<0.3
# expect: nothing
"""Bases reached through module aliases."""
import osmosis_ai.rollout as r
from osmosis_ai import rollout


class MyWorkflow(r.AgentWorkflow):
    async def run(self, ctx):
        return None


class MyGrader(rollout.Grader):
    async def grade(self, ctx):
        return None
