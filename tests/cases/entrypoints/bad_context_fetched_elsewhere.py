# sdk: osmosis-ai[server]>=0.2,<0.3
# expect: ENT020 21:16
# expect: ENT020 26:16
# expect: ENT020 32:12
"""0.3 code pinned to 0.2, the context fetched under another name in a function with no context parameter
(the context-API check skips only functions that can hold no context: none here, the module calls it)."""
import os

import uvicorn
from osmosis_ai.rollout import AgentWorkflow, AgentWorkflowContext, Grader, GraderContext, LocalBackend, get_rollout_context
from osmosis_ai.rollout.integrations.agents.strands import OsmosisRolloutModel, OsmosisStrandsAgent
from osmosis_ai.rollout.server import create_rollout_server

from osmosis_ai.rollout import get_rollout_context as current_context


class MultiplyWorkflow(AgentWorkflow):
    async def run(self, ctx: AgentWorkflowContext) -> None:
        agent = OsmosisStrandsAgent(name="multiply", model=OsmosisRolloutModel(params={}), messages=ctx.prompt)
        await agent.invoke_async()
        assert get_rollout_context().get_sample() is not None


class MultiplyGrader(Grader):
    async def grade(self, ctx: GraderContext) -> None:
        text = ctx.sample.messages[-1]["content"] if ctx.sample else ""
        ctx.set_reward(1.0 if ctx.label and ctx.label in text else 0.0)


def this_sample():
    context = current_context()
    return context.get_sample()


app = create_rollout_server(backend=LocalBackend(workflow=MultiplyWorkflow, grader=MultiplyGrader))

if __name__ == "__main__":
    uvicorn.run(app, host="0.0.0.0", port=int(os.environ.get("_OSMOSIS_ROLLOUT_PORT", "8000")))
