# sdk: osmosis-ai[server]>=0.3.1,<0.4
# expect: ENT019 12:5
# expect: ENT020 25:26
# expect: ENT022 34:46
"""0.2 code pinned to 0.3: one finding per root cause, each at the line to fix."""
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

    uvicorn.run(app, port=int(os.environ.get("ROLLOUT_PORT", "8000")))
