"""TEST DOUBLE controls (the real `osmosis-ai` has no such module).

The double never calls a model. Whatever the policy "says" comes from what a test scripted here:
a string (every call gets it), a list of replies (consumed in order), or a callable taking the
conversation as plain chat messages and returning a reply. A reply is a string (the assistant's
text) or a dict ``{"content": str, "tool_calls": [{"name": str, "arguments": dict}]}`` to make the
integrations call tools.

``run_rollout`` plays the platform for one dataset row: builds the prompt from the row, runs the
workflow inside an active rollout, hands the recorded samples to the grader, and fails the rollout
when a sample ends without a finite reward (as the platform does).
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

Reply = "str | dict[str, Any]"
_policy: Any = None
policy_calls: list[dict[str, Any]] = []  # every policy call: {"messages": [...], "params": {...}, "tools": [...]}


class NoScriptedPolicy(RuntimeError):
    """A model call happened but no test scripted the policy's reply."""


class RolloutFailed(RuntimeError):
    """What the platform would report: the workflow or grader left the rollout unusable."""


def script_policy(policy: Any) -> None:
    """Set what the policy answers: a string, a list of replies (in order), or a callable(messages)."""
    global _policy
    _policy = list(policy) if isinstance(policy, (list, tuple)) else policy


def reset() -> None:
    """Forget the scripted policy and the recorded calls."""
    global _policy
    _policy = None
    policy_calls.clear()


def text_of(content: Any) -> str:
    """The text of a message's content in any of the shapes the integrations use."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, Mapping):
        return str(content.get("text") or "")
    if isinstance(content, (list, tuple)):
        return "".join(text_of(part) for part in content)
    return str(content)


def plain_messages(messages: list[Any]) -> list[dict[str, str]]:
    """Chat messages / Responses items / Strands messages as ``{"role", "content": str}``."""
    plain = []
    for m in messages:
        if isinstance(m, Mapping) and "role" in m:
            plain.append({"role": str(m["role"]), "content": text_of(m.get("content"))})
        elif isinstance(m, Mapping) and m.get("type") == "function_call_output":
            plain.append({"role": "tool", "content": str(m.get("output", ""))})
    return plain


def next_reply(messages: list[Any], *, params: Mapping[str, Any] | None = None, tools: list[Any] | None = None) -> dict[str, Any]:
    """Ask the scripted policy for its next reply, normalised to ``{"content", "tool_calls"}``."""
    global _policy
    plain = plain_messages(messages)
    policy_calls.append({"messages": plain, "params": dict(params or {}), "tools": list(tools or [])})
    if _policy is None:
        raise NoScriptedPolicy("the SDK double has no scripted policy: call osmosis_ai._double.script_policy(...) first")
    if isinstance(_policy, list):
        if not _policy:
            raise NoScriptedPolicy("the scripted policy ran out of replies")
        reply = _policy.pop(0)
    elif callable(_policy):
        reply = _policy(plain)
    else:
        reply = _policy
    if isinstance(reply, str):
        return {"content": reply, "tool_calls": []}
    return {"content": reply.get("content") or "", "tool_calls": list(reply.get("tool_calls") or [])}


def prompt_from_row(row: Mapping[str, Any]) -> list[dict[str, str]]:
    """The prompt the platform builds from a dataset row: system message, then user message."""
    prompt = []
    if row.get("system_prompt"):
        prompt.append({"role": "system", "content": str(row["system_prompt"])})
    prompt.append({"role": "user", "content": str(row["user_prompt"])})
    return prompt


@dataclass
class RolloutOutcome:
    samples: dict[str, Any]
    label: str | None
    workflow_result: Any = None
    rewards: dict[str, float | None] = field(default_factory=dict)


async def run_rollout_async(
    row: Mapping[str, Any],
    *,
    workflow: type,
    grader: type | None = None,
    workflow_config: Any = None,
    grader_config: Any = None,
    require_rewards: bool = True,
) -> RolloutOutcome:
    from osmosis_ai.rollout.context import ActiveRollout, AgentWorkflowContext, GraderContext

    label = row.get("ground_truth", row.get("label"))
    label = None if label is None else str(label)
    ctx = AgentWorkflowContext(prompt=prompt_from_row(row), config=workflow_config, metadata=dict(row.get("metadata") or {}))
    with ActiveRollout() as active:
        result = await workflow(workflow_config).run(ctx)
    samples = active.samples
    for sample in samples.values():
        sample.label = label
    if grader is not None:
        await grader(grader_config).grade(GraderContext(label=label, samples=samples))
    live = {sid: s for sid, s in samples.items() if not s.remove_sample}
    if require_rewards:
        if not live:
            raise RolloutFailed("the workflow recorded no sample (no integration agent/session was used)")
        for sid, sample in live.items():
            if sample.reward is None:
                raise RolloutFailed(f"sample {sid!r} ended without a reward")
            if not isinstance(sample.reward, (int, float)) or not math.isfinite(sample.reward):
                raise RolloutFailed(f"sample {sid!r} has a non-finite reward {sample.reward!r}")
    return RolloutOutcome(samples=samples, label=label, workflow_result=result,
                          rewards={sid: s.reward for sid, s in live.items()})


def run_rollout(row: Mapping[str, Any], **kwargs: Any) -> RolloutOutcome:
    """Synchronous :func:`run_rollout_async` (for tests without an event loop)."""
    return asyncio.run(run_rollout_async(row, **kwargs))


def run_backend(backend: Any, row: Mapping[str, Any], **kwargs: Any) -> RolloutOutcome:
    """Run a row through a LocalBackend / HarborBackend double's workflow and grader."""
    return run_rollout(row, workflow=backend.workflow, grader=backend.grader,
                       workflow_config=backend.workflow_config, grader_config=backend.grader_config, **kwargs)


def run_agent_loop(agent_loop: Any, messages: list[dict[str, Any]], **request_fields: Any) -> Any:
    """Remote protocol: run ``agent_loop`` on ``messages`` as the trainer would; returns its RolloutResult."""
    from osmosis_ai.rollout.remote import RolloutContext, RolloutRequest

    request = RolloutRequest(messages=messages, **request_fields)
    tools = list(agent_loop.get_tools(request))
    return asyncio.run(agent_loop.run(RolloutContext(request=request, tools=tools)))


async def call_tool(tools: list[Any], name: str, arguments: Mapping[str, Any], *, lookup: Callable[[Any], str]) -> str:
    """Run the tool called ``name`` with ``arguments``; an unknown tool or a raising tool gives an error text."""
    for tool in tools:
        if lookup(tool) == name:
            fn = getattr(tool, "fn", tool)
            try:
                value = fn(**dict(arguments))
                if asyncio.iscoroutine(value):
                    value = await value
            except Exception as err:  # noqa: BLE001  a tool error goes back to the model, as in the SDKs
                return f"Error: {type(err).__name__}: {err}"
            return str(value)
    return f"Error: unknown tool {name!r}"
