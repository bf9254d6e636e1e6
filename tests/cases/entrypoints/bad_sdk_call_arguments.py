# sdk: osmosis-ai[server]>=0.3.1,<0.4
# expect: ENT028 21:11
# expect: ENT028 22:7
# expect: ENT028 23:9
import os

from osmosis_ai.rollout import AgentWorkflow, Grader, LocalBackend
from osmosis_ai.rollout.server import create_rollout_server


class W(AgentWorkflow):
    async def run(self, ctx):
        return None


class G(Grader):
    async def grade(self, ctx):
        ctx.set_reward(1.0)

"""Calls the 0.3 signatures refuse (TypeError at import): no workflow=, no backend=, an unknown keyword."""
backend = LocalBackend()
app = create_rollout_server()
other = LocalBackend(workflow=W, grader=G, graders=G)

if __name__ == "__main__":
    import uvicorn

    uvicorn.run(app, port=int(os.environ.get("_OSMOSIS_ROLLOUT_PORT", "8000")))

