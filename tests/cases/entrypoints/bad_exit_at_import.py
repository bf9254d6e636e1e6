# expect: ENT039 18:1
import os

from osmosis_ai.rollout import AgentWorkflow, Grader, LocalBackend
from osmosis_ai.rollout.server import create_rollout_server


class W(AgentWorkflow):
    async def run(self, ctx):
        return None


class G(Grader):
    async def grade(self, ctx):
        ctx.set_reward(1.0)

"""An unconditional raise at module level."""
raise NotImplementedError("wire the grader first")
backend = LocalBackend(workflow=W, grader=G)
app = create_rollout_server(backend=backend)

if __name__ == "__main__":
    import uvicorn

    uvicorn.run(app, port=int(os.environ.get("_OSMOSIS_ROLLOUT_PORT", "8000")))
