"""The entrypoints family's structural rules (ENT001-ENT015, ENT032-ENT034): entrypoint, workflow and grader
classes, the remote-rollout server, the rollout's pyproject, model clients.
"""

from __future__ import annotations

from osmosis_workspace.check.registry import rule

FAMILY = "entrypoints"

MISSING_ENTRYPOINT = rule(
    "ENT001", "missing-entrypoint", FAMILY, "error",
    summary="A rollout folder has no entrypoint module (`main.py`, or the `entrypoint` its configs name).",
    why="The platform imports the entrypoint to find the rollout's AgentWorkflow; without it every run fails at start-up.",
    fix="Create rollouts/<rollout>/main.py defining one AgentWorkflow subclass (see `osmosis rollout new`), or point the configs' `entrypoint` at the module that does.",
    example="rollouts/multiply/ holds only agent.py and no config names it as the entrypoint",
    source="osmosis_ai/platform/cli/rollout_entrypoint.py",
)


SYNTAX_ERROR = rule(
    "ENT002", "python-syntax-error", FAMILY, "error",
    summary="A rollout module cannot be parsed as Python.",
    why="The platform imports the rollout's modules; a syntax error fails every rollout of the run.",
    fix="Fix the syntax at the reported line (run `python -m py_compile FILE` to see it).",
    example="async def run(self, ctx)   # missing colon",
    source="osmosis_ai/platform/cli/rollout_entrypoint.py",
)


NEWER_SYNTAX = rule(
    "ENT032", "python-syntax-newer", FAMILY, "warning",
    summary="A rollout module uses Python syntax newer than the Python running doctor, so it was not checked.",
    why="The platform runs Python 3.12; a doctor running on an older Python cannot parse what 3.12 accepts, and calling that a syntax error would be a false alarm. The module's other checks are skipped.",
    fix="Run `osmosis doctor` with Python 3.12 or newer to check this module.",
    example="type Point = tuple[float, float]   # Python 3.12, read by doctor on 3.11",
    source="ours",
)


NO_WORKFLOW = rule(
    "ENT003", "no-agent-workflow", FAMILY, "error",
    summary="The entrypoint defines no concrete `osmosis_ai.rollout.AgentWorkflow` subclass.",
    why="The platform runs the one concrete AgentWorkflow it finds in the entrypoint; with none there is nothing to run.",
    fix="Define `class MyWorkflow(AgentWorkflow)` with `async def run(self, ctx)` in the entrypoint (import AgentWorkflow from osmosis_ai.rollout).",
    example="class MyWorkflow(AgentWorkflow): pass   # no run(): still abstract",
    source="contract §2",
)


MULTIPLE_WORKFLOWS = rule(
    "ENT004", "multiple-agent-workflows", FAMILY, "error",
    summary="The entrypoint defines more than one concrete AgentWorkflow subclass, for an SDK whose submit check refuses it (0.2.23-0.2.31, or a generation doctor cannot tell); under 0.3 it is ENT033.",
    why="The 0.2.23-0.2.31 submit check cannot tell which workflow to run and refuses the entrypoint; it needs exactly one.",
    fix="Keep one concrete AgentWorkflow in the entrypoint; make shared bases abstract (no run(), or ABC) or move other workflows to their own rollout.",
    example="class A(AgentWorkflow): async def run(...)\nclass B(AgentWorkflow): async def run(...)",
    source="contract §2; contract §7",
)


MULTIPLE_GRADERS = rule(
    "ENT005", "multiple-graders", FAMILY, "error",
    summary="The entrypoint defines more than one concrete Grader subclass, for an SDK whose submit check refuses it (0.2.23-0.2.31, or a generation doctor cannot tell); under 0.3 it is ENT034.",
    why="The 0.2.23-0.2.31 submit check scores samples with the entrypoint's single Grader and refuses two.",
    fix="Keep at most one concrete Grader in the entrypoint; combine the scoring logic into it.",
    example="class ExactGrader(Grader): ...\nclass FuzzyGrader(Grader): ...",
    source="contract §2; contract §7",
)


MULTIPLE_WORKFLOWS_03 = rule(
    "ENT033", "multiple-agent-workflows-03", FAMILY, "warning",
    summary="Under osmosis-ai 0.3, the entrypoint defines more than one concrete AgentWorkflow subclass.",
    why="0.3 runs the workflow class its backend names (LocalBackend(workflow=...)), so the others are dead code; one workflow per entrypoint stays the template's rule, and the 0.2.23-0.2.31 submit check refused it (ENT004).",
    fix="Keep one concrete AgentWorkflow in the entrypoint; make shared bases abstract or move other workflows to their own rollout.",
    example="class A(AgentWorkflow): async def run(...)\nclass B(AgentWorkflow): async def run(...)",
    source="ours; contract §2",
)


MULTIPLE_GRADERS_03 = rule(
    "ENT034", "multiple-graders-03", FAMILY, "warning",
    summary="Under osmosis-ai 0.3, the entrypoint defines more than one concrete Grader subclass.",
    why="0.3 scores with the grader class its backend names (grader=...), so the others are dead code; one grader per entrypoint stays the template's rule, and the 0.2.23-0.2.31 submit check refused it (ENT005).",
    fix="Keep at most one concrete Grader in the entrypoint; combine the scoring logic into it.",
    example="class ExactGrader(Grader): ...\nclass FuzzyGrader(Grader): ...",
    source="ours; contract §2",
)


SYNC_RUN = rule(
    "ENT006", "sync-workflow-run", FAMILY, "error",
    summary="An AgentWorkflow's `run` is a plain `def`, not `async def`.",
    why="The SDK awaits `run(ctx)`; a synchronous run returns a value that is not awaitable and the rollout fails.",
    fix="Declare it `async def run(self, ctx: AgentWorkflowContext)` and await the agent call inside.",
    example="def run(self, ctx): ...",
    source="osmosis_ai/rollout/agent_workflow.py",
)


SYNC_GRADE = rule(
    "ENT007", "sync-grader-grade", FAMILY, "error",
    summary="A Grader's `grade` is a plain `def`, not `async def`.",
    why="The SDK awaits `grade(ctx)`; a synchronous grade fails and the samples end without a reward.",
    fix="Declare it `async def grade(self, ctx: GraderContext)`.",
    example="def grade(self, ctx): ...",
    source="osmosis_ai/rollout/grader.py",
)


MISSING_ROLLOUT_PYPROJECT = rule(
    "ENT008", "missing-rollout-pyproject", FAMILY, "error",
    summary="A rollout folder has no `pyproject.toml`.",
    why="The platform installs each rollout's dependencies from its own pyproject.toml; without it the SDK is not installed.",
    fix="Add rollouts/<rollout>/pyproject.toml with `dependencies = [\"osmosis-ai[server]\"]` (see the templates).",
    example="rollouts/multiply/ without pyproject.toml",
    source="osmosis_ai/eval/local/runner.py",
)


MISSING_SDK_DEPENDENCY = rule(
    "ENT009", "missing-osmosis-dependency", FAMILY, "error",
    summary="A rollout's pyproject.toml does not declare `osmosis-ai` in its dependencies.",
    why="The entrypoint imports osmosis_ai; if the rollout does not depend on it, the import fails on the platform.",
    fix="Add \"osmosis-ai[server]\" to [project] dependencies in the rollout's pyproject.toml.",
    example='[project]\ndependencies = ["strands-agents"]',
    source="contract §2",
)


INVALID_ROLLOUT_PYPROJECT = rule(
    "ENT010", "invalid-rollout-pyproject", FAMILY, "error",
    summary="A rollout's pyproject.toml is not valid TOML.",
    why="The platform cannot install the rollout's dependencies from a file it cannot parse.",
    fix="Fix the TOML syntax at the reported line.",
    example='dependencies = ["osmosis-ai"',
    source="osmosis_ai/eval/local/runner.py",
)


LOOP_WITHOUT_NAME = rule(
    "ENT011", "agent-loop-without-name", FAMILY, "error",
    summary="A RolloutAgentLoop subclass has no `name` class attribute.",
    why="The rollout server registers the loop under its unique name; without one the server refuses to start.",
    fix='Add a class attribute, e.g. `name = "my_agent"`.',
    example="class MyLoop(RolloutAgentLoop):\n    def get_tools(self, request): ...",
    source="contract §2; contract §7",
)


LOOP_WITHOUT_TOOLS = rule(
    "ENT012", "agent-loop-without-get-tools", FAMILY, "error",
    summary="A RolloutAgentLoop subclass has no `get_tools` method.",
    why="The trainer's `/v1/rollout/init` call returns the loop's tools; without get_tools the loop is abstract and cannot be instantiated.",
    fix="Add `def get_tools(self, request)` returning OpenAI function-calling tool specs (an empty list if the agent has no tools).",
    example="class MyLoop(RolloutAgentLoop):\n    name = 'calc'",
    source="contract §2; contract §7",
)


LOOP_SYNC_RUN = rule(
    "ENT013", "agent-loop-run-not-async", FAMILY, "error",
    summary="A RolloutAgentLoop subclass has no `async def run`.",
    why="The server awaits `run(ctx)` for every rollout; a missing or synchronous run fails each one.",
    fix="Define `async def run(self, ctx: RolloutContext) -> RolloutResult` that loops ctx.chat(...) and ends with ctx.complete(messages).",
    example="def run(self, ctx): ...",
    source="contract §2; contract §7",
)


LOOP_WITHOUT_INSTANCE = rule(
    "ENT014", "agent-loop-without-instance", FAMILY, "error",
    summary="A server module defines a RolloutAgentLoop subclass but no module-level instance of it.",
    why="`osmosis serve -m server:agent_loop` and `create_app(agent_loop)` need an instance at module level.",
    fix="Add `agent_loop = MyLoop()` (and `app = create_app(agent_loop)`) at the end of the module.",
    example="class MyLoop(RolloutAgentLoop): ...   # and nothing instantiates it",
    source="contract §2; contract §7",
)


HARD_CODED_CLIENT = rule(
    "ENT015", "hard-coded-model-client", FAMILY, "warning",
    summary="An AgentWorkflow constructs its own model client (e.g. `openai.OpenAI(...)`).",
    why="Policy calls must go through an integration (OsmosisStrandsAgent, OsmosisAgent) so the platform can route them to the model being trained and record samples; a hard-coded client trains nothing.",
    fix="Use OsmosisStrandsAgent with OsmosisRolloutModel (Strands) or OsmosisAgent (OpenAI Agents SDK) instead of a direct client.",
    example="client = AsyncOpenAI(); await client.chat.completions.create(...)",
    source="contract §2",
)
