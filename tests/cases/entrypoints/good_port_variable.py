# sdk: osmosis-ai[server]>=0.3.1,<0.4
# expect: nothing
import os

from osmosis_ai.rollout import AgentWorkflow, Grader, LocalBackend
from osmosis_ai.rollout.server import create_rollout_server


class W(AgentWorkflow):
    async def run(self, ctx):
        return None


class G(Grader):
    async def grade(self, ctx):
        ctx.set_reward(1.0)

"""The port read into a variable first, and the server started in a function the guard calls."""
backend = LocalBackend(workflow=W, grader=G)
app = create_rollout_server(backend=backend)
PORT = int(os.environ["_OSMOSIS_ROLLOUT_PORT"])


def serve() -> None:
    import uvicorn

    uvicorn.run(app, host="0.0.0.0", port=PORT)


if __name__ == "__main__":
    serve()
