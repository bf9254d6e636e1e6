# sdk: osmosis-ai[server,harbor]>=0.3.1,<0.4
# expect: ENT026 16:21
# expect: ENT026 17:19
# expect: ENT025 8:1
"""Config objects the SDK cannot find by import path: an instance of the SDK's own class, and an
instance kept in another module than its class's. Two of one kind in the namespace also warn."""
from pkg.configs import PLAIN, MOVED
from pkg.workflow import MultiplyGrader, MultiplyWorkflow, OTHER
from osmosis_ai.rollout.backend.harbor import HarborBackend

backend = HarborBackend(
    orchestrator=None,
    tasks_dir="task",
    agent=MultiplyWorkflow,
    grader=MultiplyGrader,
    workflow_config=PLAIN,
    grader_config=MOVED,
)

if __name__ == "__main__":
    import os

    import uvicorn
    from osmosis_ai.rollout.server import create_rollout_server

    uvicorn.run(create_rollout_server(backend=backend), port=int(os.environ["_OSMOSIS_ROLLOUT_PORT"]))
