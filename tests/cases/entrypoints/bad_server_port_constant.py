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

"""The port's variable name held in a module-level constant, not the one eval run sets."""
PORT_VARIABLE = "ROLLOUT_LISTEN"
backend = LocalBackend(workflow=W, grader=G)
app = create_rollout_server(backend=backend)

if __name__ == "__main__":
    import uvicorn

    uvicorn.run(app, port=int(os.environ.get(PORT_VARIABLE, "8000")))
