"""Issue 20, point 1: `osmosis validate FILE` and `osmosis doctor` give the same verdict on the same
file of a rollout, because both run the entrypoints family's one code path (_rollout_findings).

Before, validate checked the named file alone: an SDK import that 0.3 does not have, in a package
module the entrypoint imports, was doctor-only; a package module validated by itself got ENT003
(no workflow), which doctor never says of a module that is not the entrypoint.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from osmosis_workspace.cli import app

RUNNER = CliRunner()


@pytest.fixture(scope="module")
def multiply(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("parity") / "ws"
    result = RUNNER.invoke(app, ["init", str(root), "--template", "multiply", "--defaults", "--no-git"])
    assert result.exit_code == 0, result.output
    return root


def _json(*args: str) -> list[tuple]:
    result = RUNNER.invoke(app, [*args, "--format", "json"])
    assert result.exit_code in (0, 1), result.output
    return sorted((d["code"], d["path"], d["line"], d["column"]) for d in json.loads(result.stdout)["diagnostics"])


def _doctor_on(root: Path, *paths: str) -> list[tuple]:
    return [d for d in _json("doctor", str(root), "--select", "ENT") if d[1] in paths]


MUTATIONS = [
    # (file, old, new): each one the SDK refuses (ImportError / TypeError at import, or eval run fails)
    ("multiply_rollout/workflow.py", "from osmosis_ai.rollout import AgentWorkflow,", "from osmosis_ai.rollout import OsmosisStrandsAgent, AgentWorkflow,"),
    ("multiply_rollout/grader.py", "from osmosis_ai.rollout import", "from osmosis_ai.rollout.graders import"),
    ("main.py", "from multiply_rollout.grader import MultiplyGrader,", "from multiply_rollout.grader import MultiplyGraderX,"),
    ("main.py", "create_rollout_server(backend=backend)", "create_rollout_server()"),
    ("main.py", 'port=int(os.environ.get("_OSMOSIS_ROLLOUT_PORT", "8000"))', "port=8000"),
]


@pytest.mark.parametrize("file, old, new", MUTATIONS, ids=[f"{m[0]}:{m[2][:30]}" for m in MUTATIONS])
def test_validate_main_says_what_doctor_says(multiply: Path, file: str, old: str, new: str):
    rollout = multiply / "rollouts" / "multiply"
    path = rollout / file
    original = path.read_text()
    assert old in original
    path.write_text(original.replace(old, new))
    try:
        files = ["rollouts/multiply/main.py", f"rollouts/multiply/{file}"]
        doctor = _doctor_on(multiply, *files)
        validate = _json("validate", str(rollout / "main.py"))
        assert doctor, "the mutation must be a finding"
        assert validate == doctor
    finally:
        path.write_text(original)


def test_a_package_module_is_checked_as_a_module(multiply: Path):
    """doctor says nothing of grader.py; neither does validate (before: ENT003, no workflow)."""
    grader = multiply / "rollouts" / "multiply" / "multiply_rollout" / "grader.py"
    assert _json("validate", str(grader)) == []
    assert _doctor_on(multiply, "rollouts/multiply/multiply_rollout/grader.py") == []
