# sdk: osmosis-ai[server]>=0.3.1,<0.4
# expect: ENT030 -
import os

from osmosis_ai.rollout import AgentWorkflow, Grader, LocalBackend
from osmosis_ai.rollout.server import create_rollout_server


class W(AgentWorkflow):
    async def run(self, ctx):
        return None


class G(Grader):
    async def grade(self, ctx):
        ctx.set_reward(1.0)

"""The app is built, but nothing starts it when eval run runs the file as a script."""
backend = LocalBackend(workflow=W, grader=G)
app = create_rollout_server(backend=backend)
