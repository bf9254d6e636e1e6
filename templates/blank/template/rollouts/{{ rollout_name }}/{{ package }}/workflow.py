"""The SDK side: the workflow, the grader, the backend and the server app.

main.py (the entrypoint the configs name) re-exports what is defined here.
"""

from __future__ import annotations

from osmosis_ai.rollout import (
    AgentWorkflow,
    AgentWorkflowConfig,
    AgentWorkflowContext,
    Grader,
    GraderConfig,
    GraderContext,
    LocalBackend,
)
from osmosis_ai.rollout.integrations.agents.strands import (
    OsmosisRolloutModel,
    OsmosisStrandsAgent,
)
from osmosis_ai.rollout.server import create_rollout_server

from .grading import answer_text, score

# Sampling parameters for the policy; the platform supplies the model itself.
MODEL_PARAMS = {"max_tokens": 1024}


class Workflow(AgentWorkflow):
    async def run(self, ctx: AgentWorkflowContext) -> None:
        # ctx.prompt: the row's system_prompt, then its user_prompt.
        # One OsmosisStrandsAgent per run: it records the rollout's one sample (ctx.sample).
        agent = OsmosisStrandsAgent(
            name="agent",
            model=OsmosisRolloutModel(params=dict(MODEL_PARAMS)),
            # TODO(osmosis): give the agent the tools your task needs (tools=[...], see strands.tool).
            messages=ctx.prompt,
            callback_handler=None,
        )
        await agent.invoke_async()


class RolloutGrader(Grader):
    async def grade(self, ctx: GraderContext) -> None:
        # No sample means the workflow failed; set_reward then raises and the rollout fails with it.
        messages = ctx.sample.messages if ctx.sample is not None else None
        ctx.set_reward(score(answer_text(messages), ctx.label))


workflow_config = AgentWorkflowConfig(name="workflow")
grader_config = GraderConfig(name="grader")
backend = LocalBackend(
    workflow=Workflow,
    workflow_config=workflow_config,
    grader=RolloutGrader,
    grader_config=grader_config,
)
app = create_rollout_server(backend=backend)
