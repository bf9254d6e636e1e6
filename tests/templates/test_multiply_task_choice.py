"""Issue 20, point 7: `rollout new NAME --template multiply` names what it writes after NAME, and the
template's `task` question offers a single-answer, no-tool starting point (one template, choices as
questions). The real SDK runs that variant end to end in tests/sdk_real (scenario
multiply-single-answer: no tools offered, rewards as the text grader gives them)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from osmosis_workspace.cli import app


def cli(*args) -> str:
    result = CliRunner().invoke(app, [str(a) for a in args])
    assert result.exit_code == 0, result.output
    return result.output


@pytest.fixture(scope="module")
def ws(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("task-choice") / "ws"
    cli("init", root, "--defaults")
    cli("rollout", "new", "trivia-qa", "--template", "multiply", "--defaults", "--data", "task=single-answer",
        "-w", root)
    cli("rollout", "new", "trivia-openai", "--template", "multiply", "--defaults", "--data", "task=single-answer",
        "--data", "integration=openai-agents", "-w", root)
    cli("rollout", "new", "big-sums", "--template", "multiply", "--defaults", "-w", root)
    subprocess.run(["git", "add", "-A"], cwd=root, check=True)
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-qm", "rollouts"],
                   cwd=root, check=True)
    return root


def _files(folder: Path) -> dict[str, str]:
    return {p.relative_to(folder).as_posix(): p.read_text() for p in folder.rglob("*")
            if p.is_file() and "__pycache__" not in p.parts and p.name != "uv.lock"}


@pytest.mark.parametrize("name, prefix", [("trivia-qa", "TriviaQa"), ("trivia-openai", "TriviaOpenai"),
                                          ("big-sums", "BigSums")])
def test_names_follow_the_rollout_name(ws, name, prefix):
    package = name.replace("-", "_") + "_rollout"
    main = (ws / "rollouts" / name / "main.py").read_text()
    assert f"from {package}.workflow import {prefix}Workflow, workflow_config" in main
    assert f"from {package}.grader import {prefix}Grader, grader_config" in main
    workflow = (ws / "rollouts" / name / package / "workflow.py").read_text()
    assert f"class {prefix}WorkflowConfig(AgentWorkflowConfig)" in workflow and f'name="{name}"' in workflow
    text = "".join(_files(ws / "rollouts" / name).values())
    assert not re.search(r"Multiply(Workflow|Grader)", text)


def test_single_answer_has_no_tool_and_no_multiply_task(ws):
    for name in ("trivia-qa", "trivia-openai"):
        rollout = ws / "rollouts" / name
        package = rollout / (name.replace("-", "_") + "_rollout")
        assert not (package / "tools.py").exists() and not (rollout / "tests" / "test_tools.py").exists()
        workflow = (package / "workflow.py").read_text()
        assert "tools=[]" in workflow and "multiply" not in workflow.lower()
        assert "parallel_tool_calls" not in workflow  # the API refuses it without tools
        for rel in ("README.md", "main.py", "pyproject.toml", f"{package.name}/__init__.py", f"{package.name}/grader.py"):
            assert "multipl" not in (rollout / rel).read_text().lower(), rel
        rows = [json.loads(line) for line in (ws / "data" / f"{name}.jsonl").read_text().splitlines()]
        assert len(rows) >= 4 and not any("val1" in r["user_prompt"] for r in rows)
        assert all("####" in r["system_prompt"] for r in rows)
    assert "val1 = " in (ws / "data" / "big-sums.jsonl").read_text()  # the multiply task stays the default
    assert (ws / "rollouts/big-sums/big_sums_rollout/tools.py").is_file()


def test_doctor_strict_is_clean_and_the_tests_pass(ws):
    result = CliRunner().invoke(app, ["doctor", str(ws), "--strict", "--format", "json"])
    found = [d for d in json.loads(result.stdout)["diagnostics"] if d["severity"] != "info"]
    assert found == [], found
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "rollouts"], cwd=ws,
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert re.search(r"\d+ passed", done.stdout)


def test_the_question_is_listed_with_its_choices():
    text = cli("template", "inspect", "multiply")
    assert "task (str)" in text and "single-answer" in text and "multiply" in text


def test_the_text_rule_grades_the_single_answer_dataset(ws):
    """Each row's label, as a model would write it (other case, a final period), scores 1.0; another
    row's label scores 0.0: the rule tells right from wrong on the shipped rows."""
    sys.path.insert(0, str(ws / "rollouts" / "trivia-qa"))
    try:
        from trivia_qa_rollout.scoring import score
    finally:
        sys.path.pop(0)
    rows = [json.loads(line) for line in (ws / "data" / "trivia-qa.jsonl").read_text().splitlines()]
    for i, row in enumerate(rows):
        assert score(f"Thinking.\n#### {row['ground_truth'].upper()}.", row["ground_truth"]) == 1.0
        other = rows[(i + 1) % len(rows)]["ground_truth"]
        assert score(f"#### {other}", row["ground_truth"]) == 0.0
