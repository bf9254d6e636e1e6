"""The SDK-generation and import-time rules of the entrypoints family (ENT016-ENT031, ENT035-ENT041)."""

from __future__ import annotations

from osmosis_workspace.check.registry import family_rules

FAMILY = "entrypoints"


_rule = family_rules(FAMILY)


_S7 = "Source: contract section 7 (SDK generations) and generator/osmosis_workspace/core/sdk_generations.py."


UNBOUNDED = _rule(
    "ENT016", "sdk-requirement-unbounded", "warning",
    summary="The `osmosis-ai` requirement has no upper bound (or none at all), so a new release can change the API under the rollout.",
    why="Each `osmosis-ai` generation renamed or moved rollout API (0.2 -> 0.3 moved imports, changed the grader and Harbor APIs); an open requirement installs whatever is newest the day the platform builds the rollout. " + _S7,
    fix='Bound it to the generation the code is written for, e.g. "osmosis-ai[server]>=0.3.1,<0.4".',
    example='dependencies = ["osmosis-ai[server]"]   # resolves to 0.3.x today, to 0.4 when it ships',    source="contract §7",
)


UNSATISFIABLE = _rule(
    "ENT017", "sdk-requirement-unsatisfiable", "error",
    summary="No `osmosis-ai` release on the package index satisfies the rollout's requirement.",
    why="The platform installs the rollout's dependencies from the index; 0.2.7-0.2.24 are no longer there, so a requirement admitting only those fails to install. " + _S7,
    fix='Move the code to 0.3 and require "osmosis-ai[server]>=0.3.1,<0.4".',
    example='dependencies = ["osmosis-ai==0.2.15"]',    source="contract §7",
)


PYTHON_BELOW_FLOOR = _rule(
    "ENT018", "python-below-sdk-floor", "error",
    summary="`requires-python` admits a Python older than the `osmosis-ai` generation the project requires supports.",
    why="osmosis-ai 0.2.18 and later require Python 3.12; a project declaring `>=3.10` cannot be resolved (uv refuses a dependency that does not cover the whole declared range). Source: Requires-Python of the 0.2.25-0.3.8 wheels; contract section 7.",
    fix='Set requires-python = ">=3.12".',
    example='requires-python = ">=3.10"',    source="contract §7",
)


NAME_NOT_IN_GENERATION = _rule(
    "ENT019", "sdk-name-not-in-generation", "error",
    summary="The code imports an `osmosis_ai` name or module that the installed generation does not have there (moved or removed).",
    why="The entrypoint is imported on submit and run by `eval run` and the platform; an ImportError fails every rollout. E.g. 0.3 moved OsmosisStrandsAgent to osmosis_ai.rollout.integrations.agents.strands and create_rollout_server to osmosis_ai.rollout.server; RolloutAgentLoop exists only in 0.2.7-0.2.17, none of which is on the index. Under 0.3 every `from osmosis_ai... import X` is judged against the export table of every module of the release the requirement installs (0.3.1 and 0.3.8 read from their wheels into generator/osmosis_workspace/core/sdk_exports.json by bench/sdk_exports.py; a release between two tables is judged by both, missing only where both lack it). Source: osmosis-ai 0.3.8 and 0.3.1 wheels, 0.2.31 rollout/__init__.py; contract sections 2 and 7.",
    fix="Import the name from the module the finding names, or pin the generation the code was written for.",
    example="from osmosis_ai.rollout import OsmosisStrandsAgent   # with osmosis-ai>=0.3.1,<0.4",    source="osmosis_ai/rollout/__init__.py; contract §2; contract §7",
)


CONTEXT_API_NOT_IN_GENERATION = _rule(
    "ENT020", "sdk-context-api-not-in-generation", "error",
    summary="A grader or workflow uses GraderContext / RolloutContext API the installed generation does not have (`ctx.samples`, `set_sample_reward`, `register_sample_source` under 0.3; `ctx.sample`, `set_reward` under 0.2).",
    why="An AttributeError inside grade() or run() fails the rollout; 0.3 has one sample per rollout (`ctx.sample`, `ctx.set_reward(r)`), 0.2 had several keyed by id. Source: rollout/context.py of osmosis-ai 0.3.7 and 0.2.31; contract section 7 (grader API, sample registration).",
    fix="Use the generation's API the finding names (0.3: `ctx.set_reward(score(ctx.sample.messages, ctx.label))`).",
    example="for sid in ctx.samples: ctx.set_sample_reward(sid, 1.0)   # with osmosis-ai>=0.3",    source="osmosis_ai/rollout/context.py; contract §7",
)


HARBOR_ARGUMENT = _rule(
    "ENT021", "harbor-argument-not-in-generation", "error",
    summary="`HarborBackend(...)` is given arguments the installed generation does not take (0.3 removed `task_dir`, `user_code_dir`, `workflow`, `custom_tests_dir`, ...).",
    why="HarborBackend's arguments are keyword-only; an unknown keyword raises TypeError when the entrypoint is imported, so submit and every rollout fail. Source: osmosis-ai 0.3.7 rollout/backend/harbor/backend.py, 0.2.31 same file; contract section 7.",
    fix="Rename the arguments as the finding says (0.3: tasks_dir=, agent=, code_dir=).",
    example="HarborBackend(orchestrator=q, task_dir=HERE / 'task', user_code_dir=HERE, workflow=W)",    source="osmosis_ai/rollout/backend/harbor/backend.py; contract §7",
)


WRONG_PORT = _rule(
    "ENT022", "wrong-rollout-port-variable", "error",
    summary="The rollout server reads its port from `ROLLOUT_PORT` instead of `_OSMOSIS_ROLLOUT_PORT`.",
    why="`eval run` and the platform start the entrypoint with `_OSMOSIS_ROLLOUT_PORT` set and wait for /health on that port; a server listening elsewhere is never reached. Source: osmosis-ai 0.3.7 eval/local/runner.py; contract sections 2 and 7 (server port).",
    fix='port=int(os.environ.get("_OSMOSIS_ROLLOUT_PORT", "8000"))',
    example='uvicorn.run(app, port=int(os.environ.get("ROLLOUT_PORT", "8000")))',    source="osmosis_ai/eval/local/runner.py; contract §2; contract §7",
)


NO_GRADER = _rule(
    "ENT023", "no-grader", "error",
    summary="The entrypoint has no concrete Grader and passes no `grader=` to its backend.",
    why="`eval run` and managed training score every rollout; without a grader every graded rollout fails (0.3: LocalBackend without grader=), and the 0.2.23-0.2.31 submit check refuses an entrypoint without a Grader. Source: osmosis-ai 0.3.7 rollout/backend/local/backend.py, 0.2.31 platform/cli/workspace_directory_contract.py; contract section 2.",
    fix="Define `class MyGrader(Grader)` with `async def grade(self, ctx)` and pass grader=MyGrader to the backend.",
    example="backend = LocalBackend(workflow=MyWorkflow)",    source="osmosis_ai/rollout/backend/local/backend.py; contract §2",
)


EXTRA_SUBCLASS = _rule(
    "ENT024", "abstract-class-beside-concrete", "warning",
    summary="An abstract AgentWorkflow (or Grader) subclass is bound in the entrypoint beside the concrete one.",
    why="0.3 imports without counting, but one workflow and one grader in the entrypoint stay the template's rule. The 0.2.23-0.2.31 submit check counts every AgentWorkflow/Grader subclass in the entrypoint's namespace, abstract or not, and refuses more than one: for those releases it is ENT035, an error. Source: osmosis-ai 0.2.31 eval/common/cli.py; contract sections 2 and 7 (submit preflight).",
    fix="Move the abstract base to another module and import the module (`import base` ... `class W(base.Base)`), not the class.",
    example="class Base(AgentWorkflow, ABC): ...\nclass Multiply(Base): async def run(self, ctx): ...",    source="contract §2; contract §7",
)


MULTIPLE_CONFIGS = _rule(
    "ENT025", "multiple-config-objects", "warning",
    summary="The entrypoint's namespace holds two or more AgentWorkflowConfig (or GraderConfig) objects.",
    why="Under 0.3 the backend is given its config explicitly and one of each stays the template's rule. The 0.2.23-0.2.31 submit check takes the one module-level AgentWorkflowConfig/GraderConfig of the entrypoint and refuses two: for those releases it is ENT036, an error. Source: osmosis-ai 0.2.31 eval/common/cli.py; contract section 7.",
    fix="Keep one config object of each kind in the entrypoint; move the others to another module.",
    example='fast = AgentWorkflowConfig(name="fast")\nslow = AgentWorkflowConfig(name="slow")',    source="contract §7",
)


EXTRA_SUBCLASS_SCANNED = _rule(
    "ENT035", "abstract-class-refused-by-submit", "error",
    summary="For osmosis-ai 0.2.23-0.2.31: an abstract AgentWorkflow (or Grader) subclass is bound in the entrypoint beside the concrete one.",
    why="That submit check counts every AgentWorkflow/Grader subclass in the entrypoint's namespace, abstract or not, and refuses more than one. Under 0.3 it is ENT024, a warning. Source: osmosis-ai 0.2.31 eval/common/cli.py.",
    fix="Move the abstract base to another module and import the module (`import base` ... `class W(base.Base)`), not the class.",
    example="class Base(AgentWorkflow, ABC): ...\nclass Multiply(Base): async def run(self, ctx): ...",
    source="osmosis_ai/eval/common/cli.py",
)


MULTIPLE_CONFIGS_SCANNED = _rule(
    "ENT036", "multiple-config-objects-refused-by-submit", "error",
    summary="For osmosis-ai 0.2.23-0.2.31: the entrypoint's namespace holds two or more AgentWorkflowConfig (or GraderConfig) objects.",
    why="That submit check takes the one module-level config of each kind and refuses two. Under 0.3 it is ENT025, a warning. Source: osmosis-ai 0.2.31 eval/common/cli.py.",
    fix="Keep one config object of each kind in the entrypoint; move the others to another module.",
    example='fast = AgentWorkflowConfig(name="fast")\nslow = AgentWorkflowConfig(name="slow")',
    source="osmosis_ai/eval/common/cli.py",
)


NOT_IMPORTABLE = _rule(
    "ENT026", "harbor-object-not-importable", "error",
    summary="A HarborBackend workflow, grader or config object cannot be turned into a `module:attr` import path.",
    why="HarborBackend ships the workflow, grader and configs to each trial by import path: a class must live in a package module (not the entrypoint, which runs as __main__), and a config must be an instance of your own config class held by a public module-level name in the module defining that class; otherwise the SDK raises `Cannot resolve import path` or the trial cannot import `__main__:X`. Source: osmosis-ai 0.3.7 rollout/utils/imports.py (to_import_path) and rollout/backend/harbor/backend.py; contract section 2 (HarborBackend).",
    fix="Define the workflow, grader and `class MyConfig(AgentWorkflowConfig)` plus `CONFIG = MyConfig(...)` in a package module (e.g. my_rollout/workflow.py) and import them into the entrypoint.",
    example="HarborBackend(..., workflow_config=AgentWorkflowConfig(name='x'))",    source="osmosis_ai/rollout/utils/imports.py; osmosis_ai/rollout/backend/harbor/backend.py; contract §2",
)


LOCAL_NAME_MISSING = _rule(
    "ENT027", "local-import-not-found", "error",
    summary="The code imports a name or module from the rollout's own package that does not define it.",
    why="The rollout folder is on sys.path when the entrypoint runs (`eval run` starts it as a script, submit imports it), so `from my_rollout.grader import X` reads my_rollout/grader.py; a name it does not bind raises ImportError and every rollout fails. Source: osmosis-ai 0.3.8 platform/cli/rollout_entrypoint.py and eval/local/_server_bootstrap.py.",
    fix="Import the name the module defines (the hint suggests the closest one), or define it there.",
    example="from multiply_rollout.grader import MultiplyGraderX   # grader.py defines MultiplyGrader",
    source="osmosis_ai/platform/cli/rollout_entrypoint.py; osmosis_ai/eval/local/_server_bootstrap.py",
)


CALL_ARGUMENTS = _rule(
    "ENT028", "sdk-call-arguments", "error",
    summary="A call to an `osmosis_ai` function or class passes arguments its signature in the installed release refuses (a required one missing, an unknown keyword, too many positional).",
    why="Python raises TypeError at the call: `LocalBackend()` needs `workflow=`, `create_rollout_server()` needs `backend=`, and both take keywords only; in the entrypoint this fails submit's import and every `eval run`. The signatures are read from each release's wheel (generator/osmosis_workspace/core/sdk_exports.json, made by bench/sdk_exports.py). Source: osmosis-ai 0.3.8 rollout/backend/local/backend.py, rollout/server/app.py.",
    fix="Pass the arguments the signature names (the finding lists them).",
    example="backend = LocalBackend(MultiplyWorkflow, graders=MultiplyGrader)",
    source="osmosis_ai/rollout/backend/local/backend.py; osmosis_ai/rollout/server/app.py",
)


SERVER_PORT = _rule(
    "ENT029", "server-port-not-platform", "error",
    summary="The entrypoint starts its server on a port other than `_OSMOSIS_ROLLOUT_PORT` (no `port=`, a hard-coded number, or another variable such as `PORT`).",
    why="`eval run` picks a free port, starts the entrypoint with `_OSMOSIS_ROLLOUT_PORT` set to it and waits for /health there; uvicorn's default 8000 or a fixed port is never probed (or collides), so the run fails with `did not become healthy`. Source: osmosis-ai 0.3.8 eval/local/runner.py (the child's environment and _wait_for_health).",
    fix='uvicorn.run(app, host="0.0.0.0", port=int(os.environ.get("_OSMOSIS_ROLLOUT_PORT", "8000")))',
    example="uvicorn.run(app, port=8000)",
    source="osmosis_ai/eval/local/runner.py",
)


NO_SERVER_START = _rule(
    "ENT030", "entrypoint-without-server-start", "error",
    summary="The entrypoint has no `if __name__ == \"__main__\":` block starting its server (or starts it unguarded at import).",
    why="`eval run` runs the entrypoint as a script (runpy, run_name `__main__`) and waits for the server it starts; without that block the script ends and the run fails before /health answers. Started unguarded, the server also starts when submit imports the entrypoint, which then never returns. Source: osmosis-ai 0.3.8 eval/local/_server_bootstrap.py, platform/cli/rollout_entrypoint.py.",
    fix='Add at the end: if __name__ == "__main__": import uvicorn; uvicorn.run(app, host="0.0.0.0", port=int(os.environ.get("_OSMOSIS_ROLLOUT_PORT", "8000")))',
    example="app = create_rollout_server(backend=backend)   # and nothing starts it",
    source="osmosis_ai/eval/local/_server_bootstrap.py",
)


RELATIVE_IMPORT = _rule(
    "ENT031", "relative-import-in-entrypoint", "error",
    summary="The entrypoint uses a relative import (`from .x import y`).",
    why="`eval run` runs the entrypoint as a script, which has no parent package: `from .x import y` raises `ImportError: attempted relative import with no known parent package` (submit's import happens to accept it, so only the run fails). Source: osmosis-ai 0.3.8 eval/local/_server_bootstrap.py (runpy.run_path).",
    fix="Import absolutely from the rollout's package: `from my_rollout.workflow import MyWorkflow`.",
    example="from .multiply_rollout.workflow import MultiplyWorkflow",
    source="osmosis_ai/eval/local/_server_bootstrap.py",
)


# -- what fails when the entrypoint is imported (check/families/entry_import.py) ------------------

_IMPORT_RUN = ("submit imports the entrypoint (osmosis-ai 0.3.8 platform/cli/rollout_entrypoint.py) and `eval run` runs it "
               "as a script (eval/local/_server_bootstrap.py): ")
UNBOUND_NAME = _rule(
    "ENT037", "unbound-name-at-import", "error",
    summary="Code that runs at import (module level, a class body, a decorator or default) uses a name the module never binds (not assigned, defined, imported, nor a builtin).",
    why=_IMPORT_RUN + "a name bound nowhere raises NameError there, so submit refuses the rollout and every `eval run` fails before /health. Typical causes: a typo (`backnd`), an import removed while its name is still used.",
    fix="Fix the spelling (the hint suggests the closest bound name), or import or define the name.",
    example="app = create_rollout_server(backend=backnd)",
    source="osmosis_ai/platform/cli/rollout_entrypoint.py; osmosis_ai/eval/local/_server_bootstrap.py",
)


IMPORT_NOT_PROVIDED = _rule(
    "ENT038", "import-not-in-environment", "error",
    summary="A module the entrypoint imports (directly or through the rollout's own modules) is neither the standard library, the rollout's own code, nor installed by any package the rollout declares or locks (uv.lock).",
    why=_IMPORT_RUN + "the rollout runs in the environment its pyproject and uv.lock install, so an import nothing there provides raises ModuleNotFoundError: a misspelt package, `import osmosis` for `osmosis_ai`, a dependency never added. Checked only when the rollout has a uv.lock; an import inside `try: ... except ImportError` is left alone.",
    fix="Fix the module's name (the hint suggests the closest installed one), or add its package: `uv add PACKAGE` in the rollout folder.",
    example="import osmosis   # the SDK's module is osmosis_ai",
    source="osmosis_ai/platform/cli/rollout_entrypoint.py; osmosis_ai/platform/cli/workspace_directory_contract.py",
)


EXIT_AT_IMPORT = _rule(
    "ENT039", "exit-at-import", "error",
    summary="A `raise` or `sys.exit()` (also `exit()`, `quit()`, `os._exit()`) runs unconditionally at module level.",
    why=_IMPORT_RUN + "an exception or SystemExit raised at import ends both: submit reports the import failure and `eval run`'s server exits before /health answers.",
    fix="Remove the statement, or move it into the function that needs it (or under a condition that really holds only when the rollout cannot work).",
    example='raise NotImplementedError("TODO")   # at module level',
    source="osmosis_ai/platform/cli/rollout_entrypoint.py; osmosis_ai/eval/local/_server_bootstrap.py",
)


REQUIRED_ENV_AT_IMPORT = _rule(
    "ENT040", "required-env-at-import", "error",
    summary="Module-level code reads an environment variable with `os.environ[\"NAME\"]`, which raises KeyError when it is not set.",
    why=_IMPORT_RUN + "wherever the variable is not set (submit imports the entrypoint in your own shell, where a secret the platform injects is usually absent) the KeyError fails the import. Read it where it is used (inside run or grade), or with os.environ.get and a default.",
    fix='Read it at run time, or use os.environ.get("NAME") and handle None (declare secrets in the config\'s [secrets] required).',
    example='API_KEY = os.environ["JUDGE_API_KEY"]   # at module level',
    source="osmosis_ai/platform/cli/rollout_entrypoint.py",
)


PACKAGE_RAISES_AT_IMPORT = _rule(
    "ENT041", "package-raises-at-import", "error",
    summary="An import in the entrypoint (or a rollout module it imports) reaches a package of the rollout whose `__init__.py` raises unconditionally at its top level.",
    why=_IMPORT_RUN + "importing `pkg.mod` runs `pkg/__init__.py` first, so a bare `raise` at the top of that file (not under an `if`, a `try` or a function) fails every import that goes through the package: submit reports the import failure and `eval run`'s server exits before /health answers. The finding sits at the import the failure shows at, and names the raise to remove.",
    fix="Remove the `raise` from the package's __init__.py, or move it into the function that needs it.",
    example='# rollouts/r/main.py\nfrom helpers.grading import grade\n# rollouts/r/helpers/__init__.py\nraise RuntimeError("configure me first")',
    source="osmosis_ai/platform/cli/rollout_entrypoint.py; osmosis_ai/eval/local/_server_bootstrap.py",
)
