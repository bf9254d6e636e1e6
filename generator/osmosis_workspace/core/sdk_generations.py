"""What each generation of `osmosis-ai` offers, as data (contract section 7; checked against the
0.2.25 and 0.2.31 wheels and the installed 0.3.7 and 0.3.8 source). Each 0.3 release's full export
table and its rollout callables' signatures are generated data beside this: sdk_exports.json.

Checks read these tables and never name a version themselves: a new generation is a new
:class:`Generation` row plus its column in the name, attribute and argument rows. Generation keys:
R = 0.2.7-0.2.17 (remote rollout server), A = 0.2.18-0.2.31, B = 0.3.x. Only what the contract
documents for R is listed for R; a name R's row does not mention is "unknown", never "missing"
(see ``Generation.modules_known``).
"""

from __future__ import annotations

from osmosis_workspace.core.pep440 import Version
from osmosis_workspace.core.records import dataclass, field

SDK_PACKAGE = "osmosis_ai"
SDK_DISTRIBUTION = "osmosis-ai"

# Our template with a custom model loop, the form a RolloutAgentLoop server becomes.
CUSTOM_LOOP_TEMPLATE = "calculator-remote"


@dataclass(frozen=True)
class Generation:
    key: str
    first: str  # first release of this generation; it lasts until the next row's first
    label: str  # how findings name it
    python_floor: tuple[int, int]
    core: str  # the classes a rollout is built from
    workflow_returns: str  # what AgentWorkflow.run (or the loop's run) may return
    grader_api: str
    port_variable: str | None  # the environment variable the rollout server must listen on
    harbor_arguments: frozenset[str]  # HarborBackend keywords
    submit_scan: bool  # the submit preflight counts classes/configs in the entrypoint namespace
    script_entrypoint: bool  # `eval run` starts the entrypoint as a `__main__` script and waits for its server
    grader_from_backend: bool  # LocalBackend grades only with the grader= it is given (else every graded rollout fails)
    extras: frozenset[str]
    eval_run_flags: tuple[str, ...]
    modules_known: bool  # whether the name rows below are complete for this generation
    source: str

    def __str__(self) -> str:
        return self.label


GENERATIONS: tuple[Generation, ...] = (
    Generation(
        key="R", first="0.2.7", label="osmosis-ai 0.2.7-0.2.17 (remote rollout server)",
        python_floor=(3, 10),
        core="RolloutAgentLoop subclass + create_app(agent_loop), served by `osmosis serve -m MOD:ATTR`",
        workflow_returns="RolloutResult (from ctx.complete(messages))",
        grader_api="reward functions passed to the loop; no Grader class",
        port_variable=None,  # `osmosis serve --port`, default 9000
        harbor_arguments=frozenset(),
        submit_scan=False,
        script_entrypoint=False,
        grader_from_backend=False,
        extras=frozenset(),
        eval_run_flags=(),  # `osmosis eval -m ... --eval-fn` from 0.2.13; no `eval run`
        modules_known=False,
        source="contract section 2 (Remote rollout server), section 7; git tag v0.2.17",
    ),
    Generation(
        key="A", first="0.2.18", label="osmosis-ai 0.2.18-0.2.31",
        python_floor=(3, 12),
        core="AgentWorkflow + Grader served by LocalBackend/HarborBackend and create_rollout_server",
        workflow_returns="ignored (samples are registered on the RolloutContext)",
        grader_api="ctx.samples / ctx.get_samples() and ctx.set_sample_reward(sample_id, reward), several samples per rollout",
        port_variable="_OSMOSIS_ROLLOUT_PORT",  # from 0.2.21; every A release on the index has it
        harbor_arguments=frozenset({
            "orchestrator", "task_dir", "user_code_dir", "workflow", "workflow_config", "grader",
            "grader_config", "trials_dir", "custom_tests_dir", "environment_config",
            "prebuild_local_image", "symlink_environment", "cleanup_successful_trials",
        }),
        submit_scan=True,  # 0.2.23-0.2.31; the index holds only 0.2.25-0.2.31 of this generation
        script_entrypoint=False,  # not judged: the 0.2 runner is not read here
        grader_from_backend=False,  # the 0.2 submit check looks for a Grader in the namespace instead
        extras=frozenset({"platform", "server", "dev", "full"}),
        eval_run_flags=(),  # 0.2.18-0.2.22 had --limit --offset --batch-size ...; none 0.2.23-0.2.31
        modules_known=True,
        source="osmosis-ai 0.2.31 wheel: rollout/__init__.py, rollout/context.py, "
               "rollout/backend/harbor/backend.py, eval/common/cli.py; contract section 7",
    ),
    Generation(
        key="B", first="0.3.0rc1", label="osmosis-ai 0.3.x",
        python_floor=(3, 12),
        core="AgentWorkflow + Grader served by LocalBackend/HarborBackend and create_rollout_server",
        workflow_returns="AgentWorkflowOutput, a message list, or None (the sample set on the RolloutContext)",
        grader_api="ctx.sample and ctx.set_reward(reward), one sample per rollout",
        port_variable="_OSMOSIS_ROLLOUT_PORT",
        harbor_arguments=frozenset({
            "orchestrator", "tasks_dir", "agent", "native_agent_kwargs", "task_mode", "model_name",
            "grader", "workflow_config", "grader_config", "code_dir", "bundle", "environment_config",
            "trials_dir", "cleanup_successful_trials", "patch_dockerfile_with_sdk",
            "agent_setup_timeout_sec", "max_queue_depth",
            "prewarm", "verified_tasks",  # 0.3.8
        }),
        submit_scan=False,  # 0.3.x imports the entrypoint once and scans nothing
        script_entrypoint=True,  # eval/local/_server_bootstrap.py: runpy.run_path(..., run_name="__main__") (0.3.1-0.3.8)
        grader_from_backend=True,  # rollout/backend/local/backend.py: no grader_cls -> ExecutionResult(FAILURE)
        extras=frozenset({"server", "strands", "openai-agents", "harbor", "rubric", "parquet", "eval", "full"}),
        eval_run_flags=(
            "--name", "--output", "-o", "--dataset-file", "--secrets-file", "--rows", "--fresh",
            "--retry-failed", "--max-in-flight", "--yes", "-y", "--tunnel", "--rollout-port",
            "--listener-port", "--advertise-url", "--verbose", "--upload",
        ),  # as of 0.3.7 and 0.3.8 (cli/commands/eval.py); 0.3.0 has no `eval run`
        modules_known=True,
        source="osmosis-ai 0.3.7 and 0.3.8: rollout/__init__.py, rollout/context.py, rollout/server/__init__.py, "
               "rollout/backend/harbor/__init__.py and backend.py (0.3.8: prewarm='auto'|'full'|'healthcheck'|'off' "
               "or a bool, verified_tasks a bool or task ids, never a str; the platform passes the tasks to prewarm "
               "in _OSMOSIS_PREWARM_TASK_IDS, which [env] may not set: _OSMOSIS_ is reserved, CFG010), "
               "rollout/utils/imports.py; each release's exports and signatures: sdk_exports.json; contract sections 2, 7",
    ),
)
BY_KEY = {g.key: g for g in GENERATIONS}

# Every release with the rollout API, and the ones the package index still serves (checked
# 2025: the index has nothing below 0.2.25).
_PATCHES_02 = [f"0.2.{n}" for n in range(7, 32)]
_RELEASES_03 = [
    "0.3.0rc1", "0.3.0rc2", "0.3.0rc3", "0.3.0rc4", "0.3.0", "0.3.1",
    "0.3.2rc1", "0.3.2rc2", "0.3.2rc3", "0.3.2", "0.3.3rc1", "0.3.3rc2", "0.3.3rc3", "0.3.3",
    "0.3.4rc1", "0.3.4rc2", "0.3.4rc3", "0.3.4", "0.3.5rc1", "0.3.5", "0.3.6", "0.3.7", "0.3.8",
]


# Parsed once: a listed release is read without the general version pattern (Version.parse's plain path)
KNOWN_RELEASES: tuple[Version, ...] = tuple(Version.parse(v) for v in _PATCHES_02 + _RELEASES_03)  # type: ignore[misc]
_FIRSTS: tuple[Version, ...] = tuple(Version.parse(gen.first) for gen in GENERATIONS)  # type: ignore[misc]
ON_INDEX: frozenset[Version] = frozenset(v for v in KNOWN_RELEASES if v >= Version.parse("0.2.25"))  # type: ignore[operator]


def generation_of(version: Version) -> Generation | None:
    """The generation a release belongs to (None below 0.2.7, before the rollout API)."""
    found = None
    for gen, first in zip(GENERATIONS, _FIRSTS):
        if version >= first:
            found = gen
    return found


# -- names: where each generation exports them ---------------------------------------------------

_R = "osmosis_ai.rollout"
_STRANDS = "osmosis_ai.rollout.integrations.agents.strands"
_OPENAI = "osmosis_ai.rollout.integrations.agents.openai_agents"
_SERVER = "osmosis_ai.rollout.server"
_HARBOR = "osmosis_ai.rollout.backend.harbor"
_CONTEXT = "osmosis_ai.rollout.context"
_TYPES = "osmosis_ai.rollout.types"


@dataclass(frozen=True)
class Name:
    """An importable name: the modules exporting it in each generation (a generation missing from
    ``where`` has no such name), and what to use instead where it is missing."""

    name: str
    where: dict[str, tuple[str, ...]]
    instead: dict[str, str] = field(default_factory=dict)  # generation key -> replacement advice


_CORE = (_R,)
_BOTH = {"A": _CORE, "B": _CORE}


def _n(name: str, **where: tuple[str, ...] | str) -> Name:
    instead = {k[len("instead_"):]: v for k, v in where.items() if k.startswith("instead_")}
    mods = {k: v for k, v in where.items() if not k.startswith("instead_")}
    return Name(name, mods, instead)  # type: ignore[arg-type]


_LOOP_INSTEAD = (
    "an AgentWorkflow with its own model loop (call get_rollout_context().chat_completions_url and "
    f"return the messages), as in `osmosis rollout new NAME --template {CUSTOM_LOOP_TEMPLATE}`"
)

NAMES: tuple[Name, ...] = (
    # the remote-server era; none of these releases is on the index any more
    _n("RolloutAgentLoop", R=(_R,), instead_A=_LOOP_INSTEAD, instead_B=_LOOP_INSTEAD),
    _n("create_app", R=(_R,), instead_A="create_rollout_server(backend=LocalBackend(workflow=..., grader=...))",
       instead_B="create_rollout_server(backend=LocalBackend(workflow=..., grader=...)) from osmosis_ai.rollout.server"),
    _n("RolloutResult", R=(_R,), instead_A="return nothing from AgentWorkflow.run; the sample is registered on the context",
       instead_B="return the messages, an AgentWorkflowOutput or None from AgentWorkflow.run"),
    # in both A and B
    *(_n(n, A=(_R, _CONTEXT), B=(_R, _CONTEXT)) for n in ("AgentWorkflowContext", "GraderContext", "RolloutContext", "get_rollout_context")),
    _n("AgentWorkflow", A=(_R, "osmosis_ai.rollout.agent_workflow"), B=(_R, "osmosis_ai.rollout.agent_workflow"),
       instead_R="a RolloutAgentLoop subclass served by create_app"),
    _n("Grader", A=(_R, "osmosis_ai.rollout.grader"), B=(_R, "osmosis_ai.rollout.grader"),
       instead_R="a reward computed in the loop's run()"),
    *(_n(n, A=(_R, _TYPES, "osmosis_ai.rollout.types.config"), B=(_R, _TYPES, "osmosis_ai.rollout.types.config"))
      for n in ("AgentWorkflowConfig", "GraderConfig", "ConcurrencyConfig")),
    *(_n(n, A=(_R, _TYPES), B=(_R, _TYPES)) for n in (
        "RolloutSample", "ExecutionRequest", "ExecutionResult", "RolloutErrorCategory",
        "RolloutInitRequest", "RolloutInitResponse", "RolloutStatus")),
    _n("LocalBackend", A=(_R, "osmosis_ai.rollout.backend", "osmosis_ai.rollout.backend.local"),
       B=(_R, "osmosis_ai.rollout.backend", "osmosis_ai.rollout.backend.local"), instead_R="create_app(agent_loop)"),
    _n("ExecutionBackend", A=(_R, "osmosis_ai.rollout.backend"), B=(_R, "osmosis_ai.rollout.backend")),
    _n("HarborBackend", A=(_HARBOR,), B=(_HARBOR,), instead_R="nothing: Harbor arrived in 0.2.18"),
    _n("OsmosisAgent", A=(_OPENAI,), B=(_OPENAI,)),
    _n("OsmosisMemorySession", A=(_OPENAI,), B=(_OPENAI,)),
    # moved between A and B
    _n("OsmosisStrandsAgent", A=(_R, _STRANDS), B=(_STRANDS,)),
    _n("OsmosisRolloutModel", A=(_R, _STRANDS, _OPENAI), B=(_STRANDS, _OPENAI)),
    _n("create_rollout_server", A=(_R, _SERVER, "osmosis_ai.rollout.server.app"), B=(_SERVER, "osmosis_ai.rollout.server.app"),
       instead_R="create_app(agent_loop)"),
    _n("SampleSource", A=(_CONTEXT,), B=(_R, _CONTEXT)),
    _n("BaseConfig", A=(_TYPES, "osmosis_ai.rollout.types.config"), B=(_R, _TYPES, "osmosis_ai.rollout.types.config")),
    _n("MessageDict", A=(_TYPES,), B=(_R, _TYPES)),
    # only in A
    _n("ControllerAuth", A=(_R, _SERVER), instead_B="nothing: the rollout server's auth is configured by the platform (0.3.0-0.3.1 still had osmosis_ai.rollout.server.ControllerAuth)"),
    _n("HarborAgentWorkflowContext", A=(_R, _CONTEXT), instead_B="AgentWorkflowContext (Harbor workflows get the same context)"),
    _n("MultiTurnMode", A=(_R, _TYPES), instead_B="nothing: 0.3 has one sample per rollout"),
    *(_n(n, A=(_R, _TYPES), instead_B="nothing: the 0.3 server protocol is internal")
      for n in ("GraderCompleteRequest", "GraderStatus", "RolloutCompleteRequest")),
    _n("OsmosisInstalledAgent", A=(_HARBOR,), instead_B="HarborBackend(agent=YourWorkflow), which bundles the workflow itself"),
    _n("validate_backend", A=("osmosis_ai.rollout.validator",), instead_B="nothing: 0.3 submit imports the entrypoint instead"),
    _n("load_workflow", A=("osmosis_ai.eval.common",), instead_B="`osmosis eval run CONFIG`"),
    _n("auto_discover_grader", A=("osmosis_ai.eval.common",), instead_B="pass grader= to the backend"),
    _n("save_trajectories", A=("osmosis_ai.rollout.trajectory",), instead_B="save_trajectory from osmosis_ai.rollout.trajectory"),
    # only in B
    _n("AgentWorkflowOutput", B=(_R, _TYPES, "osmosis_ai.rollout.agent_workflow"),
       instead_A="return nothing from run(); 0.2 ignores the return value"),
    _n("ExecutionOutcome", B=(_R, _TYPES)),
    _n("RolloutResultResponse", B=(_R, _TYPES)),
    _n("TaskMode", B=(_HARBOR,), instead_A="nothing: 0.2 Harbor runs one task_dir"),
    _n("save_trajectory", B=("osmosis_ai.rollout.trajectory",), instead_A="save_trajectories"),
    # never released (between 0.3.0rc1 and rc2 only in git)
    _n("HarborBackendV2", instead_A="HarborBackend", instead_B="HarborBackend (its 0.3 arguments: tasks_dir=, agent=, code_dir=)"),
)
NAMES_BY_NAME = {n.name: n for n in NAMES}

# Modules whose exports the rows above list completely, per generation: any other name imported
# from them does not exist there. Other osmosis_ai modules are judged only for the names above.
CLOSED_MODULES: dict[str, frozenset[str]] = {
    _R: frozenset({"A", "B"}),
    _SERVER: frozenset({"A", "B"}),
    _HARBOR: frozenset({"A", "B"}),
}

# Modules that exist in only some generations (for the generations whose modules are known).
MODULES: dict[str, frozenset[str]] = {
    "osmosis_ai.rollout.validator": frozenset({"A"}),
    "osmosis_ai.eval.common": frozenset({"A"}),
    "osmosis_ai.rollout.driver": frozenset({"A"}),
    "osmosis_ai.eval.local": frozenset({"B"}),
    "osmosis_ai.rollout.backend.harbor.tasks": frozenset({"B"}),
}


# -- attributes of the contexts --------------------------------------------------------------------


@dataclass(frozen=True)
class Attribute:
    owner: str  # GraderContext, RolloutContext
    name: str
    gens: frozenset[str]
    instead: dict[str, str] = field(default_factory=dict)


def _a(owner: str, name: str, gens: str, **instead: str) -> Attribute:
    return Attribute(owner, name, frozenset(gens), instead)


ATTRIBUTES: tuple[Attribute, ...] = (
    _a("GraderContext", "label", "AB"),
    _a("GraderContext", "metadata", "AB"),
    _a("GraderContext", "artifacts_dir", "AB"),
    _a("GraderContext", "project_path", "AB"),
    _a("GraderContext", "samples", "A", B="ctx.sample (one RolloutSample, or None)"),
    _a("GraderContext", "get_samples", "A", B="ctx.sample (one RolloutSample, or None)"),
    _a("GraderContext", "set_sample_reward", "A", B="ctx.set_reward(reward)"),
    _a("GraderContext", "sample", "B", A="ctx.samples (a dict of sample id -> RolloutSample)"),
    _a("GraderContext", "set_reward", "B", A="ctx.set_sample_reward(sample_id, reward)"),
    _a("RolloutContext", "chat_completions_url", "AB"),
    _a("RolloutContext", "api_key", "AB"),
    _a("RolloutContext", "rollout_id", "AB"),
    _a("RolloutContext", "register_sample_source", "A", B="set_sample_source(source), once per rollout"),
    # 0.2.18-0.2.19 only: no release of generation A on the index has it
    _a("RolloutContext", "register_agent", "", A="register_sample_source(name, source)", B="set_sample_source(source), once per rollout"),
    _a("RolloutContext", "sample_sources", "A", B="sample_source"),
    _a("RolloutContext", "get_samples", "A", B="get_sample()"),
    _a("RolloutContext", "set_sample_source", "B", A="register_sample_source(name, source)"),
    _a("RolloutContext", "sample_source", "B", A="sample_sources"),
    _a("RolloutContext", "get_sample", "B", A="get_samples()"),
    _a("RolloutContext", "set_status", "B"),
    _a("RolloutContext", "progress", "B"),
)


# -- HarborBackend arguments that changed ----------------------------------------------------------

# Replacement advice for an argument a generation does not take (keyed by argument, then by the
# generation lacking it); arguments absent here have no direct successor.
HARBOR_ARGUMENT_INSTEAD: dict[str, dict[str, str]] = {
    "task_dir": {"B": "tasks_dir="},
    "user_code_dir": {"B": "code_dir= (or leave it out: the agent's project folder)"},
    "workflow": {"B": "agent="},
    "custom_tests_dir": {"B": "tests/test.sh inside the task folder"},
    "prebuild_local_image": {"B": "nothing (0.3 builds images itself)"},
    "symlink_environment": {"B": "nothing (0.3 stages task folders itself)"},
    "tasks_dir": {"A": "task_dir="},
    "agent": {"A": "workflow="},
    "code_dir": {"A": "user_code_dir="},
    "task_mode": {"A": "nothing (0.2 runs one task_dir)"},
}


def harbor_arguments_known() -> frozenset[str]:
    """Every HarborBackend keyword some generation takes (others are not judged)."""
    known: set[str] = set()
    for gen in GENERATIONS:
        known |= gen.harbor_arguments
    return frozenset(known)


# Port variables rollouts read by mistake (reserved in 0.2.20, never set by the platform since).
WRONG_PORT_VARIABLES = ("ROLLOUT_PORT", "OSMOSIS_ROLLOUT_PORT")
