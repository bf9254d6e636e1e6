# sdk: osmosis-ai[server]>=0.2,<0.3
# expect: nothing
"""0.2 code pinned to 0.2 (`>=0.2,<0.3` resolves to 0.2.31): clean."""
import os

from osmosis_ai.rollout import (
    AgentWorkflow,
    Grader,
    LocalBackend,
    OsmosisRolloutModel,
    OsmosisStrandsAgent,
    create_rollout_server,
)


class MultiplyWorkflow(AgentWorkflow):
    async def run(self, ctx):
        await OsmosisStrandsAgent(name="m", model=OsmosisRolloutModel(params={}), messages=ctx.prompt).invoke_async()


class MultiplyGrader(Grader):
    async def grade(self, ctx):
        for sample_id in ctx.samples:
            ctx.set_sample_reward(sample_id, 1.0)


app = create_rollout_server(backend=LocalBackend(workflow=MultiplyWorkflow, grader=MultiplyGrader))

if __name__ == "__main__":
    import uvicorn

    uvicorn.run(app, port=int(os.environ.get("_OSMOSIS_ROLLOUT_PORT", "8000")))
