"""The SDK side: the workflow that runs the agent loop, the grader, the backend and the server app.

main.py (the entrypoint the configs name) re-exports what is defined here. Defining them in a
package module, not in main.py, keeps them importable by path from anywhere.
"""

from __future__ import annotations

from osmosis_ai.rollout import (
    AgentWorkflow,
    AgentWorkflowConfig,
    AgentWorkflowContext,
    AgentWorkflowOutput,
    Grader,
    GraderConfig,
    GraderContext,
    LocalBackend,
    get_rollout_context,
)
from osmosis_ai.rollout.server import create_rollout_server
from pydantic import Field

from .agent import run_agent_loop
from .policy import ChatCompletionsPolicy
from .rewards import compute_reward, last_assistant_text


class CalculatorConfig(AgentWorkflowConfig):
    # Policy calls per rollout; a policy still asking for tools after the last one scores 0.
    max_turns: int = Field(default=8, ge=1)
    # Sent with every policy call; the endpoint decides which model answers.
    sampling: dict[str, float | int] = Field(default_factory=lambda: {"temperature": 1.0, "max_tokens": 1024})


class CalculatorWorkflow(AgentWorkflow):
    async def run(self, ctx: AgentWorkflowContext) -> AgentWorkflowOutput:
        rollout = get_rollout_context()
        if rollout is None:
            raise RuntimeError("no active rollout: this workflow runs inside the rollout server")
        config = ctx.config if isinstance(ctx.config, CalculatorConfig) else workflow_config
        async with ChatCompletionsPolicy(
            rollout.chat_completions_url, rollout.api_key, params=config.sampling
        ) as policy:
            result = await run_agent_loop(policy, ctx.prompt, max_turns=config.max_turns)
        # The returned messages become the rollout's one sample: the grader's ctx.sample.
        return AgentWorkflowOutput(messages=result.messages, metrics=result.metrics())


class CalculatorGrader(Grader):
    async def grade(self, ctx: GraderContext) -> None:
        messages = ctx.sample.messages if ctx.sample is not None else None
        # ctx.label is the row's ground_truth.
        ctx.set_reward(compute_reward(last_assistant_text(messages), ctx.label))


workflow_config = CalculatorConfig(name="calculator")
grader_config = GraderConfig(name="calculator-grader")
backend = LocalBackend(
    workflow=CalculatorWorkflow,
    workflow_config=workflow_config,
    grader=CalculatorGrader,
    grader_config=grader_config,
)
app = create_rollout_server(backend=backend)
