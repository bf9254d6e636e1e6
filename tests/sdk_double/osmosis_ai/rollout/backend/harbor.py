"""TEST DOUBLE: `osmosis_ai.rollout.backend.harbor` (HarborBackend, TrialQueue). Runs nothing in Docker."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from osmosis_ai.rollout.backend import check_classes

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib


class TrialQueue:
    def __init__(self, n_concurrent: int = 1):
        if not isinstance(n_concurrent, int) or n_concurrent < 1:
            raise ValueError(f"n_concurrent must be an int >= 1, got {n_concurrent!r}")
        self.n_concurrent = n_concurrent


class HarborBackend:
    def __init__(self, *, orchestrator: TrialQueue, task_dir: str | Path, user_code_dir: str | Path,
                 workflow: type, grader: type | None = None, environment_config: Any = None,
                 workflow_config: Any = None, grader_config: Any = None):
        if not isinstance(orchestrator, TrialQueue):
            raise TypeError(f"orchestrator must be a TrialQueue, got {orchestrator!r}")
        check_classes(workflow, grader)
        self.orchestrator = orchestrator
        self.task_dir = Path(task_dir)
        self.user_code_dir = Path(user_code_dir)
        self.workflow = workflow
        self.grader = grader
        self.environment_config = environment_config
        self.workflow_config = workflow_config
        self.grader_config = grader_config

    def check_task_dir(self, base: Path | None = None) -> dict[str, Any]:
        """Double-only: what Harbor would read before a trial. Returns task.toml; raises on a bad task folder."""
        task_dir = self.task_dir if base is None or self.task_dir.is_absolute() else base / self.task_dir
        task = tomllib.loads((task_dir / "task.toml").read_text(encoding="utf-8"))
        for table, keys in {"verifier": ["timeout_sec"], "agent": ["timeout_sec"], "environment": ["build_timeout_sec"]}.items():
            for key in keys:
                if key not in task.get(table, {}):
                    raise ValueError(f"task.toml lacks [{table}] {key}")
        if not (task_dir / "environment" / "Dockerfile").is_file():
            raise FileNotFoundError(f"{task_dir}/environment/Dockerfile is missing")
        return task
