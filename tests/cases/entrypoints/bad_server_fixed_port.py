# sdk: osmosis-ai[server]>=0.3.1,<0.4
# expect: ENT029 25:5
import os

from osmosis_ai.rollout import AgentWorkflow, Grader, LocalBackend
from osmosis_ai.rollout.server import create_rollout_server


class W(AgentWorkflow):
    async def run(self, ctx):
        return None


class G(Grader):
    async def grade(self, ctx):
        ctx.set_reward(1.0)

"""A hard-coded port: eval run waits on the port it put in _OSMOSIS_ROLLOUT_PORT."""
backend = LocalBackend(workflow=W, grader=G)
app = create_rollout_server(backend=backend)

if __name__ == "__main__":
    import uvicorn

    uvicorn.run(app, host="0.0.0.0", port=8000)
