"""TEST DOUBLE of `osmosis_ai.rollout` (see tests/sdk_double/README.md). Not the real SDK."""

from osmosis_ai.rollout.backend import LocalBackend
from osmosis_ai.rollout.context import AgentWorkflowContext, GraderContext, get_rollout_context
from osmosis_ai.rollout.integrations.agents.strands import OsmosisRolloutModel, OsmosisStrandsAgent
from osmosis_ai.rollout.remote import (
    CompletionsResult,
    OpenAIFunctionParametersSchema,
    OpenAIFunctionPropertySchema,
    OpenAIFunctionSchema,
    OpenAIFunctionToolSchema,
    RolloutAgentLoop,
    RolloutContext,
    RolloutRequest,
    RolloutResult,
    create_app,
)
from osmosis_ai.rollout.server import create_rollout_server
from osmosis_ai.rollout.types import AgentWorkflowConfig, GraderConfig, RolloutSample
from osmosis_ai.rollout.workflow import AgentWorkflow, Grader

__all__ = [
    "AgentWorkflow", "AgentWorkflowConfig", "AgentWorkflowContext", "CompletionsResult", "Grader",
    "GraderConfig", "GraderContext", "LocalBackend", "OpenAIFunctionParametersSchema",
    "OpenAIFunctionPropertySchema", "OpenAIFunctionSchema", "OpenAIFunctionToolSchema",
    "OsmosisRolloutModel", "OsmosisStrandsAgent", "RolloutAgentLoop", "RolloutContext", "RolloutRequest",
    "RolloutResult", "RolloutSample", "create_app", "create_rollout_server", "get_rollout_context",
]
