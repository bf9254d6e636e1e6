# expect: ENT038 4:1
# expect: ENT038 9:1 pkg/grading.py
# expect: ENT027 21:43
import osmosis  # noqa: F401  (the SDK's module is osmosis_ai)
import os

import opentelemetry.trace  # noqa: F401  (opentelemetry-api)
import yaml  # noqa: F401  (pyyaml)
from osmosis_ai.rollout import AgentWorkflow, LocalBackend
from osmosis_ai.rollout.server import create_rollout_server

from pkg.grading import G  # noqa: F401


class W(AgentWorkflow):
    async def run(self, ctx):
        return None


"""A grader named by an import path the rollout's package does not define."""
backend = LocalBackend(workflow=W, grader="pkg.grading:Gradr")
app = create_rollout_server(backend=backend)

if __name__ == "__main__":
    import uvicorn

    uvicorn.run(app, port=int(os.environ.get("_OSMOSIS_ROLLOUT_PORT", "8000")))
