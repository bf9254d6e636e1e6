"""What fails when the SDK imports or runs the rollout's modules (part of the entrypoints family),
read statically: imports from the rollout's own package, calls into osmosis_ai against the
installed release's signatures (generator/osmosis_workspace/core/sdk_exports.json), and, for the entrypoint, how
`eval run` starts it (a `__main__` server start on `_OSMOSIS_ROLLOUT_PORT`, no relative import)
and whether its LocalBackend can grade.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from pathlib import Path

from osmosis_workspace.check.families.sdk_rules import (
    CALL_ARGUMENTS, LOCAL_NAME_MISSING, NO_GRADER, NO_SERVER_START, RELATIVE_IMPORT, SERVER_PORT,
)
from osmosis_workspace.check.sdk_target import Target
from osmosis_workspace.core.diagnostics import Diagnostic
from osmosis_workspace.core.sdk_exports import exports_for
from osmosis_workspace.core.tool_folders import PRUNED
from osmosis_workspace.core.sdk_generations import SDK_PACKAGE, WRONG_PORT_VARIABLES, harbor_arguments_known
from osmosis_workspace.core.suggest import close_matches
from osmosis_workspace.readers.pyast import Ext, Module, Resolver
from osmosis_workspace.readers.pyclasses import answers_any_name, guarded_imports, imported_module, local_module, submodule

Display = Callable[[Path], str]


def _at(rule, path: str, node: ast.AST, message: str, hint: str | None = None) -> Diagnostic:
    return rule.at(path, message, line=getattr(node, "lineno", None),
                   column=getattr(node, "col_offset", -1) + 1 or None, hint=hint)


def _sdk(dotted: str) -> bool:
    return dotted == SDK_PACKAGE or dotted.startswith(SDK_PACKAGE + ".")


# -- every module of the rollout ------------------------------------------------------------------


def module_findings(resolver: Resolver, module: Module, show: Display, target: Target) -> list[Diagnostic]:
    """Imports of the rollout's own names that do not exist, and SDK calls the release refuses."""
    if module.tree is None:
        return []
    path = show(module.path)
    return _local_imports(resolver, module, path, show) + _sdk_calls(resolver, module, path, target)


def _local_package(resolver: Resolver, module: Module, dotted: str) -> Module | None:
    """The rollout's own top-level package of ``dotted`` (``pkg`` of ``pkg.mod``), if it has one."""
    top = dotted.split(".")[0]
    return local_module(resolver, module, top) if "." in dotted else None


def _module_hint(resolver: Resolver, module: Module, dotted: str) -> str | None:
    """"Did you mean pkg.grader?" for a misspelt module of the rollout's own package."""
    from osmosis_workspace.core.suggest import closest

    parent, _, name = dotted.rpartition(".")
    package = local_module(resolver, module, parent) if parent else None
    if package is None or package.path.name != "__init__.py":
        return None
    try:
        entries = list(package.path.parent.iterdir())
    except OSError:
        return None
    known = [p.stem for p in entries if p.suffix == ".py" and p.stem != "__init__"] + [p.name for p in entries if (p / "__init__.py").is_file()
                                                                                        and p.name not in PRUNED]  # never looked into
    guess = closest(name, known)
    return f"Did you mean {parent}.{guess}?" if guess else None


def _local_imports(resolver: Resolver, module: Module, path: str, show: Display) -> list[Diagnostic]:
    found = []
    guarded = guarded_imports(module)
    for node in module.nodes(ast.Import, ast.ImportFrom):
        if id(node) in guarded:
            continue
        if isinstance(node, ast.Import):
            for alias in node.names:
                if local_module(resolver, module, alias.name) is None and _local_package(resolver, module, alias.name):
                    found.append(_at(LOCAL_NAME_MISSING, path, node, f"no module {alias.name} in the rollout: the package has no such file",
                                     hint=_module_hint(resolver, module, alias.name)))
        elif isinstance(node, ast.ImportFrom):
            source = imported_module(resolver, module, node)
            if isinstance(source, str):
                if source and _local_package(resolver, module, source) is not None:
                    found.append(_at(LOCAL_NAME_MISSING, path, node, f"no module {source} in the rollout: the package has no such file",
                                     hint=_module_hint(resolver, module, source)))
                continue
            if source is None or source.tree is None or answers_any_name(source):
                continue  # outside the rollout, unparsable (ENT002) or not knowable statically
            missing = [a.name for a in node.names if a.name != "*" and a.name not in source.bindings
                       and submodule(resolver, source, a.name) is None
                       and not (node.module is None and imported_module(resolver, module, node, a.name) is not source)]
            if missing:
                close = close_matches(missing[0], [n for n in source.bindings if not n.startswith("_")], n=1, cutoff=0.6)
                found.append(_at(LOCAL_NAME_MISSING, path, node, f"{show(source.path)} does not define {', '.join(missing)}: the import raises ImportError",
                                 hint=f"Did you mean {close[0]}?" if close else None))
    return found


def _sdk_calls(resolver: Resolver, module: Module, path: str, target: Target) -> list[Diagnostic]:
    exports = exports_for(target.release)
    if exports is None:
        return []
    harbor_known = harbor_arguments_known()
    found = []
    for node in module.nodes(ast.Call):
        callee = resolver.resolve(module, node.func)
        if not isinstance(callee, Ext) or not _sdk(callee.dotted) or "." not in callee.dotted:
            continue
        where, name = callee.dotted.rsplit(".", 1)
        sig = exports.signature(where, name)
        if sig is None:
            continue
        splat_args = any(isinstance(a, ast.Starred) for a in node.args)
        splat_kw = any(kw.arg is None for kw in node.keywords)
        given = [kw.arg for kw in node.keywords if kw.arg]
        harbor = name == "HarborBackend"
        problems = []
        unknown = [k for k in given if not sig.varkw and k not in sig.accepted_keywords
                   and not (harbor and k in harbor_known)]  # ENT021 names those, with the rename
        if unknown:
            problems.append(f"no keyword {', '.join(k + '=' for k in unknown)}")
        if not sig.varargs and not splat_args and len(node.args) > len(sig.positional):
            takes = f"{len(sig.positional)} positional" if sig.positional else "keywords only"
            problems.append(f"{len(node.args)} positional argument(s) given, it takes {takes}")
        if not splat_args and not splat_kw:
            by_position = set(sig.positional[: len(node.args)])
            missing = sorted((sig.required - by_position - set(given)) | (sig.keywords_required - set(given)))
            renamed = harbor and any(k in harbor_known and k not in sig.accepted_keywords for k in given)
            if missing and not renamed:  # a renamed argument is ENT021's one finding
                problems.append(f"missing {', '.join(m + '=' for m in missing)}")
        if problems:
            problems[-1] += " (TypeError when it runs)"
        problems += _value_problems(module, node, name)
        found += _import_paths(resolver, module, path, node) if name == "LocalBackend" else []
        if problems:
            accepted = ", ".join(sorted(sig.accepted_keywords)) or "none"
            found.append(_at(CALL_ARGUMENTS, path, node,
                             f"{name}(...) under osmosis-ai {exports.label}: {'; '.join(problems)}",
                             hint=f"{name} takes: {accepted}."))
    return found


def _module_value(module: Module, expr: ast.AST) -> ast.AST:
    """``expr``, or the value a module-level name is last assigned (one step)."""
    if isinstance(expr, ast.Name):
        site = module.bindings.get(expr.id)
        if isinstance(site, ast.Assign | ast.AnnAssign) and site.value is not None:
            return site.value
    return expr


_NOT_AN_OBJECT = {ast.Dict: "a dict", ast.List: "a list", ast.Set: "a set", ast.Tuple: "a tuple", ast.DictComp: "a dict",
                  ast.ListComp: "a list", ast.JoinedStr: "an f-string"}


# Parameters None breaks although the call accepts it (osmosis-ai 0.3.8): the server's lifespan calls
# backend.shutdown as it starts; LocalBackend stores workflow=None and fails on the first rollout.
_NOT_NONE = {"create_rollout_server": ("backend",), "LocalBackend": ("workflow",)}


def _value_problems(module: Module, call: ast.Call, name: str) -> list[str]:
    """None where the SDK needs an object; a dict (or other literal) where LocalBackend takes a class,
    a config object or a 'module:attr' path (it reads `.concurrency` off the config when built)."""
    problems = []
    for kw in call.keywords:
        value = _module_value(module, kw.value) if kw.arg else None
        if kw.arg in _NOT_NONE.get(name, ()) and isinstance(value, ast.Constant) and value.value is None:
            problems.append(f"{kw.arg}=None, where it needs a real object (the server or rollout fails when it is first used)")
        elif name == "LocalBackend" and kw.arg in _LOCAL_BACKEND_KEYWORDS:
            kind = _NOT_AN_OBJECT.get(type(value)) or ("a number" if isinstance(value, ast.Constant) and isinstance(value.value, int | float) else None)
            if kind:
                problems.append(f"{kw.arg}= is given {kind}, not a class, config object or 'module:attr' path "
                                "(AttributeError or TypeError when the backend is built or used)")
    return problems


def _import_paths(resolver: Resolver, module: Module, path: str, call: ast.Call) -> list[Diagnostic]:
    """LocalBackend's 'module:attr' strings (resolved by import when the backend is built): a string
    without ':' (ValueError) or naming what the rollout's own package does not define (ImportError)."""
    found = []
    for kw in call.keywords:
        value = _module_value(module, kw.value) if kw.arg in _LOCAL_BACKEND_KEYWORDS else None
        if not (isinstance(value, ast.Constant) and isinstance(value.value, str)):
            continue
        ref = value.value
        if ":" not in ref:
            found.append(_at(CALL_ARGUMENTS, path, kw.value, f"{kw.arg}={ref!r} is not a 'module:attr' import path: LocalBackend raises ValueError when built",
                             hint="Pass the object itself, or write the path as 'package.module:Name'."))
            continue
        dotted, _, attr = ref.rpartition(":")
        target = local_module(resolver, module, dotted)
        if target is None:
            if _local_package(resolver, module, dotted) is not None:
                found.append(_at(LOCAL_NAME_MISSING, path, kw.value, f"{kw.arg}={ref!r}: no module {dotted} in the rollout (ImportError when the backend is built)",
                                 hint=_module_hint(resolver, module, dotted)))
        elif target.tree is not None and not answers_any_name(target) and attr not in target.bindings:
            close = close_matches(attr, [n for n in target.bindings if not n.startswith("_")], n=1, cutoff=0.6)
            found.append(_at(LOCAL_NAME_MISSING, path, kw.value, f"{kw.arg}={ref!r}: {target.path.name} does not define {attr} (ImportError when the backend is built)",
                             hint=f"Did you mean {dotted}:{close[0]}?" if close else None))
    return found


# -- the entrypoint --------------------------------------------------------------------------------


def entrypoint_findings(resolver: Resolver, module: Module, path: str, target: Target, *, grader_bound: bool) -> list[Diagnostic]:
    """How `eval run` starts the entrypoint, and whether its LocalBackend grades."""
    gen = target.generation
    if gen is None or module.tree is None:
        return []
    found = []
    if gen.script_entrypoint:
        found += [_at(RELATIVE_IMPORT, path, n, f"relative import `from {'.' * n.level}{n.module or ''} import ...`: `eval run` starts {module.path.name} as a script, where it raises ImportError")
                  for n in module.nodes(ast.ImportFrom) if n.level]
        found += _server_start(resolver, module, path, gen.port_variable)
    if gen.grader_from_backend and grader_bound:  # with no Grader at all, sdk_structure's ENT023 says it
        for call in _calls_to(resolver, module, ".LocalBackend"):
            given = {kw.arg for kw in call.keywords}
            if call.args or "workflow" not in given or not given <= _LOCAL_BACKEND_KEYWORDS:
                continue  # a call ENT028 refuses: that is its one finding
            grader = next((kw.value for kw in call.keywords if kw.arg == "grader"), None)
            if grader is None or (isinstance(grader, ast.Constant) and grader.value is None):
                found.append(_at(NO_GRADER, path, call, "LocalBackend(...) without grader=: every graded rollout ends in failure "
                                 "(the Grader in the entrypoint is never used: the backend grades only with the grader= it is given)",
                                 hint="Pass grader=YourGrader (and grader_config=) to LocalBackend."))
    return found


_LOCAL_BACKEND_KEYWORDS = frozenset({"workflow", "workflow_config", "grader", "grader_config"})


def _calls_to(resolver: Resolver, module: Module, suffix: str) -> list[ast.Call]:
    calls = []
    for node in module.nodes(ast.Call):
        callee = resolver.resolve(module, node.func)
        if isinstance(callee, Ext) and (callee.dotted.endswith(suffix) and (_sdk(callee.dotted) or suffix == "uvicorn.run")):
            calls.append(node)
    return sorted(calls, key=lambda c: (c.lineno, c.col_offset))


def _is_main_guard(stmt: ast.stmt) -> bool:
    test = stmt.test if isinstance(stmt, ast.If) else None
    if not isinstance(test, ast.Compare) or len(test.ops) != 1 or not isinstance(test.ops[0], ast.Eq):
        return False
    sides = [test.left, *test.comparators]
    return any(isinstance(s, ast.Name) and s.id == "__name__" for s in sides) and any(
        isinstance(s, ast.Constant) and s.value == "__main__" for s in sides)


def _server_start(resolver: Resolver, module: Module, path: str, variable: str | None) -> list[Diagnostic]:
    guards = [s for s in module.tree.body if _is_main_guard(s)]  # type: ignore[union-attr]
    runs = _calls_to(resolver, module, "uvicorn.run")
    guarded = {id(n) for g in guards for n in ast.walk(g)}
    found = []
    unguarded = [c for c in runs if id(c) not in guarded and _at_module_level(module, c)]
    if unguarded:
        found.append(_at(NO_SERVER_START, path, unguarded[0], "uvicorn.run(...) runs at import, outside `if __name__ == \"__main__\":`: submit's import of the entrypoint starts the server and never returns"))
    elif _builds_server(resolver, module) and not any(isinstance(n, ast.Call) for g in guards for n in ast.walk(g)):
        found.append(NO_SERVER_START.at(path, f"no `if __name__ == \"__main__\":` block starts the server: `eval run` runs {module.path.name} as a script and waits for /health in vain"))
    for call in runs:
        problem = _port_problem(module, call, variable) if variable else None
        if problem:
            found.append(_at(SERVER_PORT, path, call, f"{problem}; `eval run` waits for the server on the port it passes in {variable}",
                             hint=f'port=int(os.environ.get("{variable}", "8000"))'))
    return found


def _builds_server(resolver: Resolver, module: Module) -> bool:
    """Whether the entrypoint builds a backend or server app (a module of bare classes is judged
    by the workflow rules, not by how it would be started)."""
    return any(_calls_to(resolver, module, s) for s in (".LocalBackend", ".HarborBackend", ".create_rollout_server"))


def _at_module_level(module: Module, call: ast.Call) -> bool:
    """Whether ``call`` runs at import: not inside a function or class body."""
    for stmt in module.tree.body:  # type: ignore[union-attr]
        if any(n is call for n in ast.walk(stmt)):
            return isinstance(stmt, ast.Expr | ast.Assign | ast.AnnAssign)  # not in a def, class or if
    return False


def _port_problem(module: Module, call: ast.Call, variable: str) -> str | None:
    if len(call.args) >= 3 or any(kw.arg is None for kw in call.keywords):
        return None  # port given positionally or through **kwargs: not followed
    port = next((kw.value for kw in call.keywords if kw.arg == "port"), None)
    if port is None:
        return "uvicorn.run(...) has no port=, so it listens on uvicorn's default 8000"
    read = _env_keys(module, port)
    if read:  # the port is read from the environment under a name a reader can see (a module constant too)
        if variable in read or any(k in WRONG_PORT_VARIABLES for k in read):
            return None  # right, or ENT022's finding at the line reading it
        return f"the server's port is read from {read[0]}"
    strings = _strings(module, port)
    if variable in strings:
        return None
    if isinstance(port, ast.Constant):
        return f"the server listens on the fixed port {port.value!r}"
    others = [s for s in strings if s.isupper() and "PORT" in s]
    if any(s in WRONG_PORT_VARIABLES for s in others):
        return None  # ENT022 names that variable at the line reading it
    if others:
        return f"the server's port is read from {others[0]}"
    return None  # computed some other way: not knowable statically


def _env_keys(module: Module, expr: ast.AST) -> list[str]:
    """The variable names ``expr`` reads with os.environ.get / os.getenv / os.environ[...], each a
    string or a module-level constant holding one."""
    keys = []
    for node in ast.walk(expr):
        arg = None
        if isinstance(node, ast.Call) and node.args and isinstance(node.func, ast.Attribute | ast.Name):
            func = node.func
            shape = (func.attr, getattr(func.value, "attr", getattr(func.value, "id", ""))) if isinstance(func, ast.Attribute) else (func.id, "")
            if shape in (("get", "environ"), ("getenv", "os"), ("getenv", "")):
                arg = node.args[0]
        elif isinstance(node, ast.Subscript) and getattr(node.value, "attr", getattr(node.value, "id", "")) == "environ":
            arg = node.slice
        key = _constant(module, arg) if arg is not None else None
        if key:
            keys.append(key)
    return keys


def _constant(module: Module, node: ast.AST) -> str | None:
    value = _module_value(module, node)
    return value.value if isinstance(value, ast.Constant) and isinstance(value.value, str) else None


def _strings(module: Module, expr: ast.AST) -> set[str]:
    """String constants in ``expr`` and in the assignments of the names it uses (one step)."""
    found = {n.value for n in ast.walk(expr) if isinstance(n, ast.Constant) and isinstance(n.value, str)}
    names = {n.id for n in ast.walk(expr) if isinstance(n, ast.Name)}
    if names:
        for node in module.nodes(ast.Assign):
            if any(isinstance(t, ast.Name) and t.id in names for t in node.targets):
                found |= {n.value for n in ast.walk(node.value) if isinstance(n, ast.Constant) and isinstance(n.value, str)}
    return found
