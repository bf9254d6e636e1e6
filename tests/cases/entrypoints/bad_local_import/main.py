# sdk: osmosis-ai[server]>=0.3.1,<0.4
# expect: ENT027 8:1
# expect: ENT027 9:1
"""The rollout's own package imported by names and modules it does not have: ImportError on submit's import."""
import os

from osmosis_ai.rollout import LocalBackend
from pkg.grader import MultiplyGraderX
from pkg.workflw import MultiplyWorkflow
from osmosis_ai.rollout.server import create_rollout_server

backend = LocalBackend(workflow=MultiplyWorkflow, grader=MultiplyGraderX)
app = create_rollout_server(backend=backend)

if __name__ == "__main__":
    import uvicorn

    uvicorn.run(app, port=int(os.environ["_OSMOSIS_ROLLOUT_PORT"]))
