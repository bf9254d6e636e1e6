# expect: ENT028 20:11
# expect: ENT028 21:41
# expect: ENT028 22:7
import os

from osmosis_ai.rollout import AgentWorkflow, Grader, LocalBackend
from osmosis_ai.rollout.server import create_rollout_server


class W(AgentWorkflow):
    async def run(self, ctx):
        return None


class G(Grader):
    async def grade(self, ctx):
        ctx.set_reward(1.0)

"""None for the server's backend, a dict for the workflow config, a path without ':'."""
backend = LocalBackend(workflow=W, workflow_config={"name": "w"}, grader=G)
other = LocalBackend(workflow=W, grader="grading.G")
app = create_rollout_server(backend=None)

if __name__ == "__main__":
    import uvicorn

    uvicorn.run(app, port=int(os.environ.get("_OSMOSIS_ROLLOUT_PORT", "8000")))
