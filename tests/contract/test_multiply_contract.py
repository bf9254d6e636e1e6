"""The RENDERED multiply rollout honours the entrypoint contract (section 2), run against the SDK
TEST DOUBLE (tests/sdk_double): one workflow, one grader, every sample rewarded correctly."""

from __future__ import annotations

import importlib.util
import inspect
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROW = {"system_prompt": "Multiply. End with '#### <product>'.", "user_prompt": "val1 = -170.7625\nval2 = -1003.1735",
       "ground_truth": "171304.4148"}


@pytest.fixture
def rendered(make_workspace):
    return make_workspace(git=False)


@pytest.fixture
def entrypoint(rendered, sdk_double, monkeypatch):
    """The rendered main.py imported as the platform would: from its rollout folder."""
    rollout_dir = rendered / "rollouts" / "multiply"
    monkeypatch.syspath_prepend(str(rollout_dir))
    monkeypatch.delitem(sys.modules, "grading", raising=False)
    monkeypatch.delitem(sys.modules, "scoring", raising=False)
    spec = importlib.util.spec_from_file_location("multiply_main", rollout_dir / "main.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    yield module
    sys.modules.pop("grading", None)
    sys.modules.pop("scoring", None)


def concrete_subclasses(module, base):
    found = {obj for _, obj in vars(module).items()
             if inspect.isclass(obj) and issubclass(obj, base) and obj is not base and not inspect.isabstract(obj)}
    return sorted(found, key=lambda c: c.__name__)


def test_exactly_one_workflow_and_one_grader(entrypoint, sdk_double):
    from osmosis_ai.rollout import AgentWorkflow, Grader

    workflows = concrete_subclasses(entrypoint, AgentWorkflow)
    graders = concrete_subclasses(entrypoint, Grader)
    assert [c.__name__ for c in workflows] == ["MultiplyWorkflow"]
    assert [c.__name__ for c in graders] == ["MultiplyGrader"]
    assert inspect.iscoroutinefunction(workflows[0].run) and inspect.iscoroutinefunction(graders[0].grade)


def test_serves_itself_through_local_backend(entrypoint, sdk_double):
    from osmosis_ai.rollout import LocalBackend

    assert isinstance(entrypoint.backend, LocalBackend)
    assert entrypoint.app.backend is entrypoint.backend
    assert entrypoint.backend.workflow is entrypoint.MultiplyWorkflow
    assert entrypoint.backend.grader is entrypoint.MultiplyGrader
    source = Path(entrypoint.__file__).read_text()
    assert 'if __name__ == "__main__":' in source and 'os.environ.get("ROLLOUT_PORT", "8000")' in source


@pytest.mark.parametrize(("reply", "reward"), [
    ("-170.7625 * -1003.1735: both negative, so positive.\n#### 171304.4148", 1.0),
    ("The answer is 171,304.41.", 1.0),
    ("#### 171305", 0.0),
    ("I refuse.", 0.0),
    ("", 0.0),
])
def test_workflow_then_grader_rewards(entrypoint, sdk_double, reply, reward):
    sdk_double.script_policy(reply)
    outcome = sdk_double.run_backend(entrypoint.backend, ROW)
    assert outcome.rewards == {"multiply": reward}
    call = sdk_double.policy_calls[0]
    assert call["messages"] == [{"role": "system", "content": ROW["system_prompt"]},
                                {"role": "user", "content": ROW["user_prompt"]}]
    assert call["params"] == entrypoint.MODEL_PARAMS


def test_grader_scores_every_sample(entrypoint, sdk_double):
    from osmosis_ai.rollout import GraderContext, RolloutSample

    samples = {
        "a": RolloutSample(id="a", messages=[{"role": "assistant", "content": [{"text": "#### 6"}]}]),
        "b": RolloutSample(id="b", messages=[{"role": "assistant", "content": [{"text": "#### 7"}]}]),
        "c": RolloutSample(id="c", messages=[]),
    }
    import asyncio

    asyncio.run(entrypoint.MultiplyGrader().grade(GraderContext(label="6", samples=samples)))
    assert {k: s.reward for k, s in samples.items()} == {"a": 1.0, "b": 0.0, "c": 0.0}
    asyncio.run(entrypoint.MultiplyGrader().grade(GraderContext(label=None, samples=samples)))
    assert {s.reward for s in samples.values()} == {0.0}


def test_every_dataset_row_is_solvable_through_the_workflow(rendered, entrypoint, sdk_double):
    rows = [json.loads(line) for line in (rendered / "data/multiply.jsonl").read_text().splitlines()]
    for row in rows:
        sdk_double.script_policy(f"#### {row['ground_truth']}")
        assert sdk_double.run_backend(entrypoint.backend, row).rewards == {"multiply": 1.0}


def test_rendered_rollout_tests_pass(rendered):
    """The workspace's own tests, run the way AGENTS.md tells users to: from the rollout folder."""
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"],
                          cwd=rendered / "rollouts" / "multiply", capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert " passed" in proc.stdout and "failed" not in proc.stdout


def test_renamed_rollout_keeps_working(make_workspace, sdk_double, monkeypatch):
    ws = make_workspace(name="ws2", git=False, data=("rollout_name=times-two",))
    rollout_dir = ws / "rollouts" / "times-two"
    monkeypatch.syspath_prepend(str(rollout_dir))
    sys.modules.pop("grading", None)
    sys.modules.pop("scoring", None)
    spec = importlib.util.spec_from_file_location("times_two_main", rollout_dir / "main.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    sys.modules.pop("grading", None)
    sys.modules.pop("scoring", None)
    sdk_double.script_policy("#### 6")
    outcome = sdk_double.run_backend(module.backend, {"user_prompt": "val1 = 2\nval2 = 3", "ground_truth": "6"})
    assert outcome.rewards == {"times-two": 1.0}
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"], cwd=rollout_dir,
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
