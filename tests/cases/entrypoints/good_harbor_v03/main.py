# sdk: osmosis-ai[server,harbor,strands]>=0.3.1,<0.4
# expect: nothing
"""Harbor under 0.3: classes and config objects live in a package module and travel by import path."""
from pathlib import Path

from harbor.trial.queue import TrialQueue
from osmosis_ai.rollout.backend.harbor import HarborBackend
from osmosis_ai.rollout.server import create_rollout_server

from multiply_rollout.workflow import GRADER_CONFIG, WORKFLOW_CONFIG, MultiplyGrader, MultiplyWorkflow

HERE = Path(__file__).resolve().parent

backend = HarborBackend(
    orchestrator=TrialQueue(n_concurrent=2),
    tasks_dir=HERE / "task",
    agent=MultiplyWorkflow,
    grader=MultiplyGrader,
    workflow_config=WORKFLOW_CONFIG,
    grader_config=GRADER_CONFIG,
)
app = create_rollout_server(backend=backend, lifespan=backend.prewarm_lifespan())

if __name__ == "__main__":
    import os

    import uvicorn

    uvicorn.run(app, port=int(os.environ["_OSMOSIS_ROLLOUT_PORT"]))
