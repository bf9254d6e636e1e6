"""Contract tests: each rendered rollout, loaded with the SDK TEST DOUBLE (tests/sdk_double), exposes
one workflow and one grader (or an agent loop), and gives the expected rewards for a correct and a
wrong scripted answer."""

from __future__ import annotations

from pathlib import Path

import pytest

from template_helpers import cli, concrete_subclasses, first_row, load_rollout_module


@pytest.fixture
def workspace(tmp_path):
    def make(template: str) -> Path:
        target = tmp_path / template
        result = cli("init", target, "--template", template, "--defaults", "--no-git")
        assert result.exit_code == 0, result.output
        return target

    return make


def discover(module, sdk_double):
    from osmosis_ai.rollout import AgentWorkflow, Grader

    workflows = concrete_subclasses(module, AgentWorkflow)
    graders = concrete_subclasses(module, Grader)
    assert len(workflows) == 1 and len(graders) == 1, (workflows, graders)
    return workflows[0], graders[0]


def _product_call(row):
    a, b = (float(line.split("=")[1]) for line in row["user_prompt"].splitlines())
    return a, b


def test_multiply_openai(workspace, sdk_double, monkeypatch):
    ws = workspace("multiply-openai")
    main = load_rollout_module(ws / "rollouts/multiply-openai/main.py", monkeypatch)
    workflow, grader = discover(main, sdk_double)
    row = first_row(ws, "multiply-openai")
    a, b = _product_call(row)

    sdk_double.script_policy([{"content": "", "tool_calls": [{"name": "multiply", "arguments": {"a": a, "b": b}}]},
                              f"The product is\n#### {row['ground_truth']}"])
    good = sdk_double.run_backend(main.backend, row)
    assert good.rewards == {"multiply-openai": 1.0}
    # the tool ran and its output went back to the model
    assert any(m["role"] == "tool" and m["content"] == str(round(a * b, 4)) for m in sdk_double.policy_calls[1]["messages"])
    # the sample holds Responses-API items; the grader read the output_text part
    items = good.samples["multiply-openai"].messages
    assert any(i.get("type") == "message" and i["content"][0]["type"] == "output_text" for i in items if isinstance(i, dict) and i.get("role") == "assistant")

    sdk_double.reset()
    sdk_double.script_policy("#### 1.5")
    assert sdk_double.run_rollout(row, workflow=workflow, grader=grader).rewards == {"multiply-openai": 0.0}
    sdk_double.reset()
    sdk_double.script_policy("")  # empty answer
    assert sdk_double.run_rollout(row, workflow=workflow, grader=grader).rewards == {"multiply-openai": 0.0}


def test_multiply_harbor(workspace, sdk_double, monkeypatch):
    ws = workspace("multiply-harbor")
    main = load_rollout_module(ws / "rollouts/multiply-harbor/main.py", monkeypatch)
    discover(main, sdk_double)
    from harbor.models.environment_type import EnvironmentType

    backend = main.backend
    assert backend.orchestrator.n_concurrent == 8
    assert backend.environment_config.type == EnvironmentType.DAYTONA
    assert backend.user_code_dir == ws / "rollouts/multiply-harbor"
    task = backend.check_task_dir()
    assert task["environment"]["allow_internet"] is False

    row = first_row(ws, "multiply-harbor")
    a, b = _product_call(row)
    sdk_double.script_policy([{"content": "", "tool_calls": [{"name": "calculator", "arguments": {"expression": f"{a} * {b}"}}]},
                              f"#### {row['ground_truth']}"])
    assert sdk_double.run_backend(backend, row).rewards == {"multiply-harbor": 1.0}
    sdk_double.reset()
    sdk_double.script_policy("I think it is 12")
    assert sdk_double.run_backend(backend, row).rewards == {"multiply-harbor": 0.0}


def test_calculator_remote_agent_loop(workspace, sdk_double, monkeypatch):
    ws = workspace("calculator-remote")
    server = load_rollout_module(ws / "rollouts/calculator-remote/server.py", monkeypatch)
    from osmosis_ai.rollout import RolloutAgentLoop

    loops = concrete_subclasses(server, RolloutAgentLoop)
    assert len(loops) == 1 and loops[0].name == "calculator-remote"
    assert isinstance(server.agent_loop, loops[0]) and server.app.agent_loop is server.agent_loop
    tools = server.agent_loop.get_tools(None)
    assert sorted(t["function"]["name"] for t in tools) == ["add", "divide", "multiply", "subtract"]

    messages = [{"role": "system", "content": "calculator"}, {"role": "user", "content": "What is 25 + 17?"}]
    sdk_double.script_policy([{"content": "", "tool_calls": [{"name": "add", "arguments": {"a": 25, "b": 17}}]}, "#### 42"])
    result = sdk_double.run_agent_loop(server.agent_loop, messages, metadata={"ground_truth": "42"})
    assert result.status == "COMPLETED" and result.reward == 1.0 and result.finish_reason == "stop"
    assert {"role": "tool", "tool_call_id": "call_0", "content": "42"} in result.final_messages
    assert result.metrics["num_tool_calls"] == 1

    sdk_double.reset()
    sdk_double.script_policy([{"content": "", "tool_calls": [{"name": "divide", "arguments": {"a": 1, "b": 0}}]}, "#### 41"])
    wrong = sdk_double.run_agent_loop(server.agent_loop, messages, metadata={"ground_truth": "42"})
    assert wrong.reward == 0.0
    tool_reply = next(m for m in wrong.final_messages if m["role"] == "tool")
    assert tool_reply["content"].startswith("Error:")  # divide by zero reached the model as a tool error

    sdk_double.reset()
    sdk_double.script_policy({"content": "", "tool_calls": [{"name": "add", "arguments": {"a": 1, "b": 1}}]})
    looping = sdk_double.run_agent_loop(server.agent_loop, messages, metadata={"ground_truth": "2"}, max_turns=3)
    assert looping.finish_reason == "max_turns" and looping.reward == 0.0


def test_llm_judge(workspace, sdk_double, monkeypatch):
    ws = workspace("llm-judge")
    main = load_rollout_module(ws / "rollouts/llm-judge/main.py", monkeypatch)
    workflow, grader = discover(main, sdk_double)
    row = first_row(ws, "llm-judge")

    class ScriptedJudge:
        def __init__(self, reply):
            self.reply, self.prompts = reply, []

        async def complete(self, prompt):
            self.prompts.append(prompt)
            return self.reply

    def grader_with(judge):
        class Scripted(grader):
            def __init__(self, config=None):
                super().__init__(config, judge_client=judge)

        return Scripted

    good_judge = ScriptedJudge("Accurate and clear.\nSCORE: 9")
    sdk_double.script_policy(row["ground_truth"])
    good = sdk_double.run_rollout(row, workflow=workflow, grader=grader_with(good_judge))
    assert good.rewards == {"llm-judge": 0.9}
    assert row["user_prompt"] in good_judge.prompts[0] and row["ground_truth"] in good_judge.prompts[0]

    bad_judge = ScriptedJudge("SCORE: 1")
    sdk_double.reset()
    sdk_double.script_policy("I don't know.")
    assert sdk_double.run_rollout(row, workflow=workflow, grader=grader_with(bad_judge)).rewards == {"llm-judge": 0.1}

    sdk_double.reset()
    sdk_double.script_policy(row["ground_truth"])
    unparsable = sdk_double.run_rollout(row, workflow=workflow, grader=grader_with(ScriptedJudge("looks fine")))
    assert unparsable.rewards == {"llm-judge": 1.0}  # fallback: word overlap with the reference

    # The default grader needs no key to construct (the key is read when the judge is called).
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    sdk_double.reset()
    sdk_double.script_policy("An index is a sorted structure.")
    offline = sdk_double.run_rollout(row, workflow=workflow, grader=grader)
    assert 0.0 <= offline.rewards["llm-judge"] <= 1.0  # judge call failed -> deterministic fallback


def test_blank(workspace, sdk_double, monkeypatch):
    ws = workspace("blank")
    main = load_rollout_module(ws / "rollouts/my-rollout/main.py", monkeypatch)
    workflow, grader = discover(main, sdk_double)
    row = {"system_prompt": "Capital cities.", "user_prompt": "France?", "ground_truth": "Paris"}
    sdk_double.script_policy("Paris")
    assert sdk_double.run_rollout(row, workflow=workflow, grader=grader).rewards == {"my-rollout": 1.0}
    sdk_double.reset()
    sdk_double.script_policy("Lyon")
    assert sdk_double.run_rollout(row, workflow=workflow, grader=grader).rewards == {"my-rollout": 0.0}
