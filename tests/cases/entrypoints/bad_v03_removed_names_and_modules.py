# sdk: osmosis-ai[server,harbor]>=0.3.1,<0.4
# expect: ENT019 10:8
# expect: ENT019 11:62
# expect: ENT019 19:7
"""Under 0.3: a module that is gone, a never-released class, and a moved name reached through a
module alias (reported at its first use, once)."""
import os

import osmosis_ai.rollout as sdk
import osmosis_ai.rollout.validator
from osmosis_ai.rollout.backend.harbor import HarborBackend, HarborBackendV2


class Workflow(sdk.AgentWorkflow):
    async def run(self, ctx):
        return None


app = sdk.create_rollout_server(backend=sdk.LocalBackend(workflow=Workflow, grader="pkg.grading:Grader"))
again = sdk.create_rollout_server
port = int(os.environ["_OSMOSIS_ROLLOUT_PORT"])
native = HarborBackend(orchestrator=None, tasks_dir="tasks", agent="claude-code", task_mode="dataset")

if __name__ == "__main__":
    import uvicorn

    uvicorn.run(app, port=port)
