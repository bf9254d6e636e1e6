"""Checks: rollout code against the `osmosis-ai` generation its requirement installs (contract
sections 2 and 7; the facts are the rows of generator/osmosis_workspace/core/sdk_generations.py).

Part of the entrypoints family. The requirement rules (ENT016-ENT018) are in sdk_requirements.py,
the entrypoint's structure in sdk_structure.py; the code rules run on the modules entrypoints.py has
already parsed, which calls :func:`api_findings` and sdk_structure's :func:`entrypoint_findings`.
Code is read statically, never imported.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from pathlib import Path

from osmosis_workspace.check.families.sdk_rules import (
    CONTEXT_API_NOT_IN_GENERATION, HARBOR_ARGUMENT, NAME_NOT_IN_GENERATION, WRONG_PORT,
)
from osmosis_workspace.check.sdk_target import Target
from osmosis_workspace.core.diagnostics import Diagnostic
from osmosis_workspace.core.records import dataclass
from osmosis_workspace.core.sdk_exports import Exports, exports_for
from osmosis_workspace.core.sdk_generations import ATTRIBUTES as CONTEXT_ATTRIBUTES
from osmosis_workspace.core.sdk_generations import (
    CLOSED_MODULES, GENERATIONS, HARBOR_ARGUMENT_INSTEAD, MODULES, NAMES, NAMES_BY_NAME, SDK_PACKAGE,
    WRONG_PORT_VARIABLES, Generation, harbor_arguments_known,
)
from osmosis_workspace.readers.pyast import GRADER, Ext, Module, Resolver
from osmosis_workspace.readers.pyclasses import guarded_imports, module_classes
from osmosis_workspace.core.paths import walk

Display = Callable[[Path], str]
_SKIP_DIRS = frozenset({".venv", "venv", "build", "dist", "node_modules", "__pycache__", "tests", "test"})
MAX_ROLLOUT_MODULES = 400  # a rollout is a handful of files; past this we stop reading


# -- code: names, context API, Harbor arguments, port ------------------------------------------


def rollout_modules(folder: Path) -> list[Path]:
    """The rollout's own Python files (packages included; tests, venvs and builds left out)."""
    found: list[Path] = []
    for here, dirs, files in walk(folder):
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
        self.exports: Exports | None = exports_for(self.target.release)

    # imports ------------------------------------------------------------------------------

    def imports(self) -> None:
        guarded = guarded_imports(self.module)
        for node in self.module.nodes(ast.ImportFrom, ast.Import):
            if id(node) in guarded:
                continue  # `try: from osmosis_ai... except ImportError:` expects it may be missing
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
        attributes = self.module.nodes(ast.Attribute)
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
                if self._known_module(dotted) and not self._known_module(key):
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

    def _known_module(self, dotted: str) -> bool:
        return self.exports.has_module(dotted) if self.exports is not None else _known_module(dotted)

    def _module_missing(self, dotted: str, at: ast.AST) -> bool:
        if self.exports is not None and not self.exports.has_module(dotted):
            prefix = next((p for p in MODULES if dotted == p or dotted.startswith(p + ".")), None)
            hint = ("Remove the import; see the replacement in docs/checks.md (ENT019)." if prefix
                    else "Check the module path against the SDK's source, or pin the release the code was written for.")
            self._add(NAME_NOT_IN_GENERATION, at, f"module {dotted} does not exist {self.under}", hint=hint)
            return True
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
        if self.exports is not None:
            if self.exports.exports(module, name):
                return None  # the release's own export table is the authority
            return self._judge_rows(module, name, at) or self._missing_from_table(module, name, at)
        return self._judge_rows(module, name, at)

    def _missing_from_table(self, module: str, name: str, at: ast.AST) -> tuple[ast.AST, str, str]:
        ex = self.exports
        assert ex is not None
        others = [m for m in ex.modules_exporting(name) if m != module]
        if others:
            return at, f"not in {module} (it is in {others[0]})", f"from {others[0]} import {name}"
        close = ex.close_names(module, name)
        if close:
            return at, f"not in {module}", f"Did you mean {close[0]}?"
        return at, f"not in {module}", "Remove what does not exist, or pin the release the code was written for."

    def _judge_rows(self, module: str, name: str, at: ast.AST) -> tuple[ast.AST, str, str] | None:
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
        # without a get_rollout_context() call, a function with no context parameter uses no context API
        fetched = any(self._is_get_rollout_context(call) for call in self.module.nodes(ast.Call))
        for fn in self.module.nodes(ast.FunctionDef, ast.AsyncFunctionDef):
            self._function_context_api(fn, id(fn) in grade_methods, fetched)

    def _function_context_api(self, fn: ast.FunctionDef | ast.AsyncFunctionDef, is_grade: bool, fetched: bool = True) -> None:
        owners: dict[str, str] = {}
        params = [*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs]
        for arg in params:
            owner = self._sdk_class_name(arg.annotation)
            if owner in ("GraderContext", "RolloutContext"):
                owners[arg.arg] = owner
        if is_grade and len(fn.args.args) >= 2:
            owners.setdefault(fn.args.args[1].arg, "GraderContext")
        if not owners and not fetched:
            return
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
        for node in self.module.nodes(ast.Call, ast.Subscript):
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
        if isinstance(arg, ast.Name):  # a module-level constant holding the name: PORT_ENV = "ROLLOUT_PORT"
            site = self.module.bindings.get(arg.id)
            value = getattr(site, "value", None) if isinstance(site, ast.Assign | ast.AnnAssign) else None
            arg = value if isinstance(value, ast.Constant) else arg
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


def scanned(target: Target) -> bool:
    """Whether the 0.2.23-0.2.31 submit check judges this entrypoint (or the generation is unknown, so
    it may): its rules are errors there, and the template's rule, a warning with another code, under 0.3."""
    return target.generation is None or bool(target.generation.submit_scan)


def loop_era_only(findings: list[Diagnostic], target: Target) -> list[Diagnostic]:
    """RolloutAgentLoop findings, kept only when the generation has the class: elsewhere the
    import is the one finding (ENT019)."""
    gen = target.generation
    return findings if gen is None or gen.key in NAMES_BY_NAME["RolloutAgentLoop"].where else []
