# sdk: osmosis-ai[server]>=0.3.1,<0.4
# expect: ENT031 8:1
"""A relative import: submit's synthetic package accepts it, `eval run` (a script) does not."""
import os

from osmosis_ai.rollout import LocalBackend
from osmosis_ai.rollout.server import create_rollout_server
from .pkg.workflow import MultiplyWorkflow
from pkg.grader import MultiplyGrader

backend = LocalBackend(workflow=MultiplyWorkflow, grader=MultiplyGrader)
app = create_rollout_server(backend=backend)

if __name__ == "__main__":
    import uvicorn

    uvicorn.run(app, port=int(os.environ["_OSMOSIS_ROLLOUT_PORT"]))
