"""TEST DOUBLE: execution backends of `osmosis_ai.rollout`. LocalBackend runs in-process."""

from __future__ import annotations

from typing import Any

from osmosis_ai.rollout.workflow import AgentWorkflow, Grader


def check_classes(workflow: Any, grader: Any) -> None:
    """The real backends take classes (they instantiate per rollout); catch instances and wrong types."""
    if not (isinstance(workflow, type) and issubclass(workflow, AgentWorkflow)):
        raise TypeError(f"workflow must be an AgentWorkflow subclass, got {workflow!r}")
    if grader is not None and not (isinstance(grader, type) and issubclass(grader, Grader)):
        raise TypeError(f"grader must be a Grader subclass or None, got {grader!r}")


class LocalBackend:
    def __init__(self, *, workflow: type, workflow_config: Any = None, grader: type | None = None, grader_config: Any = None):
        check_classes(workflow, grader)
        self.workflow = workflow
        self.workflow_config = workflow_config
        self.grader = grader
        self.grader_config = grader_config
