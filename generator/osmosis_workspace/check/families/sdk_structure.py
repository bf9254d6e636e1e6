"""The entrypoint's structure against its `osmosis-ai` generation (part of the entrypoints family):
a grader beside the workflow, no abstract subclass or second config beside the concrete ones, and
Harbor objects that `osmosis eval run` can import.
"""

from __future__ import annotations

import ast

from osmosis_workspace.check.families.sdk_compat import Display, _is_sdk
from osmosis_workspace.check.families.sdk_rules import (
    EXTRA_SUBCLASS,
    EXTRA_SUBCLASS_SCANNED,
    MULTIPLE_CONFIGS,
    MULTIPLE_CONFIGS_SCANNED,
    NO_GRADER,
    NOT_IMPORTABLE,
)
from osmosis_workspace.check.sdk_target import Target
from osmosis_workspace.core.diagnostics import Diagnostic
from osmosis_workspace.core.sdk_generations import NAMES_BY_NAME, Generation
from osmosis_workspace.readers.pyast import GRADER, WORKFLOW, ClassRef, Ext, Module, Resolver
from osmosis_workspace.readers.pyclasses import binding_site

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
    strict = bool(gen.submit_scan)
    scan = ("the 0.2.23-0.2.31 submit check refuses it" if gen.submit_scan
            else "one of each in the entrypoint is the template's rule")
    for kind in (WORKFLOW, GRADER):
        extra = [item for item in bound[kind] if all(item[0].key != c[0].key for c in concrete[kind])]
        if concrete[kind] and extra:
            cls, line, column = extra[0]
            names = ", ".join(c.name for c, _, _ in extra)
            found.append((EXTRA_SUBCLASS_SCANNED if strict else EXTRA_SUBCLASS).at(
                path, f"abstract {kind} subclass {names} is bound in the entrypoint beside {concrete[kind][0][0].name} ({scan}, {target.describe()})",
                line=line, column=column,
            ))
    calls = _backend_calls(resolver, module)
    if concrete[WORKFLOW] and not concrete[GRADER] and not any(_keyword(c, "grader") for c in calls):
        at = calls[0] if calls else None
        line, column = (at.lineno, at.col_offset + 1) if at else concrete[WORKFLOW][0][1:]
        found.append(NO_GRADER.at(
            path, "no concrete Grader in the entrypoint and no grader= passed to the backend: every graded rollout fails",
            line=line, column=column,
        ))
    found += _config_findings(resolver, module, path, strict, scan, target)
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
    calls = [n for n in module.nodes(ast.Call)
             if _callee(resolver, module, n).endswith((".LocalBackend", ".HarborBackend"))]
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


def _config_findings(resolver: Resolver, module: Module, path: str, strict: bool, scan: str, target: Target) -> list[Diagnostic]:
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
            found.append((MULTIPLE_CONFIGS_SCANNED if strict else MULTIPLE_CONFIGS).at(
                path, f"{len(items)} {kind} objects in the entrypoint namespace ({names}) ({scan}, {target.describe()})",
                line=line, column=column,
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
