"""The SDK TEST DOUBLE behaves as contract section 2 documents (other tests rely on it being faithful)."""

from __future__ import annotations

import pytest

ROW = {"system_prompt": "Multiply. Answer after '#### '.", "user_prompt": "val1 = 2\nval2 = 3", "ground_truth": "6"}


def last_text(sample) -> str:
    from osmosis_ai._double import text_of

    for m in reversed(sample.messages):
        if m.get("role") == "assistant":
            return text_of(m.get("content"))
    return ""


def strands_classes():
    from osmosis_ai.rollout import AgentWorkflow, Grader, OsmosisRolloutModel, OsmosisStrandsAgent

    class W(AgentWorkflow):
        async def run(self, ctx):
            agent = OsmosisStrandsAgent(name="solver", model=OsmosisRolloutModel(params={"temperature": 0.5}), messages=ctx.prompt)
            await agent.invoke_async()

    class G(Grader):
        async def grade(self, ctx):
            for sid, sample in ctx.samples.items():
                ctx.set_sample_reward(sid, 1.0 if last_text(sample).endswith(ctx.label) else 0.0)

    return W, G


def test_exports_cover_the_documented_api(sdk_double):
    import osmosis_ai.rollout as rollout
    from osmosis_ai.rollout.backend.harbor import HarborBackend, TrialQueue  # noqa: F401
    from osmosis_ai.rollout.integrations.agents.openai_agents import (  # noqa: F401
        OsmosisAgent,
        OsmosisMemorySession,
        OsmosisRolloutModel,
    )
    from osmosis_ai.rollout.integrations.agents.strands import OsmosisStrandsAgent  # noqa: F401

    for name in ["AgentWorkflow", "AgentWorkflowConfig", "AgentWorkflowContext", "Grader", "GraderConfig",
                 "GraderContext", "RolloutSample", "LocalBackend", "OsmosisStrandsAgent", "OsmosisRolloutModel",
                 "create_rollout_server", "get_rollout_context", "RolloutAgentLoop", "RolloutContext",
                 "RolloutResult", "create_app"]:
        assert hasattr(rollout, name), name
    import osmosis_ai

    assert osmosis_ai.IS_TEST_DOUBLE
    # The OpenAI Agents classes live only in their integration module.
    assert not hasattr(rollout, "OsmosisAgent")


def test_abstract_bases_and_configs(sdk_double):
    from pydantic import ValidationError

    from osmosis_ai.rollout import AgentWorkflow, AgentWorkflowConfig, Grader

    with pytest.raises(TypeError):
        AgentWorkflow()
    with pytest.raises(TypeError):
        Grader()
    cfg = AgentWorkflowConfig(name="w", extra_field=3)
    assert cfg.concurrency.max_concurrent == 1 and cfg.extra_field == 3
    with pytest.raises(ValidationError):
        AgentWorkflowConfig()
    with pytest.raises(ValidationError):
        AgentWorkflowConfig(name="w", concurrency={"max_concurrent": 0})


def test_strands_rollout_records_sample_under_agent_name_and_grades(sdk_double):
    W, G = strands_classes()
    sdk_double.script_policy("2 times 3 is 6.\n#### 6")
    outcome = sdk_double.run_rollout(ROW, workflow=W, grader=G)
    assert outcome.rewards == {"solver": 1.0}
    sample = outcome.samples["solver"]
    assert sample.label == "6"
    assert [m["role"] for m in sample.messages] == ["system", "user", "assistant"]
    assert sample.messages[-1]["content"] == [{"text": "2 times 3 is 6.\n#### 6"}]
    call = sdk_double.policy_calls[0]
    assert call["params"] == {"temperature": 0.5}
    assert call["messages"][1] == {"role": "user", "content": "val1 = 2\nval2 = 3"}

    sdk_double.script_policy("#### 7")
    assert sdk_double.run_rollout(ROW, workflow=W, grader=G).rewards == {"solver": 0.0}


def test_ungraded_sample_fails_the_rollout(sdk_double):
    W, _ = strands_classes()
    from osmosis_ai.rollout import Grader

    class Lazy(Grader):
        async def grade(self, ctx):
            return None

    sdk_double.script_policy("#### 6")
    with pytest.raises(sdk_double.RolloutFailed, match="without a reward"):
        sdk_double.run_rollout(ROW, workflow=W, grader=Lazy)


def test_unknown_sample_id_and_missing_policy(sdk_double):
    from osmosis_ai.rollout import GraderContext, RolloutSample

    ctx = GraderContext(label="1", samples={"a": RolloutSample(id="a")})
    with pytest.raises(ValueError):
        ctx.set_sample_reward("b", 1.0)
    ctx.set_sample_reward("a", 0.5)
    assert ctx.get_samples()[0].reward == 0.5

    W, G = strands_classes()
    with pytest.raises(sdk_double.NoScriptedPolicy):
        sdk_double.run_rollout(ROW, workflow=W, grader=G)


def test_integration_outside_a_rollout_and_hard_coded_model_fail(sdk_double):
    from osmosis_ai.rollout import OsmosisRolloutModel, OsmosisStrandsAgent, get_rollout_context

    assert get_rollout_context() is None
    with pytest.raises(RuntimeError, match="inside a rollout"):
        OsmosisStrandsAgent(name="x", model=OsmosisRolloutModel())
    with pytest.raises(TypeError):
        OsmosisStrandsAgent(name="x", model="openai/gpt-4o")


def test_strands_tool_round_trip(sdk_double):
    from osmosis_ai.rollout import AgentWorkflow, OsmosisRolloutModel, OsmosisStrandsAgent
    from strands import tool

    @tool
    def multiply(a: float, b: float) -> float:
        return a * b

    class W(AgentWorkflow):
        async def run(self, ctx):
            await OsmosisStrandsAgent(name="calc", model=OsmosisRolloutModel(), messages=ctx.prompt, tools=[multiply]).invoke_async()

    sdk_double.script_policy([{"tool_calls": [{"name": "multiply", "arguments": {"a": 2, "b": 3}}]}, "#### 6"])
    outcome = sdk_double.run_rollout(ROW, workflow=W, require_rewards=False)
    msgs = outcome.samples["calc"].messages
    assert msgs[-2]["content"][0]["toolResult"]["content"] == [{"text": "6"}]
    assert sdk_double.policy_calls[1]["tools"] == ["multiply"]


def test_openai_agents_session_records_output_text(sdk_double):
    from agents import ModelSettings, Runner, function_tool
    from osmosis_ai.rollout import AgentWorkflow, Grader
    from osmosis_ai.rollout.integrations.agents.openai_agents import OsmosisAgent, OsmosisMemorySession, OsmosisRolloutModel

    @function_tool
    def add(a: int, b: int) -> int:
        """Add."""
        return a + b

    class W(AgentWorkflow):
        async def run(self, ctx):
            agent = OsmosisAgent(name="oa", model=OsmosisRolloutModel(), model_settings=ModelSettings(temperature=1.0), tools=[add])
            result = await Runner.run(agent, ctx.prompt, session=OsmosisMemorySession(name="oa"), max_turns=4)
            return result.final_output

    class G(Grader):
        async def grade(self, ctx):
            for sid, s in ctx.samples.items():
                texts = [p["text"] for m in s.messages if m.get("role") == "assistant"
                         for p in m["content"] if p.get("type") == "output_text"]
                ctx.set_sample_reward(sid, float(texts[-1].endswith(ctx.label)))

    sdk_double.script_policy([{"tool_calls": [{"name": "add", "arguments": {"a": 3, "b": 3}}]}, "#### 6"])
    outcome = sdk_double.run_rollout(ROW, workflow=W, grader=G)
    assert outcome.workflow_result == "#### 6"
    assert outcome.rewards == {"oa": 1.0}
    kinds = [m.get("type", m.get("role")) for m in outcome.samples["oa"].messages]
    assert kinds == ["system", "user", "function_call", "function_call_output", "message"]
    assert sdk_double.policy_calls[0]["params"] == {"temperature": 1.0}


def test_openai_agents_without_session_fails(sdk_double):
    from agents import Runner
    from osmosis_ai.rollout import AgentWorkflow
    from osmosis_ai.rollout.integrations.agents.openai_agents import OsmosisAgent, OsmosisRolloutModel

    class W(AgentWorkflow):
        async def run(self, ctx):
            await Runner.run(OsmosisAgent(name="oa", model=OsmosisRolloutModel()), ctx.prompt)

    sdk_double.script_policy("#### 6")
    with pytest.raises(RuntimeError, match="OsmosisMemorySession"):
        sdk_double.run_rollout(ROW, workflow=W)


def test_local_backend_server_and_harbor(sdk_double, tmp_path):
    from osmosis_ai.rollout import AgentWorkflowConfig, LocalBackend, create_rollout_server
    from osmosis_ai.rollout.backend.harbor import HarborBackend, TrialQueue

    W, G = strands_classes()
    backend = LocalBackend(workflow=W, workflow_config=AgentWorkflowConfig(name="w"), grader=G)
    app = create_rollout_server(backend=backend)
    sdk_double.script_policy("#### 6")
    assert sdk_double.run_backend(app.backend, ROW).rewards == {"solver": 1.0}
    with pytest.raises(TypeError):
        LocalBackend(workflow=W(), grader=G)
    with pytest.raises(TypeError):
        create_rollout_server(backend=object())

    task = tmp_path / "task"
    (task / "environment").mkdir(parents=True)
    (task / "task.toml").write_text('version = "1.0"\n[verifier]\ntimeout_sec = 60\n[agent]\ntimeout_sec = 600\n'
                                    '[environment]\nbuild_timeout_sec = 600\ncpus = 1\nmemory_mb = 2048\n')
    hb = HarborBackend(orchestrator=TrialQueue(n_concurrent=2), task_dir=task, user_code_dir=tmp_path, workflow=W, grader=G)
    with pytest.raises(FileNotFoundError):
        hb.check_task_dir()
    (task / "environment" / "Dockerfile").write_text("FROM python:3.11-slim\n")
    assert hb.check_task_dir()["verifier"]["timeout_sec"] == 60
    with pytest.raises(ValueError):
        TrialQueue(n_concurrent=0)
    with pytest.raises(TypeError):
        HarborBackend(orchestrator=TrialQueue(), task_dir=task, user_code_dir=tmp_path, workflow=W, tasks_dir=task)


def test_remote_protocol_loop(sdk_double):
    from osmosis_ai.rollout import RolloutAgentLoop, RolloutContext, RolloutResult, create_app

    with pytest.raises(TypeError, match="name"):
        class Nameless(RolloutAgentLoop):  # noqa: F841
            def get_tools(self, request):
                return []

            async def run(self, ctx):
                return ctx.complete([])

    class Calc(RolloutAgentLoop):
        name = "calc"

        def get_tools(self, request):
            return [{"type": "function", "function": {"name": "multiply"}}]

        async def run(self, ctx: RolloutContext) -> RolloutResult:
            messages = list(ctx.request.messages)
            for _ in range(ctx.request.max_turns):
                result = await ctx.chat(messages, **ctx.request.completion_params)
                messages.append(result.message)
                if not result.has_tool_calls:
                    break
                for tc in result.tool_calls:
                    messages.append({"role": "tool", "tool_call_id": tc["id"], "content": "6"})
                    ctx.record_tool_call()
            return ctx.complete(messages)

    app = create_app(Calc())
    sdk_double.script_policy([{"tool_calls": [{"name": "multiply", "arguments": {"a": 2, "b": 3}}]}, "#### 6"])
    result = sdk_double.run_agent_loop(app.agent_loop, [{"role": "user", "content": "2*3"}])
    assert result.status == "COMPLETED"
    assert [m["role"] for m in result.final_messages] == ["user", "assistant", "tool", "assistant"]
    assert result.metrics == {"num_tool_calls": 1}
    assert sdk_double.policy_calls[0]["tools"][0]["function"]["name"] == "multiply"
    with pytest.raises(TypeError):
        create_app(Calc)


def test_double_is_removed_after_the_fixture():
    import sys

    assert "osmosis_ai" not in sys.modules
    with pytest.raises(ImportError):
        import osmosis_ai  # noqa: F401
