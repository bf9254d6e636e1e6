# sdk: osmosis-ai[server]>=0.3.1,<0.4
# expect: nothing
"""Imports the code already expects may fail are no finding: the except branch runs instead."""
try:
    from osmosis_ai.rollout import OsmosisStrandsAgent
except ImportError:
    OsmosisStrandsAgent = None

try:
    from helpers_that_may_exist import speedup  # noqa: F401
except (ModuleNotFoundError, AttributeError):
    speedup = None

from osmosis_ai.rollout import AgentWorkflow, Grader


class W(AgentWorkflow):
    async def run(self, ctx):
        return None


class G(Grader):
    async def grade(self, ctx):
        ctx.set_reward(1.0)
