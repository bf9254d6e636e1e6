# sdk: osmosis-ai[server]>=0.2,<0.3
# expect: nothing
"""The multiply rollout, Strands flavour: one workflow, one grader."""
import re

from osmosis_ai.rollout import (
    AgentWorkflow,
    AgentWorkflowContext,
    Grader,
    GraderContext,
    OsmosisRolloutModel,
    OsmosisStrandsAgent,
)


class MultiplyWorkflow(AgentWorkflow):
    async def run(self, ctx: AgentWorkflowContext) -> None:
        agent = OsmosisStrandsAgent(name="multiply", model=OsmosisRolloutModel(params={}), messages=ctx.prompt)
        await agent.invoke_async()


class MultiplyGrader(Grader):
    async def grade(self, ctx: GraderContext) -> None:
        for sample_id in ctx.samples:
            ctx.set_sample_reward(sample_id, 1.0 if re.search(r"####", "x") else 0.0)
