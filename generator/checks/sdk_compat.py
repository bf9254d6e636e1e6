"""Checks: rollout code against the `osmosis-ai` generation its requirement installs (contract
sections 2 and 7; the facts are the rows of generator/sdk_generations.py).

Part of the entrypoints family. The requirement rules (ENT016-ENT018) run per rollout from here;
the code rules run on the modules checks/entrypoints.py has already parsed, which calls
:func:`api_findings` and :func:`entrypoint_findings`. Code is read statically, never imported.
"""

from __future__ import annotations

import ast
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from generator.checks import workspace_check
from generator.diagnostics import Diagnostic, Severity
from generator.pyast import GRADER, WORKFLOW, ClassRef, Ext, Module, Resolver, binding_site, module_classes
from generator.registry import family_rules
from generator.sdk_generations import (
    CLOSED_MODULES,
    GENERATIONS,
    HARBOR_ARGUMENT_INSTEAD,
    MODULES,
    NAMES,
    NAMES_BY_NAME,
    SDK_PACKAGE,
    WRONG_PORT_VARIABLES,
    Generation,
    harbor_arguments_known,
)
from generator.sdk_generations import ATTRIBUTES as CONTEXT_ATTRIBUTES
from generator.sdk_target import Declared, Target, python_floor_breach, read_target
from generator.toml_locate import TomlDoc
from generator.workspace import Workspace

FAMILY = "entrypoints"
_rule = family_rules(FAMILY)
_S7 = "Source: contract section 7 (SDK generations) and generator/sdk_generations.py."

UNBOUNDED = _rule(
    "ENT016", "sdk-requirement-unbounded", "warning",
    summary="The `osmosis-ai` requirement has no upper bound (or none at all), so a new release can change the API under the rollout.",
    why="Each `osmosis-ai` generation renamed or moved rollout API (0.2 -> 0.3 moved imports, changed the grader and Harbor APIs); an open requirement installs whatever is newest the day the platform builds the rollout. " + _S7,
    fix='Bound it to the generation the code is written for, e.g. "osmosis-ai[server]>=0.3.1,<0.4".',
    example='dependencies = ["osmosis-ai[server]"]   # resolves to 0.3.x today, to 0.4 when it ships',
    source="contract §7",
)
UNSATISFIABLE = _rule(
    "ENT017", "sdk-requirement-unsatisfiable", "error",
    summary="No `osmosis-ai` release on the package index satisfies the rollout's requirement.",
    why="The platform installs the rollout's dependencies from the index; 0.2.7-0.2.24 are no longer there, so a requirement admitting only those fails to install. " + _S7,
    fix='Move the code to 0.3 and require "osmosis-ai[server]>=0.3.1,<0.4".',
    example='dependencies = ["osmosis-ai==0.2.15"]',
    source="contract §7",
)
PYTHON_BELOW_FLOOR = _rule(
    "ENT018", "python-below-sdk-floor", "error",
    summary="`requires-python` admits a Python older than the `osmosis-ai` generation the project requires supports.",
    why="osmosis-ai 0.2.18 and later require Python 3.12; a project declaring `>=3.10` cannot be resolved (uv refuses a dependency that does not cover the whole declared range). Source: Requires-Python of the 0.2.25-0.3.8 wheels; contract section 7.",
    fix='Set requires-python = ">=3.12".',
    example='requires-python = ">=3.10"',
    source="contract §7",
)
NAME_NOT_IN_GENERATION = _rule(
    "ENT019", "sdk-name-not-in-generation", "error",
    summary="The code imports an `osmosis_ai` name or module that the installed generation does not have there (moved or removed).",
    why="The entrypoint is imported on submit and run by `eval run` and the platform; an ImportError fails every rollout. E.g. 0.3 moved OsmosisStrandsAgent to osmosis_ai.rollout.integrations.agents.strands and create_rollout_server to osmosis_ai.rollout.server; RolloutAgentLoop exists only in 0.2.7-0.2.17, none of which is on the index. Source: osmosis-ai 0.3.7 rollout/__init__.py, 0.2.31 rollout/__init__.py; contract sections 2 and 7.",
    fix="Import the name from the module the finding names, or pin the generation the code was written for.",
    example="from osmosis_ai.rollout import OsmosisStrandsAgent   # with osmosis-ai>=0.3.1,<0.4",
    source="osmosis_ai/rollout/__init__.py; contract §2; contract §7",
)
CONTEXT_API_NOT_IN_GENERATION = _rule(
    "ENT020", "sdk-context-api-not-in-generation", "error",
    summary="A grader or workflow uses GraderContext / RolloutContext API the installed generation does not have (`ctx.samples`, `set_sample_reward`, `register_sample_source` under 0.3; `ctx.sample`, `set_reward` under 0.2).",
    why="An AttributeError inside grade() or run() fails the rollout; 0.3 has one sample per rollout (`ctx.sample`, `ctx.set_reward(r)`), 0.2 had several keyed by id. Source: rollout/context.py of osmosis-ai 0.3.7 and 0.2.31; contract section 7 (grader API, sample registration).",
    fix="Use the generation's API the finding names (0.3: `ctx.set_reward(score(ctx.sample.messages, ctx.label))`).",
    example="for sid in ctx.samples: ctx.set_sample_reward(sid, 1.0)   # with osmosis-ai>=0.3",
    source="osmosis_ai/rollout/context.py; contract §7",
)
HARBOR_ARGUMENT = _rule(
    "ENT021", "harbor-argument-not-in-generation", "error",
    summary="`HarborBackend(...)` is given arguments the installed generation does not take (0.3 removed `task_dir`, `user_code_dir`, `workflow`, `custom_tests_dir`, ...).",
    why="HarborBackend's arguments are keyword-only; an unknown keyword raises TypeError when the entrypoint is imported, so submit and every rollout fail. Source: osmosis-ai 0.3.7 rollout/backend/harbor/backend.py, 0.2.31 same file; contract section 7.",
    fix="Rename the arguments as the finding says (0.3: tasks_dir=, agent=, code_dir=).",
    example="HarborBackend(orchestrator=q, task_dir=HERE / 'task', user_code_dir=HERE, workflow=W)",
    source="osmosis_ai/rollout/backend/harbor/backend.py; contract §7",
)
WRONG_PORT = _rule(
    "ENT022", "wrong-rollout-port-variable", "error",
    summary="The rollout server reads its port from `ROLLOUT_PORT` instead of `_OSMOSIS_ROLLOUT_PORT`.",
    why="`eval run` and the platform start the entrypoint with `_OSMOSIS_ROLLOUT_PORT` set and wait for /health on that port; a server listening elsewhere is never reached. Source: osmosis-ai 0.3.7 eval/local/runner.py; contract sections 2 and 7 (server port).",
    fix='port=int(os.environ.get("_OSMOSIS_ROLLOUT_PORT", "8000"))',
    example='uvicorn.run(app, port=int(os.environ.get("ROLLOUT_PORT", "8000")))',
    source="osmosis_ai/eval/local/runner.py; contract §2; contract §7",
)
NO_GRADER = _rule(
    "ENT023", "no-grader", "error",
    summary="The entrypoint has no concrete Grader and passes no `grader=` to its backend.",
    why="`eval run` and managed training score every rollout; without a grader every graded rollout fails (0.3: LocalBackend without grader=), and the 0.2.23-0.2.31 submit check refuses an entrypoint without a Grader. Source: osmosis-ai 0.3.7 rollout/backend/local/backend.py, 0.2.31 platform/cli/workspace_directory_contract.py; contract section 2.",
    fix="Define `class MyGrader(Grader)` with `async def grade(self, ctx)` and pass grader=MyGrader to the backend.",
    example="backend = LocalBackend(workflow=MyWorkflow)",
    source="osmosis_ai/rollout/backend/local/backend.py; contract §2",
)
EXTRA_SUBCLASS = _rule(
    "ENT024", "abstract-class-beside-concrete", "warning",
    summary="An abstract AgentWorkflow (or Grader) subclass is bound in the entrypoint beside the concrete one.",
    why="The 0.2.23-0.2.31 submit check counts every AgentWorkflow/Grader subclass in the entrypoint's namespace, abstract or not, and refuses more than one (an error there); 0.3 imports without counting, but one workflow and one grader in the entrypoint stay the template's rule (a warning). Source: osmosis-ai 0.2.31 eval/common/cli.py; contract sections 2 and 7 (submit preflight).",
    fix="Move the abstract base to another module and import the module (`import base` ... `class W(base.Base)`), not the class.",
    example="class Base(AgentWorkflow, ABC): ...\nclass Multiply(Base): async def run(self, ctx): ...",
    source="contract §2; contract §7",
)
MULTIPLE_CONFIGS = _rule(
    "ENT025", "multiple-config-objects", "warning",
    summary="The entrypoint's namespace holds two or more AgentWorkflowConfig (or GraderConfig) objects.",
    why="The 0.2.23-0.2.31 submit check takes the one module-level AgentWorkflowConfig/GraderConfig of the entrypoint and refuses two (an error there); under 0.3 the backend is given its config explicitly and one of each stays the template's rule (a warning). Source: osmosis-ai 0.2.31 eval/common/cli.py; contract section 7.",
    fix="Keep one config object of each kind in the entrypoint; move the others to another module.",
    example='fast = AgentWorkflowConfig(name="fast")\nslow = AgentWorkflowConfig(name="slow")',
    source="contract §7",
)
NOT_IMPORTABLE = _rule(
    "ENT026", "harbor-object-not-importable", "error",
    summary="A HarborBackend workflow, grader or config object cannot be turned into a `module:attr` import path.",
    why="HarborBackend ships the workflow, grader and configs to each trial by import path: a class must live in a package module (not the entrypoint, which runs as __main__), and a config must be an instance of your own config class held by a public module-level name in the module defining that class; otherwise the SDK raises `Cannot resolve import path` or the trial cannot import `__main__:X`. Source: osmosis-ai 0.3.7 rollout/utils/imports.py (to_import_path) and rollout/backend/harbor/backend.py; contract section 2 (HarborBackend).",
    fix="Define the workflow, grader and `class MyConfig(AgentWorkflowConfig)` plus `CONFIG = MyConfig(...)` in a package module (e.g. my_rollout/workflow.py) and import them into the entrypoint.",
    example="HarborBackend(..., workflow_config=AgentWorkflowConfig(name='x'))",
    source="osmosis_ai/rollout/utils/imports.py; osmosis_ai/rollout/backend/harbor/backend.py; contract §2",
)

Display = Callable[[Path], str]
_SKIP_DIRS = frozenset({".venv", "venv", "build", "dist", "node_modules", "__pycache__", "tests", "test"})
MAX_ROLLOUT_MODULES = 400  # a rollout is a handful of files; past this we stop reading


# -- the rollout's requirement ---------------------------------------------------------------


def rollout_target(ws: Workspace, folder: Path) -> Target:
    """The generation ``folder``'s code is judged against (computed once per snapshot)."""

    def compute() -> Target:
        pyprojects = [(folder / "pyproject.toml", ws.read_text(folder / "pyproject.toml")),
                      (ws.root / "pyproject.toml", ws.read_text(ws.root / "pyproject.toml"))]
        return read_target(pyprojects, ws.read_text(folder / "uv.lock"))

    return ws.memo(f"sdk-target:{folder}", compute)


def file_target(path: Path, requirement: str | None = None) -> Target:
    """The target for one entrypoint file: ``requirement`` when given, else the pyproject beside it."""
    from generator.pep440 import Requirement
    from generator.sdk_target import target_for

    if requirement is not None:
        parsed = Requirement.parse(requirement)
        return target_for([Declared(parsed, path, None, None)] if parsed else [])
    pyproject = path.parent / "pyproject.toml"
    lock = path.parent / "uv.lock"
    return read_target([(pyproject, _read(pyproject))], _read(lock))


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8") if path.is_file() and path.stat().st_size < 1_000_000 else None
    except (OSError, UnicodeDecodeError):
        return None


@workspace_check(FAMILY)
def check_sdk_requirements(ws: Workspace) -> list[Diagnostic]:
    found: list[Diagnostic] = []
    for folder in ws.rollout_dirs:
        target = rollout_target(ws, folder)
        found += requirement_findings(ws, target)
        found += _python_findings(ws, folder / "pyproject.toml", target, rollout=folder.name)
    root_target = read_target([(ws.root / "pyproject.toml", ws.read_text(ws.root / "pyproject.toml"))])
    if root_target.declared:
        found += requirement_findings(ws, root_target)
        found += _python_findings(ws, ws.root / "pyproject.toml", root_target, rollout=None)
    return list(dict.fromkeys(found))


def requirement_findings(ws: Workspace | None, target: Target) -> list[Diagnostic]:
    """ENT016/ENT017 for one target, at its (first) requirement string."""
    if not target.declared or target.url is not None:
        return []  # no requirement: ENT009; a direct URL: the version is not knowable here
    first = target.declared[0]
    path = ws.rel(first.pyproject) if ws else first.pyproject.as_posix()
    where = {"line": first.line, "column": first.column}
    if target.release is None and target.admitted:
        gens = ", ".join(g.label for g in target.admitted_generations)
        return [UNSATISFIABLE.at(
            path, f"no osmosis-ai release on the package index satisfies {target.requirement_text} (it admits only {gens}, removed from the index)",
            **where,
        )]
    if target.release is None and not target.unbounded:
        return [UNSATISFIABLE.at(path, f"no known osmosis-ai release satisfies {target.requirement_text}", **where)]
    if target.unbounded and not target.locked:
        today = f"it resolves to {target.release} ({target.generation.label}) today" if target.release and target.generation else "no release known to this check satisfies it yet"
        bare = not target.specifier.clauses
        what = "has no version bound" if bare else "has no upper bound"
        return [UNBOUNDED.at(
            path, f"{target.requirement_text} {what}: {today}, and to whatever a new major release brings later", **where,
            hint=f'Bound it to the generation the code fits, e.g. "{_suggested(first)}".',
        )]
    return []


def _suggested(declared: Declared) -> str:
    extras = f"[{','.join(declared.requirement.extras)}]" if declared.requirement.extras else ""
    return f"osmosis-ai{extras}>=0.3.1,<0.4"


def _python_findings(ws: Workspace, pyproject: Path, target: Target, *, rollout: str | None) -> list[Diagnostic]:
    if target.generation is None:
        return []
    text = ws.read_text(pyproject)
    doc = TomlDoc.parse(text) if text is not None else None
    project = doc.data.get("project") if doc is not None and doc.data is not None else None
    requires = project.get("requires-python") if isinstance(project, dict) else None
    if not isinstance(requires, str):
        return []
    floor = target.generation.python_floor
    below = python_floor_breach(requires, floor)
    if below is None:
        return []
    line, column = doc.locator.value(("project", "requires-python")) or (None, None)  # type: ignore[union-attr]
    whose = f"rollout {rollout!r}" if rollout else "the workspace"
    return [PYTHON_BELOW_FLOOR.at(
        ws.rel(pyproject),
        f"requires-python {requires!r} admits Python {below}, but {whose} gets {target.describe()}, which needs Python >={floor[0]}.{floor[1]}",
        line=line, column=column, hint=f'Set requires-python = ">={floor[0]}.{floor[1]}".',
    )]


# -- code: names, context API, Harbor arguments, port ------------------------------------------


def rollout_modules(folder: Path) -> list[Path]:
    """The rollout's own Python files (packages included; tests, venvs and builds left out)."""
    found: list[Path] = []
    for here, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if d not in _SKIP_DIRS and not d.startswith("."))
        for name in sorted(files):
            if name.endswith(".py") and not name.startswith("test_") and name != "conftest.py":
                found.append(Path(here) / name)
                if len(found) >= MAX_ROLLOUT_MODULES:
                    return found
    return found


def api_findings(resolver: Resolver, module: Module, show: Display, target: Target) -> list[Diagnostic]:
    """Use of `osmosis_ai` API in ``module`` that ``target``'s generation does not have."""
    gen = target.generation
    if module.tree is None or gen is None:
        return []
    ctx = _Ctx(resolver, module, show(module.path), gen, target)
    ctx.imports()
    ctx.context_api()
    ctx.harbor_and_port()
    return ctx.found


@dataclass
class _Ctx:
    resolver: Resolver
    module: Module
    path: str
    gen: Generation
    target: Target

    def __post_init__(self) -> None:
        self.found: list[Diagnostic] = []
        self.under = f"under {self.target.describe()}"
        self.nodes = list(ast.walk(self.module.tree))  # type: ignore[arg-type]  (walked once, filtered per check)

    # imports ------------------------------------------------------------------------------

    def imports(self) -> None:
        for node in self.nodes:
            if isinstance(node, ast.ImportFrom) and node.level == 0 and _is_sdk(node.module):
                if not self._module_missing(node.module, node):  # type: ignore[arg-type]
                    # one finding per import statement: it is the one line to fix
                    problems = [p for a in node.names if a.name != "*" and (p := self._judge(node.module, a.name, a))]  # type: ignore[arg-type]
                    if problems:
                        self._add(NAME_NOT_IN_GENERATION, problems[0][0], self._listing(problems), hint=_joined_hints(problems))
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if _is_sdk(alias.name):
                        self._module_missing(alias.name, alias)
        # `import osmosis_ai.rollout as r` ... `r.OsmosisStrandsAgent`: judged at its first use. Each
        # attribute chain is unwound once from its outermost node, so long chains cost linear time.
        attributes = [n for n in self.nodes if isinstance(n, ast.Attribute)]
        inner = {id(n.value) for n in attributes}
        chains = sorted((n for n in attributes if id(n) not in inner), key=lambda n: (n.lineno, n.col_offset))
        seen: set[str] = set()
        for outer in chains:
            links: list[ast.Attribute] = []
            node: ast.AST = outer
            while isinstance(node, ast.Attribute):
                links.append(node)
                node = node.value
            if not isinstance(node, ast.Name):
                continue
            base = self.resolver.lookup(self.module, node.id)
            if not isinstance(base, Ext) or not _is_sdk(base.dotted):
                continue
            dotted = base.dotted
            for link in reversed(links):
                key = f"{dotted}.{link.attr}"
                if _known_module(dotted) and not _known_module(key):
                    if key not in seen:
                        seen.add(key)
                        problem = self._judge(dotted, link.attr, link)
                        if problem:
                            self._add(NAME_NOT_IN_GENERATION, link, self._listing([problem]), hint=problem[2])
                    break
                dotted = key

    def _listing(self, problems: list[tuple[ast.AST, str, str]]) -> str:
        """``Under G: A, B: only in ...; C: moved to ...``, names grouped by what is wrong with them."""
        by_reason: dict[str, list[str]] = {}
        for at, reason, _ in problems:
            by_reason.setdefault(reason, []).append(getattr(at, "name", None) or getattr(at, "attr", "?"))
        parts = "; ".join(f"{', '.join(names)}: {reason}" for reason, names in by_reason.items())
        return f"{self.under[0].upper()}{self.under[1:]}, {parts}"

    def _module_missing(self, dotted: str, at: ast.AST) -> bool:
        if not self.gen.modules_known:
            return False
        for prefix, gens in MODULES.items():
            if (dotted == prefix or dotted.startswith(prefix + ".")) and self.gen.key not in gens:
                self._add(NAME_NOT_IN_GENERATION, at, f"module {prefix} does not exist {self.under}",
                          hint="Remove the import; see the replacement in docs/checks.md (ENT019).")
                return True
        return False

    def _judge(self, module: str, name: str, at: ast.AST) -> tuple[ast.AST, str, str] | None:
        """(where, what is wrong, how to fix it) when ``module`` has no ``name`` in this generation."""
        row = NAMES_BY_NAME.get(name)
        key = self.gen.key
        if row is None:
            if key in CLOSED_MODULES.get(module, ()):
                return at, f"not in {module}", "Remove what does not exist, or pin the generation the code was written for."
            return None
        modules = row.where.get(key)
        if modules is None and not self.gen.modules_known and key not in row.instead:
            return None  # what this generation lacks is known only where its row says so
        if modules is None:
            instead = row.instead.get(key)
            others = [g.label for g in GENERATIONS if g.key in row.where]
            had = f"only in {' and '.join(others)}" if others else "never released"
            hint = f"Instead of {name}: {instead}." if instead else "Remove what does not exist, or pin the generation the code was written for."
            return at, had, hint
        if module in modules:
            return None
        elsewhere = any(module in mods for mods in row.where.values())
        if elsewhere or key in CLOSED_MODULES.get(module, ()):
            return at, f"moved from {module} to {modules[0]}", f"from {modules[0]} import {name}"
        return None

    # context API ----------------------------------------------------------------------------

    def context_api(self) -> None:
        graders = {c.key for c in module_classes(self.module) if GRADER in self.resolver.sdk_kinds(c)}
        grade_methods = {
            id(stmt) for c in module_classes(self.module) if c.key in graders
            for stmt in c.node.body if isinstance(stmt, ast.AsyncFunctionDef | ast.FunctionDef) and stmt.name == "grade"
        }
        for fn in self.nodes:
            if isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
                self._function_context_api(fn, id(fn) in grade_methods)

    def _function_context_api(self, fn: ast.FunctionDef | ast.AsyncFunctionDef, is_grade: bool) -> None:
        owners: dict[str, str] = {}
        params = [*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs]
        for arg in params:
            owner = self._sdk_class_name(arg.annotation)
            if owner in ("GraderContext", "RolloutContext"):
                owners[arg.arg] = owner
        if is_grade and len(fn.args.args) >= 2:
            owners.setdefault(fn.args.args[1].arg, "GraderContext")
        own = list(_own_nodes(fn))
        for stmt in own:
            if isinstance(stmt, ast.Assign) and self._is_get_rollout_context(stmt.value):
                for t in stmt.targets:
                    if isinstance(t, ast.Name):
                        owners[t.id] = "RolloutContext"
        uses: list[tuple[ast.Attribute, str]] = []
        for node in own:
            if not isinstance(node, ast.Attribute):
                continue
            if isinstance(node.value, ast.Name) and node.value.id in owners:
                uses.append((node, owners[node.value.id]))
            elif self._is_get_rollout_context(node.value):
                uses.append((node, "RolloutContext"))
        bad: dict[str, tuple[ast.Attribute, str]] = {}
        for node, owner in sorted(uses, key=lambda u: (u[0].lineno, u[0].col_offset)):
            for row in CONTEXT_ATTRIBUTES:
                if row.owner == owner and row.name == node.attr and self.gen.key not in row.gens:
                    bad.setdefault(f"{owner}.{node.attr}", (node, row.instead.get(self.gen.key, "")))
        if not bad:
            return
        first = next(iter(bad.values()))[0]
        listing = ", ".join(f"{k.split('.')[1]}" for k in bad)
        insteads = "; ".join(f"{k.split('.')[1]} -> {v}" for k, (_, v) in bad.items() if v)
        self._add(CONTEXT_API_NOT_IN_GENERATION, first,
                  f"{fn.name}() uses context API that does not exist {self.under}: {listing}",
                  hint=f"Use {insteads}." if insteads else None)

    def _sdk_class_name(self, annotation: ast.AST | None) -> str | None:
        if annotation is None:
            return None
        if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
            return annotation.value.rsplit(".", 1)[-1] if annotation.value.endswith(("GraderContext", "RolloutContext")) else None
        found = self.resolver.resolve(self.module, annotation)
        if isinstance(found, Ext) and _is_sdk(found.dotted):
            return found.dotted.rsplit(".", 1)[-1]
        return None

    def _is_get_rollout_context(self, node: ast.AST) -> bool:
        if not isinstance(node, ast.Call):
            return False
        found = self.resolver.resolve(self.module, node.func)
        return isinstance(found, Ext) and _is_sdk(found.dotted) and found.dotted.endswith(".get_rollout_context")

    # Harbor arguments and the port ------------------------------------------------------------

    def harbor_and_port(self) -> None:
        known = harbor_arguments_known()
        for node in self.nodes:
            if isinstance(node, ast.Call):
                callee = self.resolver.resolve(self.module, node.func)
                dotted = callee.dotted if isinstance(callee, Ext) else ""
                if _is_sdk(dotted) and dotted.endswith(".HarborBackend") and self.gen.harbor_arguments:
                    self._harbor_call(node, known)
                elif dotted in ("os.environ.get", "os.getenv", "os.environ.setdefault") and node.args:
                    self._port(node.args[0])
            elif isinstance(node, ast.Subscript):
                base = self.resolver.resolve(self.module, node.value)
                if isinstance(base, Ext) and base.dotted == "os.environ":
                    self._port(node.slice)

    def _harbor_call(self, call: ast.Call, known: frozenset[str]) -> None:
        bad = [kw for kw in call.keywords if kw.arg and kw.arg in known and kw.arg not in self.gen.harbor_arguments]
        if not bad:
            return
        names = ", ".join(f"{kw.arg}=" for kw in bad)
        insteads = [f"{kw.arg}= -> {HARBOR_ARGUMENT_INSTEAD[kw.arg][self.gen.key]}" for kw in bad
                    if self.gen.key in HARBOR_ARGUMENT_INSTEAD.get(kw.arg, {})]
        self._add(HARBOR_ARGUMENT, bad[0], f"HarborBackend takes no {names} {self.under}",
                  hint=("Rename: " + "; ".join(insteads) + ".") if insteads else None)

    def _port(self, arg: ast.AST) -> None:
        wanted = self.gen.port_variable
        if wanted and isinstance(arg, ast.Constant) and arg.value in WRONG_PORT_VARIABLES:
            self._add(WRONG_PORT, arg, f"the server's port is read from {arg.value}, but {self.under} the rollout is started with {wanted} set",
                      hint=f'Read {wanted}: port=int(os.environ.get("{wanted}", "8000")).')

    def _add(self, rule, at: ast.AST, message: str, *, hint: str | None = None) -> None:
        line = getattr(at, "lineno", None)
        column = getattr(at, "col_offset", None)
        self.found.append(rule.at(self.path, message, line=line, column=None if column is None else column + 1, hint=hint))


def _own_nodes(fn: ast.AST):
    """The nodes of ``fn``'s body, without those of functions and classes nested in it (they are
    visited as functions of their own): every node is looked at once."""
    stack = list(ast.iter_child_nodes(fn))
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | ast.ClassDef):
            stack.extend(ast.iter_child_nodes(node))


def _joined_hints(problems: list[tuple[ast.AST, str, str]]) -> str:
    """One hint for one import statement: moved names as one import line per module, then advice."""
    moves: dict[str, list[str]] = {}
    advice: list[str] = []
    for _, _, hint in problems:
        if hint.startswith("from "):
            module, _, name = hint[len("from "):].partition(" import ")
            moves.setdefault(module, []).append(name)
        else:
            advice.append(hint)
    lines = [f"from {module} import {', '.join(names)}" for module, names in moves.items()]
    return "; ".join(lines + list(dict.fromkeys(advice)))


def _is_sdk(dotted: str | None) -> bool:
    return bool(dotted) and (dotted == SDK_PACKAGE or dotted.startswith(SDK_PACKAGE + "."))  # type: ignore[union-attr]


def _known_modules() -> frozenset[str]:
    mods = set(CLOSED_MODULES) | set(MODULES)
    for row in NAMES:
        for where in row.where.values():
            mods.update(where)
    return frozenset(mods)


_KNOWN_MODULES = _known_modules()


def _known_module(dotted: str) -> bool:
    return dotted in _KNOWN_MODULES


def scan_severity(target: Target) -> tuple[Severity | None, str]:
    """How a rule the 0.2.23-0.2.31 submit check enforces applies: as declared where the
    generation scans the entrypoint, else a warning (under 0.3 it is the template's rule)."""
    if target.generation is None or target.generation.submit_scan:
        return None, ""
    return Severity.WARNING, " (the template's rule; 0.3 runs the one class its backend names)"


def loop_era_only(findings: list[Diagnostic], target: Target) -> list[Diagnostic]:
    """RolloutAgentLoop findings, kept only when the generation has the class: elsewhere the
    import is the one finding (ENT019)."""
    gen = target.generation
    return findings if gen is None or gen.key in NAMES_BY_NAME["RolloutAgentLoop"].where else []


# -- the entrypoint's structure -------------------------------------------------------------------

Bound = list[tuple[ClassRef, "int | None", "int | None"]]


def entrypoint_findings(resolver: Resolver, module: Module, show: Display, target: Target,
                        bound: dict[str, Bound], concrete: dict[str, Bound]) -> list[Diagnostic]:
    """Grader present, no abstract classes or second configs beside the concrete ones, Harbor
    objects importable. ``bound``/``concrete``: the entrypoint namespace's SDK subclasses by kind."""
    gen = target.generation
    if gen is None or not _has_workflows(gen):
        return []
    path = show(module.path)
    found: list[Diagnostic] = []
    severity = Severity.ERROR if gen.submit_scan else Severity.WARNING
    scan = ("the 0.2.23-0.2.31 submit check refuses it" if gen.submit_scan
            else "one of each in the entrypoint is the template's rule")
    for kind in (WORKFLOW, GRADER):
        extra = [item for item in bound[kind] if all(item[0].key != c[0].key for c in concrete[kind])]
        if concrete[kind] and extra:
            cls, line, column = extra[0]
            names = ", ".join(c.name for c, _, _ in extra)
            found.append(EXTRA_SUBCLASS.at(
                path, f"abstract {kind} subclass {names} is bound in the entrypoint beside {concrete[kind][0][0].name} ({scan}, {target.describe()})",
                line=line, column=column, severity=severity,
            ))
    calls = _backend_calls(resolver, module)
    if concrete[WORKFLOW] and not concrete[GRADER] and not any(_keyword(c, "grader") for c in calls):
        at = calls[0] if calls else None
        line, column = (at.lineno, at.col_offset + 1) if at else concrete[WORKFLOW][0][1:]
        found.append(NO_GRADER.at(
            path, "no concrete Grader in the entrypoint and no grader= passed to the backend: every graded rollout fails",
            line=line, column=column,
        ))
    found += _config_findings(resolver, module, path, severity, scan, target)
    for call in calls:
        if _callee(resolver, module, call).endswith(".HarborBackend"):
            found += _importable_findings(resolver, module, path, call)
    return found


def _has_workflows(gen: Generation) -> bool:
    return "A" in NAMES_BY_NAME["AgentWorkflow"].where and gen.key in NAMES_BY_NAME["AgentWorkflow"].where


def _callee(resolver: Resolver, module: Module, call: ast.Call) -> str:
    found = resolver.resolve(module, call.func)
    return found.dotted if isinstance(found, Ext) and _is_sdk(found.dotted) else ""


def _backend_calls(resolver: Resolver, module: Module) -> list[ast.Call]:
    calls = [n for n in ast.walk(module.tree) if isinstance(n, ast.Call)  # type: ignore[arg-type]
             and _callee(resolver, module, n).endswith((".LocalBackend", ".HarborBackend"))]
    return sorted(calls, key=lambda c: (c.lineno, c.col_offset))


def _keyword(call: ast.Call, name: str) -> ast.expr | None:
    for kw in call.keywords:
        if kw.arg == name and not (isinstance(kw.value, ast.Constant) and kw.value.value is None):
            return kw.value
    return None


_CONFIG_KINDS = ("AgentWorkflowConfig", "GraderConfig")


def _config_class(resolver: Resolver, module: Module, func: ast.AST) -> tuple[str, ClassRef | None] | None:
    """(SDK config kind, the local subclass or None for the SDK class itself) of a constructor."""
    found = resolver.resolve(module, func)
    if isinstance(found, Ext) and _is_sdk(found.dotted) and found.dotted.rsplit(".", 1)[-1] in _CONFIG_KINDS:
        return found.dotted.rsplit(".", 1)[-1], None
    if isinstance(found, ClassRef):
        for ancestor in resolver.mro(found):
            for base in resolver.bases(ancestor):
                if isinstance(base, Ext) and _is_sdk(base.dotted) and base.dotted.rsplit(".", 1)[-1] in _CONFIG_KINDS:
                    return base.dotted.rsplit(".", 1)[-1], found
    return None


def _config_findings(resolver: Resolver, module: Module, path: str, severity: Severity, scan: str, target: Target) -> list[Diagnostic]:
    by_kind: dict[str, dict[int, tuple[str, object]]] = {}
    for name, binding in module.bindings.items():
        site = resolver.value_site(module, name)
        if site is None or not isinstance(site[1].value, ast.Call):
            continue
        made = _config_class(resolver, site[0], site[1].value.func)
        if made is not None:
            by_kind.setdefault(made[0], {}).setdefault(id(site[1]), (name, binding))
    found = []
    for kind, objects in by_kind.items():
        if len(objects) > 1:
            items = sorted(objects.values(), key=lambda item: binding_site(item[1]))
            line, column = binding_site(items[1][1])
            names = ", ".join(n for n, _ in items)
            found.append(MULTIPLE_CONFIGS.at(
                path, f"{len(items)} {kind} objects in the entrypoint namespace ({names}) ({scan}, {target.describe()})",
                line=line, column=column, severity=severity,
            ))
    return found


_IMPORTED_ARGUMENTS = ("agent", "workflow", "grader", "workflow_config", "grader_config")


def _importable_findings(resolver: Resolver, module: Module, path: str, call: ast.Call) -> list[Diagnostic]:
    found = []
    for kw in call.keywords:
        if kw.arg not in _IMPORTED_ARGUMENTS:
            continue
        if kw.arg == "agent" and isinstance(kw.value, ast.Constant):
            continue  # a string agent may be a native harbor agent's name, not an import path
        problem = _import_path_problem(resolver, module, kw.value)
        if problem:
            found.append(NOT_IMPORTABLE.at(
                path, f"HarborBackend {kw.arg}=: {problem}", line=kw.value.lineno, column=kw.value.col_offset + 1,
            ))
    return found


def _import_path_problem(resolver: Resolver, module: Module, value: ast.expr) -> str | None:
    if isinstance(value, ast.Constant):
        if isinstance(value.value, str) and ":" not in value.value:
            return f"{value.value!r} is not a 'module:attr' import path"
        return None
    if isinstance(value, ast.Call):
        made = _config_class(resolver, module, value.func)
        what = made[0] if made else "an object"
        return f"{what} created inline has no module-level name, so the SDK cannot resolve its import path"
    found = resolver.resolve(module, value)
    if isinstance(found, ClassRef):
        if found.module is module:
            return f"{found.name} is defined in the entrypoint, which runs as __main__; a trial cannot import it"
        return None
    if not isinstance(value, ast.Name):
        return None
    site = resolver.value_site(module, value.id)
    if site is None or not isinstance(site[1].value, ast.Call):
        return None
    where, stmt = site
    made = _config_class(resolver, where, stmt.value.func)  # type: ignore[union-attr]
    if made is None:
        return None
    kind, cls = made
    name = next((n for n, b in where.bindings.items() if b is stmt), value.id)
    if cls is None:
        return (f"{name} is an instance of the SDK's own {kind}, which the SDK looks up in osmosis_ai's module, "
                f"not yours: subclass {kind} in your package module and create the instance there")
    if where is module:
        return f"{name} is created in the entrypoint, which runs as __main__; a trial cannot import it"
    if cls.module is not where:
        return f"{name} is not in {cls.module.path.name}, the module defining its class {cls.name}; the SDK looks for it only there"
    if name.startswith("_"):
        return f"{name} is private; the SDK resolves only public module-level names"
    return None
