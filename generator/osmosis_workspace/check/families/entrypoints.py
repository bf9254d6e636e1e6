"""Checks: rollout entrypoints (contract section 2), read statically with ast; never imported or run.

For each rollout folder: the entrypoint module(s) the configs name (default ``main.py``) must define
exactly one concrete AgentWorkflow subclass and at most one concrete Grader subclass, with async
``run``/``grade``; a remote-rollout server module (a RolloutAgentLoop subclass, found by subclass,
not by file name) must have a ``name``, ``get_tools``, an async ``run`` and a module-level instance;
the rollout's pyproject must depend on osmosis-ai.

Counting follows what the platform does at import time: it looks at the entrypoint module's
namespace, so a class imported into the entrypoint counts, and aliases of one class count once.
"""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Callable
from pathlib import Path, PurePosixPath

from osmosis_workspace.check.config_refs import named_entrypoints, named_for_folders
from osmosis_workspace.check.families import entry_import, entry_runtime, sdk_compat, sdk_requirements, sdk_structure
from osmosis_workspace.check.families.entrypoint_rules import (
    FAMILY, HARD_CODED_CLIENT, INVALID_ROLLOUT_PYPROJECT, LOOP_SYNC_RUN, LOOP_WITHOUT_INSTANCE, LOOP_WITHOUT_NAME,
    LOOP_WITHOUT_TOOLS, MISSING_ENTRYPOINT, MISSING_ROLLOUT_PYPROJECT, MISSING_SDK_DEPENDENCY, MULTIPLE_GRADERS,
    MULTIPLE_GRADERS_03, MULTIPLE_WORKFLOWS, MULTIPLE_WORKFLOWS_03, NEWER_SYNTAX, NO_WORKFLOW, SYNC_GRADE, SYNC_RUN,
    SYNTAX_ERROR,
)
from osmosis_workspace.check.registry import workspace_check
from osmosis_workspace.check.units import view
from osmosis_workspace.check.sdk_target import Target
from osmosis_workspace.core.diagnostics import Diagnostic
from osmosis_workspace.core.paths import is_inside, real_path, unusable_path, walk
from osmosis_workspace.core.pep440 import requirement_name
from osmosis_workspace.core.records import dataclass, field
from osmosis_workspace.core.tool_folders import in_tool_folder_of
from osmosis_workspace.core.access import access_denied
from osmosis_workspace.core.workspace import FILE_PERMISSIONS_HINT, NotAWorkspace, Workspace, find_root
from osmosis_workspace.readers.pyast import GRADER, LOOP, REQUIRED_METHOD, WORKFLOW, ClassRef, Ext, Module, Resolver
from osmosis_workspace.readers.pyclasses import binding_site, imported_modules, module_classes
from osmosis_workspace.readers.toml_locate import TomlDoc

DEFAULT_ENTRYPOINT = "main.py"


# Constructors (and call helpers) of model clients a workflow should not call directly.
MODEL_CLIENTS = frozenset({
    "openai.OpenAI", "openai.AsyncOpenAI", "openai.AzureOpenAI", "openai.AsyncAzureOpenAI",
    "anthropic.Anthropic", "anthropic.AsyncAnthropic",
    "litellm.completion", "litellm.acompletion",
})
SDK_DEPENDENCY = "osmosis-ai"
_TEST_MODULE = re.compile(r"^(test_.*|.*_test|conftest)\.py$")

Display = Callable[[Path], str]


# -- file level (osmosis validate) -----------------------------------------------------------


def check_entrypoint_file(path: Path, display: str, *, sdk_requirement: str | None = None) -> list[Diagnostic]:
    """What doctor says about ``path`` (and the rollout modules it imports), by doctor's own code
    path: inside a workspace's rollout the rollout is checked as doctor checks it (its configs say
    which file is the entrypoint; another module is checked as a module); elsewhere ``path`` is the
    entrypoint, its folder the rollout. The osmosis-ai judged is ``sdk_requirement`` when given,
    else what doctor reads (the rollout's pyproject, the workspace's, uv.lock). Never raises."""
    ws, folder = _workspace_rollout(path)
    base = PurePosixPath(display).parent

    def show(p: Path) -> str:
        if ws is not None:
            return _rel(ws, Path(real_path(p)))
        if real_path(p) == real_path(path):
            return display
        try:
            return (base / real_path(p).relative_to(real_path(path.parent)).as_posix()).as_posix()
        except ValueError:
            return p.as_posix()

    if ws is not None and folder is not None:
        entries = _entries(folder, named_entrypoints(ws).get(folder.name, []))
        target = sdk_requirements.rollout_target(ws, folder)
    else:
        folder, entries = path.parent, [path]
        target = sdk_requirements.file_target(path, None)
    if sdk_requirement is not None:
        target = sdk_requirements.file_target(path, sdk_requirement)
    resolver = Resolver(folder, ws.overlays if ws is not None else None)
    module = resolver.module(path)
    found = _rollout_findings(resolver, folder, entries, target, show, named=True, extra=(module,))
    own = {show(path), *(show(m.path) for m in imported_modules(resolver, module))}
    found = [d for d in found if d.path in own]
    if _blocked_folder(path.parent):
        found = [d for d in found if d.code == SYNTAX_ERROR.code]
    return _dedupe(found)


def _workspace_rollout(path: Path) -> tuple[Workspace | None, Path | None]:
    """The workspace holding ``path`` and its rollout folder (rollouts/<name>/), when it is in one."""
    try:
        root = find_root(path.parent)
    except (NotAWorkspace, OSError, RuntimeError):
        return None, None
    ws = Workspace(root)
    for folder in ws.rollout_dirs:
        if is_inside(folder, path):
            return ws, folder
    return None, None


def _blocked_folder(folder: Path, limit: int = 2_000) -> bool:
    """Whether a folder inside the rollout cannot be entered: which modules it holds is unknown, so
    "no workflow found" would be a guess (the access check reports the folder, LAY011)."""
    denied: list[OSError] = []
    for visited, (_, dirs, _) in enumerate(walk(folder, onerror=denied.append), 1):
        dirs[:] = [d for d in dirs if not d.startswith(".") and d not in ("__pycache__", "node_modules", "venv")]
        if denied or visited > limit:
            break
    return any(isinstance(err, PermissionError) for err in denied)


# -- workspace level (osmosis doctor) --------------------------------------------------------


@workspace_check(FAMILY)
def check_rollout_entrypoints(ws: Workspace) -> list[Diagnostic]:
    named_by_rollout = view(ws, "entrypoints-named-for-folders", named_for_folders)
    found: list[Diagnostic] = []
    pyproject = str(ws.root / "pyproject.toml")  # joined once, not once per rollout
    for folder in ws.rollout_dirs:
        if folder in ws.unreadable or ws.hidden(folder):
            continue  # the access check's finding (LAY011)
        named = named_by_rollout.get(folder.name, [])
        # What one rollout's checks read: its own folder and the root pyproject.toml (the SDK pin it may
        # inherit); the entrypoints the configs name come in as a value. An edit elsewhere reuses it.
        # (the modules are read where they really are, pyast.Resolver: through a link, that folder too)
        checked = ws.remember(f"entrypoints:{folder.name}", [folder, pyproject, *ws.real_spelling(folder)], repr(named),
                              lambda: _check_rollout(ws, folder, named))
        if any(is_folder and folder in p.parents for p, (_, is_folder) in ws.unreadable.items()):
            checked = [d for d in checked if d.code == SYNTAX_ERROR.code]  # as _blocked_folder says
        found += checked
    return _dedupe(found)


def _entries(folder: Path, named: list[str | None]) -> list[Path]:
    """The entrypoint files doctor checks in ``folder``: those the configs name, else main.py."""
    entries: list[Path] = []
    for name in dict.fromkeys(named):
        if unusable_path(name):  # a NUL byte or an over-long name: CFG018 says so; os calls would raise
            continue
        candidate = folder / name  # type: ignore[operator]
        # A missing, escaping or non-Python entrypoint is the config checks' finding; only check real ones.
        if candidate.suffix == ".py" and candidate.is_file() and is_inside(folder, candidate) and not in_tool_folder_of(folder, candidate):
            entries.append(candidate)
    default = folder / DEFAULT_ENTRYPOINT
    if not named and default.is_file():
        entries.append(default)
    return entries


def _check_rollout(ws: Workspace, folder: Path, named: list[str | None]) -> list[Diagnostic]:
    show: Display = lambda p: _rel(ws, p)
    entries, target = _entries(folder, named), sdk_requirements.rollout_target(ws, folder)
    return (_rollout_findings(Resolver(folder, ws.overlays), folder, entries, target, show, named=bool(named), ws=ws)
            + _pyproject_findings(ws, folder))


def _rollout_findings(resolver: Resolver, folder: Path, entries: list[Path], target: Target, show: Display, *,
                      named: bool, extra: tuple[Module, ...] = (), ws: Workspace | None = None) -> list[Diagnostic]:
    """Everything the entrypoints family says about one rollout folder but its pyproject, shared by
    doctor and `osmosis validate FILE` (``extra``: a module validate names, checked as doctor would;
    ``ws``: doctor's snapshot, whose parse of the rollout's lock is reused)."""
    modules = [resolver.module(p) for p in _top_level_modules(folder)]
    entry_modules = [resolver.module(p) for p in entries]
    for m in [*entry_modules, *extra]:
        if all(m is not other for other in modules):
            modules.append(m)
    # Package modules are parsed only when an entrypoint imports them: a broken one fails the import.
    broken = [b for m in [*entry_modules, *extra] for b in resolver.unparsable_imports(m)]
    found = _syntax_findings(list({id(m): m for m in [*modules, *broken]}.values()), show)
    loops = _loop_findings(resolver, modules, show)
    found += sdk_compat.loop_era_only(loops.findings, target)
    for module in entry_modules:
        if module.tree is not None:
            is_server = any(leaf.module is module for leaf in loops.leaves)
            found += _entrypoint_findings(resolver, module, show, is_server=is_server, target=target)
    paths = sdk_compat.rollout_modules(folder)
    for path in [*paths, *(m.path for m in extra if all(real_path(m.path) != real_path(p) for p in paths))]:
        found += sdk_compat.api_findings(resolver, resolver.module(path), show, target)
        found += entry_runtime.module_findings(resolver, resolver.module(path), show, target)
    found += _import_time_findings(resolver, folder, entry_modules, show, ws)
    # An entrypoint whose import fails (ENT019, ENT027) has no classes to count: the import is the one finding.
    failing = {d.path for d in found if d.code in ("ENT019", "ENT027")}
    found = [d for d in found if not (d.code == NO_WORKFLOW.code and d.path in failing)]
    if not named and not entries and not loops.leaves:
        found.append(MISSING_ENTRYPOINT.at(
            show(folder / DEFAULT_ENTRYPOINT),
            f"rollout {folder.name!r} has no {DEFAULT_ENTRYPOINT} and no config names another entrypoint",
        ))
    return found


def _import_time_findings(resolver: Resolver, folder: Path, entry_modules: list[Module], show: Display,
                          ws: Workspace | None = None) -> list[Diagnostic]:
    """ENT037-ENT041 on the entrypoints and every rollout module they import (what submit's import runs)."""
    modules = {id(m): m for e in entry_modules for m in [e, *imported_modules(resolver, e)]}
    provided = entry_import.provided_modules(folder, ws) if modules else None
    found = [d for m in modules.values() for d in entry_import.import_findings(resolver, m, show, folder, provided)]
    reported: set[int] = set()
    return found + [d for m in modules.values() for d in entry_import.package_raises(resolver, m, show, set(modules), reported)]


def _rel(ws: Workspace, path: Path) -> str:
    """Workspace-relative POSIX path, computed without resolving links (every path checked here is
    reached from the root, and resolving a symlink loop raises)."""
    try:
        return path.relative_to(ws.root).as_posix()
    except ValueError:
        return path.as_posix()


def _top_level_modules(folder: Path) -> list[Path]:
    """The rollout's own modules: top-level .py files, without tests (which may define fakes)."""
    return sorted(
        p for p in folder.glob("*.py")
        if p.is_file() and not _TEST_MODULE.match(p.name) and is_inside(folder, p)
    )


# -- the entrypoint module -------------------------------------------------------------------


def _unreadable_hint(path: Path) -> str:
    if access_denied(path) is not None:
        return FILE_PERMISSIONS_HINT
    return "Make it a readable Python source file (UTF-8 or a coding cookie, no NUL bytes)."


def _syntax_findings(modules: list[Module], show: Display) -> list[Diagnostic]:
    return [_syntax_finding(m, show) for m in modules if m.error is not None]


def _syntax_finding(m: Module, show: Display) -> Diagnostic:
    err = m.error
    if err.newer_syntax:  # doctor's own Python is older than the platform's: say so, do not cry wolf
        running = ".".join(map(str, sys.version_info[:2]))
        return NEWER_SYNTAX.at(
            show(m.path), f"{m.path.name}: Python {running}, which runs doctor, cannot parse this line; it looks like "
            "Python 3.12 syntax, which the platform runs, so the module was not checked",
            line=err.line, column=err.column)
    return SYNTAX_ERROR.at(
        show(m.path), f"{m.path.name}: {err.message}", line=err.line, column=err.column,
        hint=None if err.line else _unreadable_hint(m.path),
    )


def _namespace_classes(resolver: Resolver, module: Module, kind: str) -> list[tuple[ClassRef, int | None, int | None]]:
    """Distinct classes deriving from SDK class ``kind`` bound in ``module``'s namespace, each with
    where it is bound (its class statement when defined here), in source order."""
    by_key: dict[tuple, tuple[ClassRef, int | None, int | None]] = {}
    for name, binding in module.bindings.items():
        found = resolver.lookup(module, name)
        if not isinstance(found, ClassRef) or kind not in resolver.sdk_kinds(found):
            continue
        line, column = binding_site(found.node if found.module is module else binding)
        previous = by_key.get(found.key)
        if previous is None or (line or 0) < (previous[1] or 0):
            by_key[found.key] = (found, line, column)
    return sorted(by_key.values(), key=lambda item: (item[1] or 0, item[2] or 0))


def _entrypoint_findings(resolver: Resolver, module: Module, show: Display, *, is_server: bool, target: Target) -> list[Diagnostic]:
    path = show(module.path)
    found: list[Diagnostic] = []
    concrete: dict[str, list[tuple[ClassRef, int | None, int | None]]] = {}
    bound_by_kind: dict[str, list[tuple[ClassRef, int | None, int | None]]] = {}
    for kind in (WORKFLOW, GRADER):
        bound = bound_by_kind[kind] = _namespace_classes(resolver, module, kind)
        concrete[kind] = [item for item in bound if resolver.is_abstract(item[0], kind) is None]
        # An import that cannot be parsed hides what it defines: its ENT002 is the one finding.
        if kind == WORKFLOW and not concrete[kind] and not is_server and not resolver.unparsable_imports(module):
            if bound:
                cls, line, column = bound[0]
                reason = resolver.is_abstract(cls, kind)
                found.append(NO_WORKFLOW.at(
                    path, f"no concrete AgentWorkflow subclass: {reason}, so it is abstract", line=line, column=column,
                ))
            else:
                found.append(NO_WORKFLOW.at(path, "no concrete AgentWorkflow subclass (of osmosis_ai.rollout.AgentWorkflow) found"))
    strict = sdk_compat.scanned(target)
    for kind, dup_rule, label in ((WORKFLOW, MULTIPLE_WORKFLOWS if strict else MULTIPLE_WORKFLOWS_03, "AgentWorkflow"),
                                  (GRADER, MULTIPLE_GRADERS if strict else MULTIPLE_GRADERS_03, "Grader")):
        items = concrete[kind]
        if len(items) > 1:
            listing = ", ".join(f"{c.name} (line {line})" for c, line, _ in items[:5])
            if len(items) > 5:
                listing += f" and {len(items) - 5} more"
            _, line, column = items[1]
            limit = "exactly one" if kind == WORKFLOW else "at most one"
            why = "" if strict else " (the template's rule; 0.3 runs the one class its backend names)"
            found.append(dup_rule.at(
                path, f"{len(items)} concrete {label} subclasses: {listing}; the entrypoint needs {limit}{why}",
                line=line, column=column,
            ))
    for kind, sync_rule in ((WORKFLOW, SYNC_RUN), (GRADER, SYNC_GRADE)):
        method = REQUIRED_METHOD[kind]
        for cls, _, _ in concrete[kind]:
            owner_method = resolver.member(cls, method)
            if owner_method is None:
                continue
            owner, stmt = owner_method
            if isinstance(stmt, ast.FunctionDef):
                found.append(sync_rule.at(
                    show(owner.module.path), f"{owner.name}.{method}() must be `async def {method}(self, ctx)`",
                    line=stmt.lineno, column=stmt.col_offset + 1,
                ))
    found += _client_findings(resolver, module, path)
    if not is_server:
        found += sdk_structure.entrypoint_findings(resolver, module, show, target, bound_by_kind, concrete)
        found += entry_runtime.entrypoint_findings(resolver, module, path, target, grader_bound=bool(concrete[GRADER]))
    return found


def _client_findings(resolver: Resolver, module: Module, path: str) -> list[Diagnostic]:
    """Direct model-client calls inside the AgentWorkflow classes defined in ``module``."""
    found = []
    for cls in module_classes(module):
        if WORKFLOW not in resolver.sdk_kinds(cls):
            continue
        for node in ast.walk(cls.node):
            if isinstance(node, ast.Call):
                target = resolver.resolve(module, node.func)
                if isinstance(target, Ext) and target.dotted in MODEL_CLIENTS:
                    found.append(HARD_CODED_CLIENT.at(
                        path, f"{cls.name} calls {target.dotted}(...) directly; policy calls must go through an Osmosis integration",
                        line=node.lineno, column=node.col_offset + 1,
                    ))
    return found


# -- remote rollout server modules -----------------------------------------------------------


@dataclass
class _Loops:
    findings: list[Diagnostic] = field(default_factory=list)
    leaves: list[ClassRef] = field(default_factory=list)


def _loop_findings(resolver: Resolver, modules: list[Module], show: Display) -> _Loops:
    """RolloutAgentLoop checks over ``modules``. Only leaf classes (nothing in the rollout derives
    from them) that are not declared ABC are checked: intermediates are free to be partial."""
    result = _Loops()
    classes = [c for m in modules for c in module_classes(m) if LOOP in resolver.sdk_kinds(c)]
    subclassed = {base.key for c in classes for base in resolver.mro(c)[1:]}
    result.leaves = [c for c in classes if c.key not in subclassed and not resolver.declares_abc(c)]
    for cls in result.leaves:
        path = show(cls.module.path)
        line, column = cls.node.lineno, cls.node.col_offset + 1
        name = resolver.member(cls, "name")
        if name is None or isinstance(name[1], ast.FunctionDef | ast.AsyncFunctionDef):
            result.findings.append(LOOP_WITHOUT_NAME.at(
                path, f"{cls.name} has no `name` class attribute", line=line, column=column,
            ))
        tools = resolver.member(cls, "get_tools")
        if tools is None:
            result.findings.append(LOOP_WITHOUT_TOOLS.at(
                path, f"{cls.name} has no get_tools(self, request) method", line=line, column=column,
            ))
        run = resolver.member(cls, "run")
        if run is None:
            result.findings.append(LOOP_SYNC_RUN.at(
                path, f"{cls.name} has no `async def run(self, ctx)`", line=line, column=column,
            ))
        elif isinstance(run[1], ast.FunctionDef):
            stmt = run[1]
            result.findings.append(LOOP_SYNC_RUN.at(
                show(run[0].module.path), f"{run[0].name}.run() must be `async def run(self, ctx)`",
                line=stmt.lineno, column=stmt.col_offset + 1,
            ))
        if not _has_instance(resolver, cls):
            result.findings.append(LOOP_WITHOUT_INSTANCE.at(
                path, f"no module-level instance of {cls.name} (e.g. `agent_loop = {cls.name}()`)",
                line=line, column=column,
            ))
    return result


def _has_instance(resolver: Resolver, cls: ClassRef) -> bool:
    module = cls.module
    for binding in module.bindings.values():
        if isinstance(binding, ast.Assign | ast.AnnAssign) and isinstance(binding.value, ast.Call):
            made = resolver.resolve(module, binding.value.func)
            if isinstance(made, ClassRef) and made.key == cls.key:
                return True
    return False


# -- the rollout's pyproject.toml ------------------------------------------------------------


def _pyproject_findings(ws: Workspace, folder: Path) -> list[Diagnostic]:
    path = folder / "pyproject.toml"
    shown = _rel(ws, path)
    if not path.is_file():
        return [MISSING_ROLLOUT_PYPROJECT.at(shown, f"rollout {folder.name!r} has no pyproject.toml")]
    text = ws.read_text(path)
    if text is None:
        return [INVALID_ROLLOUT_PYPROJECT.at(shown, f"pyproject.toml {ws.unread_reason(path)}", hint=ws.unread_hint(path))]
    doc = TomlDoc.parse(text)
    if doc.data is None:
        err = doc.error
        return [INVALID_ROLLOUT_PYPROJECT.at(shown, f"pyproject.toml: {err.message}", line=err.line, column=err.column)]
    if _declares_sdk(doc.data):
        return []
    pos = doc.locator.key(("project", "dependencies")) or doc.locator.table(("project",)) or (None, None)
    return [MISSING_SDK_DEPENDENCY.at(
        shown, f"rollout {folder.name!r} does not list {SDK_DEPENDENCY} in [project] dependencies",
        line=pos[0], column=pos[1],
    )]


def _declares_sdk(data: dict) -> bool:
    project = data.get("project")
    deps = project.get("dependencies") if isinstance(project, dict) else None
    names = [requirement_name(d) for d in deps if isinstance(d, str)] if isinstance(deps, list) else []
    poetry = _table(_table(_table(data, "tool"), "poetry"), "dependencies")
    if poetry:
        names += [requirement_name(k) for k in poetry]
    return SDK_DEPENDENCY in names


def _table(data: dict, key: str) -> dict:
    value = data.get(key)
    return value if isinstance(value, dict) else {}


def _dedupe(found: list[Diagnostic]) -> list[Diagnostic]:
    """One finding per (code, place, message): an entrypoint named by several configs is checked once."""
    return list(dict.fromkeys(found))
