# sdk: osmosis-ai[server]>=0.2,<0.3
# expect: nothing
"""Imported under other names, and the class aliased: still one workflow and one grader."""
from osmosis_ai.rollout import AgentWorkflow as AW, Grader as G


class MyWorkflow(AW):
    async def run(self, ctx):
        return None


class MyGrader(G):
    async def grade(self, ctx):
        return None


Other = MyWorkflow
Workflow: type = MyWorkflow
AlsoGrader = MyGrader
