# sdk: osmosis-ai[server,harbor]>=0.3.1,<0.4
# expect: ENT021 30:5
# expect: ENT026 32:14
# expect: ENT026 33:21
# expect: ENT026 34:12
"""The 0.2 Harbor entrypoint pinned to 0.3: renamed arguments (one finding, at the first), and
objects that cannot travel by import path (each at its own argument)."""
from pathlib import Path

from harbor.trial.queue import TrialQueue
from osmosis_ai.rollout import AgentWorkflow, AgentWorkflowConfig, Grader
from osmosis_ai.rollout.backend.harbor import HarborBackend
from osmosis_ai.rollout.server import create_rollout_server

HERE = Path(__file__).resolve().parent


class MultiplyWorkflow(AgentWorkflow):
    async def run(self, ctx):
        return None


class MultiplyGrader(Grader):
    async def grade(self, ctx):
        ctx.set_reward(0.0)


backend = HarborBackend(
    orchestrator=TrialQueue(n_concurrent=2),
    task_dir=HERE / "task",
    user_code_dir=HERE,
    workflow=MultiplyWorkflow,
    workflow_config=AgentWorkflowConfig(name="multiply"),
    grader=MultiplyGrader,
)
app = create_rollout_server(backend=backend)

if __name__ == "__main__":
    import os

    import uvicorn

    uvicorn.run(app, port=int(os.environ["_OSMOSIS_ROLLOUT_PORT"]))
