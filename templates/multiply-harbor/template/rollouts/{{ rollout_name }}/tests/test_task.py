"""The Harbor task folder holds what Harbor reads before a trial."""

import sys
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

TASK = Path(__file__).resolve().parent.parent / "task"


def test_task_toml_has_the_keys_harbor_reads():
    task = tomllib.loads((TASK / "task.toml").read_text(encoding="utf-8"))
    assert isinstance(task["version"], str)
    assert task["verifier"]["timeout_sec"] > 0
    assert task["agent"]["timeout_sec"] > 0
    env = task["environment"]
    assert env["build_timeout_sec"] > 0
    assert env["cpus"] >= 1 and env["memory_mb"] >= 512 and env["storage_mb"] >= 1024
    assert isinstance(env["allow_internet"], bool)


def test_dockerfile_installs_the_sdk():
    dockerfile = (TASK / "environment" / "Dockerfile").read_text(encoding="utf-8")
    instructions = [line for line in dockerfile.splitlines() if line.strip() and not line.startswith("#")]
    assert instructions[0].startswith("FROM ")
    assert "osmosis-ai[server]" in dockerfile
