"""What fails the moment the entrypoint is imported, as a reader of the code can see it (part of the
entrypoints family): a name bound nowhere (ENT037), a module nothing in the rollout's environment
provides (ENT038), an unconditional `raise` / `sys.exit()` (ENT039), a required environment
variable read at module level (ENT040), an import that runs a rollout package's `__init__.py` whose
top level raises unconditionally (ENT041, at the import).

Only code that runs at import is judged: module-level statements, class bodies, decorators and
defaults, never a function's body. Every doubt is resolved towards silence: a module with a star
import, `globals()` or `exec` has no unbound names; a use inside a `try` with handlers may be caught;
`if TYPE_CHECKING:` never runs; an import is judged only against a uv.lock. What the code hides from
a reader (a name made by `setattr`, an import by `importlib`) is left to rehearse's preflight.
"""

from __future__ import annotations

import ast
import builtins
import os
import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

from osmosis_workspace.check.families.sdk_rules import (
    EXIT_AT_IMPORT,
    IMPORT_NOT_PROVIDED,
    PACKAGE_RAISES_AT_IMPORT,
    REQUIRED_ENV_AT_IMPORT,
    UNBOUND_NAME,
)
from osmosis_workspace.core.diagnostics import Diagnostic
from osmosis_workspace.core.tool_folders import listed_inside
from osmosis_workspace.core.workspace import Workspace
from osmosis_workspace.readers.pyast import Ext, Module, Resolver
from osmosis_workspace.readers.pyclasses import guarded_imports, local_module

Display = Callable[[Path], str]

# Builtins of the platform's Python 3.12 that an older interpreter running doctor may lack.
_BUILTINS = frozenset(dir(builtins)) | {
    "__name__", "__file__", "__doc__", "__spec__", "__loader__", "__package__", "__builtins__", "__path__",
    "__cached__", "__annotations__", "__dict__", "__debug__", "ExceptionGroup", "BaseExceptionGroup",
    "EncodingWarning", "aiter", "anext", "PythonFinalizationError",
    "__qualname__", "__module__", "__firstlineno__", "__static_attributes__",  # bound in every class body
}  # fmt: skip
_DYNAMIC = frozenset({"globals", "vars", "exec", "eval", "locals", "__import__"})
_EXITS = frozenset({"sys.exit", "os._exit", "os.abort", "builtins.exit", "builtins.quit"})
_RUNNER_SETS = "_OSMOSIS_"  # the variables `eval run` itself sets (_OSMOSIS_ROLLOUT_PORT, ...)
_ALWAYS_SET = frozenset({"PATH", "HOME"})  # set in every shell and container the rollout runs in
_PREFLIGHT = " Where the code hides this from a reader, `osmosis rehearse` reports it in its preflight."


def _at(rule, path: str, node: ast.AST, message: str, hint: str | None = None) -> Diagnostic:
    return rule.at(path, message, line=getattr(node, "lineno", None),
                   column=getattr(node, "col_offset", -1) + 1 or None, hint=hint)


def import_findings(resolver: Resolver, module: Module, show: Display, folder: Path,
                    provided: frozenset[str] | None) -> list[Diagnostic]:
    """ENT037-ENT040 for one module the entrypoint imports (or the entrypoint itself)."""
    if module.tree is None:
        return []
    path = show(module.path)
    found = _unbound(module, path) + _exits(resolver, module, path) + _required_env(resolver, module, path)
    if provided is not None:
        found += _unprovided(resolver, module, path, folder, provided)
    return found


# -- what runs at import --------------------------------------------------------------------------


def _type_checking(stmt: ast.stmt) -> bool:
    test = stmt.test if isinstance(stmt, ast.If) else None
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _handled(stmt: ast.stmt) -> bool:
    return isinstance(stmt, ast.Try | getattr(ast, "TryStar", ast.Try)) and bool(stmt.handlers)


def _import_time(body: list[ast.stmt]) -> Iterator[ast.AST]:
    """Every node evaluated when ``body`` runs at import, without function bodies, annotations,
    `if TYPE_CHECKING:` blocks and `try` bodies whose handlers may catch what they raise."""
    stack: list[ast.AST] = list(reversed(body))
    while stack:
        node = stack.pop()
        if isinstance(node, ast.stmt) and (_type_checking(node) or _handled(node)):
            if _handled(node):
                stack.extend(reversed(node.finalbody))  # type: ignore[attr-defined]
            continue
        yield node
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            children: list[ast.AST] = [*node.decorator_list, *node.args.defaults, *(d for d in node.args.kw_defaults if d)]
        elif isinstance(node, ast.Lambda):
            children = [*node.args.defaults, *(d for d in node.args.kw_defaults if d)]
        elif isinstance(node, ast.ClassDef):
            children = [*node.decorator_list, *node.bases, *node.keywords, *node.body]
        elif isinstance(node, ast.AnnAssign):
            children = [node.target, *([node.value] if node.value else [])]
        else:
            children = list(ast.iter_child_nodes(node))
        stack.extend(reversed(children))


def _unconditional(module: Module) -> Iterator[ast.stmt]:
    """Module-level statements that always run: the body and `with` blocks, no `if`, `try` or loop."""
    stack = list(reversed(module.tree.body))  # type: ignore[union-attr]
    while stack:
        stmt = stack.pop()
        if isinstance(stmt, ast.With | ast.AsyncWith):
            stack.extend(reversed(stmt.body))
        yield stmt


# -- ENT037: a name bound nowhere ------------------------------------------------------------------


def _bound(module: Module) -> set[str]:
    """Every name the module binds anywhere (any scope: generous, so a doubt is a bound name)."""
    names: set[str] = set()
    for node in module.nodes():  # the module's one walk (readers/pyparse.Module.nodes)
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            names.add(node.id)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.alias):
            names.add((node.asname or node.name).split(".")[0])
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, ast.Global | ast.Nonlocal):
            names.update(node.names)
        elif isinstance(node, ast.ExceptHandler | ast.MatchAs | ast.MatchStar) and node.name:
            names.add(node.name)
        elif isinstance(node, ast.MatchMapping) and node.rest:
            names.add(node.rest)
        elif type(node).__name__ in ("TypeVar", "ParamSpec", "TypeVarTuple"):  # PEP 695 (3.12 trees)
            names.add(node.name)  # type: ignore[attr-defined]
    return names


def _dynamic(module: Module) -> bool:
    """Whether names may be bound in ways a reader cannot follow (star import, globals(), exec)."""
    return any(any(a.name == "*" for a in n.names) for n in module.nodes(ast.ImportFrom)) \
        or any(n.id in _DYNAMIC for n in module.nodes(ast.Name))


def _unbound(module: Module, path: str) -> list[Diagnostic]:
    from osmosis_workspace.core.suggest import closest

    tree = module.tree
    if tree is None or _dynamic(module):
        return []
    bound = _bound(module)
    seen: set[str] = set()
    found = []
    for node in _import_time(tree.body):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id not in bound \
                and node.id not in _BUILTINS and node.id not in seen:
            seen.add(node.id)
            guess = closest(node.id, sorted(n for n in bound if not n.startswith("__")))
            found.append(_at(UNBOUND_NAME, path, node, f"{node.id!r} is used at import but bound nowhere in {module.path.name}: NameError",
                             hint=(f"Did you mean {guess}?" if guess else f"Import or define {node.id}.") + _PREFLIGHT))
    return found


# -- ENT039: raise / sys.exit() at module level ----------------------------------------------------


def _exits(resolver: Resolver, module: Module, path: str) -> list[Diagnostic]:
    for stmt in _unconditional(module):
        if isinstance(stmt, ast.Raise):
            return [_at(EXIT_AT_IMPORT, path, stmt, f"`raise` at module level: importing {module.path.name} always fails",
                        hint="Remove it, or move it into the function that needs it." + _PREFLIGHT)]
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
            callee = resolver.resolve(module, stmt.value.func)
            name = stmt.value.func.id if isinstance(stmt.value.func, ast.Name) else None
            if (isinstance(callee, Ext) and callee.dotted in _EXITS) or (name in ("exit", "quit") and name not in module.bindings):
                shown = callee.dotted if isinstance(callee, Ext) and callee.dotted in _EXITS else name
                return [_at(EXIT_AT_IMPORT, path, stmt, f"{shown}() at module level: importing {module.path.name} always exits",
                            hint="Remove it, or move it into the function that decides to stop." + _PREFLIGHT)]
    return []


# -- ENT041: an import that runs a package __init__.py which raises --------------------------------


def _top_raise(module: Module) -> ast.Raise | None:
    """The bare `raise` statement ``module``'s top level always runs (not under `if`, `try`, a loop or a def)."""
    if module.tree is None:
        return None
    return next((stmt for stmt in _unconditional(module) if isinstance(stmt, ast.Raise)), None)


def _parent_packages(resolver: Resolver, module: Module, stmt: ast.Import | ast.ImportFrom) -> Iterator[tuple[str, Module]]:
    """(dotted name, its `__init__.py`) for each package of the rollout ``stmt`` runs before the module it
    names: `import a.b.c` and `from a.b.c import x` run a/__init__.py and a/b/__init__.py first."""
    if isinstance(stmt, ast.Import):
        names, base = [alias.name for alias in stmt.names], None
    elif stmt.level:
        base = module.path.parent
        for _ in range(stmt.level - 1):
            base = base.parent
        names = [stmt.module] if stmt.module else []
    else:
        names, base = [stmt.module] if stmt.module else [], None
    for dotted in names:
        parts = dotted.split(".")
        for end in range(1, len(parts)):
            prefix = ".".join(parts[:end])
            found = resolver._sibling(base, prefix) if base is not None else local_module(resolver, module, prefix)
            if found is not None and found.path.name == "__init__.py":
                yield prefix, found


def package_raises(resolver: Resolver, module: Module, show: Display, traversed: set[int], reported: set[int]) -> list[Diagnostic]:
    """ENT041 for ``module``: each import its top level always runs that reaches a package whose
    `__init__.py` raises unconditionally, once per package (``reported``); a package already among the
    ``traversed`` modules has ENT039 at its own `raise` instead."""
    if module.tree is None:
        return []
    found = []
    for stmt in _unconditional(module):
        if not isinstance(stmt, ast.Import | ast.ImportFrom):
            continue
        for dotted, package in _parent_packages(resolver, module, stmt):
            if id(package) in traversed or id(package) in reported or (raised := _top_raise(package)) is None:
                continue
            reported.add(id(package))
            what = ast.unparse(raised.exc).split("\n")[0][:80] if raised.exc is not None else "raise"
            found.append(_at(PACKAGE_RAISES_AT_IMPORT, show(module.path), stmt,
                             f"this import runs {show(package.path)} first (package {dotted}), whose top level raises "
                             f"at line {raised.lineno} ({what}): importing {module.path.name} always fails",
                             hint=f"Remove the `raise` at {show(package.path)}:{raised.lineno}, or move it into the "
                                  "function that needs it." + _PREFLIGHT))
    return found


# -- ENT040: os.environ["X"] at module level -------------------------------------------------------


def _key(module: Module, node: ast.AST) -> str | None:
    """A string constant, or a module-level name assigned one."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.Name):
        site = module.bindings.get(node.id)
        value = getattr(site, "value", None)
        if isinstance(site, ast.Assign | ast.AnnAssign) and isinstance(value, ast.Constant) and isinstance(value.value, str):
            return value.value
    return None


def _required_env(resolver: Resolver, module: Module, path: str) -> list[Diagnostic]:
    found = []
    for stmt in _unconditional(module):
        if isinstance(stmt, ast.If | ast.Try | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.For | ast.While):
            continue
        nodes = list(ast.walk(stmt))
        if any(isinstance(n, ast.IfExp | ast.BoolOp | ast.Lambda | ast.comprehension) for n in nodes):
            continue  # a conditional read: judged by what the condition says, which a reader cannot
        for node in nodes:
            if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load):
                base = resolver.resolve(module, node.value)
                key = _key(module, node.slice)
                if isinstance(base, Ext) and base.dotted == "os.environ" and key and not key.startswith(_RUNNER_SETS) and key not in _ALWAYS_SET:
                    found.append(_at(REQUIRED_ENV_AT_IMPORT, path, node,
                                     f"os.environ[{key!r}] at module level: importing {module.path.name} raises KeyError wherever {key} is not set",
                                     hint=f'Read it inside run()/grade(), or os.environ.get("{key}") with a default.' + _PREFLIGHT))
    return found


# -- ENT038: an import nothing in the environment provides -----------------------------------------

# Distributions whose import names differ from their names beyond case, dashes and python-/-py affixes.
_IMPORT_NAMES = {
    "pyyaml": ("yaml",), "beautifulsoup4": ("bs4",), "pillow": ("PIL",), "scikit_learn": ("sklearn",),
    "scikit_image": ("skimage",), "python_dateutil": ("dateutil",), "pyjwt": ("jwt",), "attrs": ("attr", "attrs"),
    "protobuf": ("google",), "grpcio": ("grpc",), "grpcio_tools": ("grpc_tools",), "opencv_python": ("cv2",),
    "opencv_python_headless": ("cv2",), "opencv_contrib_python": ("cv2",), "pyzmq": ("zmq",), "dnspython": ("dns",),
    "pycryptodome": ("Crypto",), "pycryptodomex": ("Cryptodome",), "pymupdf": ("fitz", "pymupdf"),
    "setuptools": ("setuptools", "pkg_resources", "_distutils_hack"), "markdown_it_py": ("markdown_it",),
    "python_multipart": ("multipart", "python_multipart"), "msgpack_python": ("msgpack",), "ipython": ("IPython",),
    "pyopenssl": ("OpenSSL",), "websocket_client": ("websocket",), "faiss_cpu": ("faiss",), "faiss_gpu": ("faiss",),
    "python_json_logger": ("pythonjsonlogger",), "pyserial": ("serial",), "pygithub": ("github",), "gitpython": ("git",),
    "mysqlclient": ("MySQLdb",), "psycopg2_binary": ("psycopg2",), "psycopg_binary": ("psycopg",),
    "pdfminer_six": ("pdfminer",), "pywin32": ("win32api", "win32con", "pythoncom", "pywintypes", "win32"),
    "typing_extensions": ("typing_extensions",), "openai_agents": ("agents",), "tensorflow_cpu": ("tensorflow",), "sentencepiece": ("sentencepiece",),
}  # fmt: skip
# A distribution's first name segment is also accepted (namespace packages: opentelemetry-api ->
# opentelemetry, strands-agents -> strands), except where that segment is a known wrong import.
_NOT_THE_MODULE = {"osmosis": "osmosis_ai"}
# `[[package]]` at a line's start (re.MULTILINE's `^`, said as "no other character before it"), written
# to begin with the literal: the regex engine then jumps between its occurrences instead of trying every
# position of a 600 KB lock (0.3 ms, not 6 ms, issue 40)
_PACKAGE_NAME = re.compile(r'\[\[package\]\](?<![^\n]\[\[package\]\])\r?\nname = "([^"\n]{1,200})"')
_MAX_LOCK = 8_000_000


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "_", name).lower()


def import_names(dist: str) -> set[str]:
    """Lower-cased import names a distribution may provide (generous: a doubt is a provided name)."""
    n = _norm(dist)
    names = {n, *(m.lower() for m in _IMPORT_NAMES.get(n, ()))}
    for prefix in ("python_", "py_", "py"):
        if n.startswith(prefix) and len(n) > len(prefix) + 1:
            names.add(n[len(prefix):])
    for suffix in ("_py", "_python", "_binary", "_headless", "_cpu", "_gpu", "_sdk", "_client", "_lite"):
        if n.endswith(suffix) and len(n) > len(suffix) + 1:
            names.add(n[: -len(suffix)])
    parts = n.split("_")
    for end in range(1, len(parts)):  # llama-index-core -> llama, llama_index
        head = "_".join(parts[:end])
        if head not in _NOT_THE_MODULE:
            names.add(head)
    return names


def provided_modules(folder: Path, ws: Workspace | None = None) -> frozenset[str] | None:
    """Lower-cased top-level import names the rollout's environment provides, from its uv.lock (every
    package it installs) and its synced .venv if there is one; None without a readable lock. With
    ``ws``, the lock the SDK target already read and parsed (readers/uvlock.lock_in) when it is the file's
    own text, not 600 KB read and searched once more (issue 40)."""
    from osmosis_workspace.core.bounded import Unreadable, read_capped
    from osmosis_workspace.readers import uvlock

    lock, parsed = _lock_of(ws, folder / "uv.lock") if ws is not None else (None, None)
    if lock is None:
        try:
            lock = read_capped(folder / "uv.lock", _MAX_LOCK).decode("utf-8", "replace")
        except (Unreadable, OSError):
            return None
    dists = _PACKAGE_NAME.findall(lock)
    # the search reads the form uv writes: a header it did not take (a comment on it, an indent, `name`
    # not next, a literal string) or a multi-line string (which may hold a header) is another spelling of
    # TOML, which takes the names readers/uvlock's full parse reads (rare: uv itself writes the searched form)
    if not dists or lock.count("[[package]]") != len(dists) or '"""' in lock or "'''" in lock:
        parsed = parsed or uvlock.parse(lock.replace("\r\n", "\n"))
        if parsed is not None and parsed.packages is not None:
            dists = [p["name"] for p in parsed.packages if isinstance(p.get("name"), str)][:100_000]
    if not dists:
        return None
    dists += _declared(folder)  # declared but not yet locked: `uv sync` would add it
    names: set[str] = set()
    for dist in dists:
        names |= import_names(dist)
    for site in listed_inside(folder / ".venv"):  # doctor's cache key lists these too
        try:
            names |= {entry.split(".")[0].lower() for entry in os.listdir(site)[:20_000]}
        except OSError:
            continue
    return frozenset(names)


def _lock_of(ws: Workspace, path: Path) -> tuple[str | None, object]:
    """The workspace's memo of ``path`` (text, parse) when it is what reading the file here would give:
    the file's own text (no editor's buffer, no link out), short enough that the file is within
    ``_MAX_LOCK`` bytes (5 bytes a character at most, a dropped CR counted); else (None, None)."""
    from osmosis_workspace.readers import uvlock

    if path in ws.overlays or ws.outside(path):
        return None, None
    text, parsed = uvlock.lock_in(ws, path)
    return (text, parsed) if text is not None and 5 * len(text) <= _MAX_LOCK else (None, None)


def _declared(folder: Path) -> list[str]:
    from osmosis_workspace.core.bounded import read_capped, toml_loads
    from osmosis_workspace.core.pep440 import requirement_name

    try:
        data = toml_loads(read_capped(folder / "pyproject.toml", 1_000_000).decode("utf-8"))
    except Exception:  # noqa: BLE001 - an unreadable pyproject is ENT008/ENT010's finding
        return []
    project = data.get("project") if isinstance(data.get("project"), dict) else {}
    found = [*(project.get("dependencies") or [])]
    for table in (project.get("optional-dependencies"), data.get("dependency-groups")):
        if isinstance(table, dict):
            found += [r for group in table.values() if isinstance(group, list) for r in group]
    return [n for n in (requirement_name(r) for r in found if isinstance(r, str)) if n]


def _stdlib(top: str) -> bool:
    return top in sys.stdlib_module_names or top == "__future__"  # type: ignore[attr-defined]


def _local(resolver: Resolver, module: Module, folder: Path, top: str) -> bool:
    if local_module(resolver, module, top) is not None:
        return True
    return any(os.path.lexists(base / name) for base in (folder, folder / "src", module.path.parent)
               for name in (top, top + ".py"))


def _unprovided(resolver: Resolver, module: Module, path: str, folder: Path, provided: frozenset[str]) -> list[Diagnostic]:
    from osmosis_workspace.core.suggest import closest

    guarded = guarded_imports(module)
    found, seen = [], set()
    for node in _import_time(module.tree.body):  # type: ignore[union-attr]
        if id(node) in guarded:
            continue
        if isinstance(node, ast.Import):
            tops = [a.name.split(".")[0] for a in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            tops = [node.module.split(".")[0]]
        else:
            continue
        for top in tops:
            if top in seen or _stdlib(top) or top.lower() in provided or _local(resolver, module, folder, top):
                continue
            seen.add(top)
            instead = _NOT_THE_MODULE.get(top) or closest(top.lower(), sorted(provided))
            found.append(_at(IMPORT_NOT_PROVIDED, path, node,
                             f"no package the rollout declares or locks provides module {top!r}: the import raises ModuleNotFoundError",
                             hint=(f"Did you mean {instead}? " if instead else "") + f"If {top} is a dependency, `uv add` it in "
                                  f"rollouts/{folder.name}/ (the lock is what the run installs)." + _PREFLIGHT))
    return found
